import { Model } from "./model.mjs";
function fake() {
  return "fake";
}
Model.find = fake;
