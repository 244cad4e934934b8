function ping() {
  return 1;
}
function pong() {
  return 2;
}
const registry = new Map([["pong", pong]]);
function call() {
  const fn = arguments[0];
  return fn(); // unresolved
}
export function run(key) {
  call(ping);
  return call(registry.get(key));
}
run("pong");
