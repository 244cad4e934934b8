import legacy = require("./legacy.cjs");
import { modern } from "./esm.mjs";
export function run() {
  return legacy() + modern();
}
