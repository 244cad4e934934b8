import { Circle, Square } from "./shapes.mjs";
function make(Kind, size) {
  return new Kind(size);
}
export function run() {
  return [make(Circle, 1), make(Square, 2)];
}
run();
