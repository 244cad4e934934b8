function a() {
  return "a";
}
function b() {
  return "b";
}
const table = { a, b };
delete table.a;
table.a = b;
export function run() {
  return table.a(); // unresolved
}
run();
