function real() {
  return 1;
}
function stub() {
  return 2;
}
const Model = function () {};
Model.count = real;
function mock() {
  Model.count = stub;
}
function go() {
  return Model.count(); // unresolved
}
mock();
go();
module.exports = { go, mock };
