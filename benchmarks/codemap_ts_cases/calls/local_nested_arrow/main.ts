function helper() {
  return 1;
}
const twice = (x: number) => x * 2;
export function run() {
  function inner() {
    return helper();
  }
  return twice(inner());
}
run();
