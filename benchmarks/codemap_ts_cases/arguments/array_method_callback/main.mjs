function a() {
  return 1;
}
function b() {
  return 2;
}
function call(fn) {
  return fn(); // unresolved
}
export function run() {
  return [a, b].map(call);
}
run();
