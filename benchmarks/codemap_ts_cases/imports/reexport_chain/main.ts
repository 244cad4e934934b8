import { parse, show } from "./lib";
export function run() {
  return show(parse("abc"));
}
