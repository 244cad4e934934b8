import { double } from "./util";
export function run() {
  return double(2);
}
