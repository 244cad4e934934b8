import "./patch.mjs";
import { Model } from "./model.mjs";
export function run() {
  return Model.find(); // unresolved
}
export function direct() {
  return Model.stay();
}
run();
direct();
