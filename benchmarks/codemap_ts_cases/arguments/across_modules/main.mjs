import { each } from "./lib.mjs";
const seen = [];
function remember(item) {
  seen.push(item);
}
export function run() {
  each([1, 2], remember);
}
run();
