function double(x) {
  return 2 * x;
}
function apply(fn, x) {
  return fn(x); // unresolved
}
export function run() {
  const args = [double, 2];
  return apply(...args);
}
run();
