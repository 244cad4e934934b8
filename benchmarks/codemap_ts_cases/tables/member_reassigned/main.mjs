function original() {
  return 1;
}
function replacement() {
  return 2;
}
function other() {
  return 3;
}
const table = { run: original, other };
table.run = replacement;
export function go() {
  const first = table.run(); // unresolved
  return first + table.other();
}
go();
