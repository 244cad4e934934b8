import hello from "./a";
import * as b from "./b";
export function run() {
  hello();
  b.shout();
  b.quiet();
}
