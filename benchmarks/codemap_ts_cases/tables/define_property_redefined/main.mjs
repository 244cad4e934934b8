function first() {
  return 1;
}
function second() {
  return 2;
}
const box = {};
Object.defineProperty(box, "pick", { value: first, writable: true });
export function swap() {
  box.pick = second;
}
export function run() {
  swap();
  return box.pick(); // unresolved
}
run();
