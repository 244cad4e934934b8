import { commands } from "./commands.mjs";
import * as all from "./commands.mjs";
export function run() {
  return commands.start() + all.commands.stop();
}
run();
