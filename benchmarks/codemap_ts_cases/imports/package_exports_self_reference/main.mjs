import { start } from "selfpkg";
import { sub } from "selfpkg/sub";
import { alpha } from "selfpkg/features/alpha";

function run() {
  return start() + sub() + alpha();
}
run();
