function base() {
  return "base";
}
function custom() {
  return "custom";
}
function other() {
  return "other";
}
const overrides = { run: custom };
const table = { run: base, ...overrides, other };
export function go() {
  const first = table.run(); // unresolved
  return first + table.other();
}
go();
