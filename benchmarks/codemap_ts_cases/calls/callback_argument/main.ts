function double(x: number) {
  return x * 2;
}
function apply(fn: (x: number) => number, x: number) {
  return fn(x);
}
export function run() {
  return apply(double, 3);
}
