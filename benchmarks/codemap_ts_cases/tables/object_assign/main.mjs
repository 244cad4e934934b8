function a() {
  return "a";
}
function b() {
  return "b";
}
const handlers = { a };
Object.assign(handlers, { a: b });
export function run() {
  return handlers.a(); // unresolved
}
run();
