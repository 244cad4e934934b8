import { table } from "./table.mjs";
function fake() {
  return "fake";
}
table.handle = fake;
