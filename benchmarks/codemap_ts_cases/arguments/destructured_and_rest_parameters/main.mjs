function one() {
  return 1;
}
function two() {
  return 2;
}
function first([head]) {
  return head();
}
function rest(...fns) {
  return fns[0]();
}
function options({ cb } = { cb: two }) {
  return cb();
}
function pair([a, b]) {
  return a() + b();
}
export function run() {
  first([one]);
  rest(one);
  options({ cb: one });
  options();
  pair([one, two]);
}
run();
