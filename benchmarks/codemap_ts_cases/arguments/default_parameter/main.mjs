function primary() {
  return 1;
}
function fallback() {
  return 0;
}
function run(fn = fallback) {
  return fn();
}
run(primary);
run();
