function real() {
  return "real";
}
function fake() {
  return "fake";
}
function kept() {
  return "kept";
}
const table = { handle: real, keep: kept };
function patch(target) {
  target.handle = fake;
}
patch(table);
export function run() {
  const first = table.handle(); // unresolved
  return first + table.keep();
}
run();
