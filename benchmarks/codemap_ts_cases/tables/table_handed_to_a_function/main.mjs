function onA() {
  return "a";
}
function onB() {
  return "b";
}
function dispatch(table) {
  return table.a() + table.b();
}
export function run() {
  return dispatch({ a: onA, b: onB });
}
run();
