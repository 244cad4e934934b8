import { add } from "@core/math";
import { log } from "util/log";
export function run() {
  log(add(1, 2));
}
