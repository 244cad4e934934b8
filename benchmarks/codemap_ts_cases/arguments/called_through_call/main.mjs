function double(x) {
  return 2 * x;
}
function triple(x) {
  return 3 * x;
}
function apply(fn, x) {
  return fn(x);
}
export function run() {
  return apply(double, 1) + apply.call(null, triple, 1);
}
run();
