function target(fn) {
  return fn();
}
function forward() {
  return target.apply(null, arguments);
}
function ping() {
  return 1;
}
function pong() {
  return 2;
}
export function run() {
  forward(ping);
  return forward(pong);
}
run();
