function first() {
  return 1;
}
function second() {
  return 2;
}
function third() {
  return 3;
}
const key = ["a"].join("");
const table = { a: first, [key]: second, b: third };
export function run() {
  const got = table.a(); // unresolved
  return got + table.b();
}
run();
