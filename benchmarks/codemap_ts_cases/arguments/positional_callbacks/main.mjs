function double(x) {
  return 2 * x;
}
function square(x) {
  return x * x;
}
function apply(fn, x) {
  return fn(x);
}
export function run() {
  return apply(double, 2) + apply(square, 3);
}
run();
