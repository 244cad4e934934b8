function f() {
  return 1;
}
function g() {
  return 2;
}
module.exports = { f, g };
