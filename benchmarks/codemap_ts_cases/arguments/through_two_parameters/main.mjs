function greet(name) {
  return `hello ${name}`;
}
function inner(fn) {
  return fn("x");
}
function outer(cb) {
  return inner(cb);
}
outer(greet);
