function first() {
  return 1;
}
function second() {
  return 2;
}
function keep() {
  return 3;
}
const Model = function () {};
Model.find = first;
Model.find = second;
Model.keep = keep;
export function go() {
  const found = Model.find(); // unresolved
  return found + Model.keep();
}
go();
