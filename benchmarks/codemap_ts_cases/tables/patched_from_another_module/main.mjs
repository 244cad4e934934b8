import "./patch.mjs";
import { table } from "./table.mjs";
export function run() {
  return table.handle(); // unresolved
}
export function direct() {
  return table.real();
}
run();
direct();
