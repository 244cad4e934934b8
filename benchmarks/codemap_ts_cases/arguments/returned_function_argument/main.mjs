function double(x) {
  return 2 * x;
}
function pick() {
  return double;
}
function apply(fn, x) {
  return fn(x);
}
export function run() {
  return apply(pick(), 3);
}
run();
