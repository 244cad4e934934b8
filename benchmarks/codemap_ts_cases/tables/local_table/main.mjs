function inc(n) {
  return n + 1;
}
function dec(n) {
  return n - 1;
}
export function run(n) {
  const ops = { inc, dec };
  return ops.inc(n) + ops.dec(n);
}
run(1);
