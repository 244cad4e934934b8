function real() {
  return 1;
}
function other() {
  return 2;
}
const api = {};
api.load = real;
const name = ["lo", "ad"].join("");
api[name] = other;
export function go() {
  return api.load(); // unresolved
}
go();
