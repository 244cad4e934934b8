function primary() {
  return 1;
}
function secondary() {
  return 2;
}
function fallback() {
  return 0;
}
function run(fn = fallback, label = "x") {
  return fn() + label.length;
}
run(primary);
run(secondary, "y");
