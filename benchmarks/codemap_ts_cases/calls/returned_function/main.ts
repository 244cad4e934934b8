function make() {
  function inner() {
    return 1;
  }
  return inner;
}
export function run() {
  const f = make();
  return f();
}
