function one() {
  return 1;
}
async function fetcher() {
  return one;
}
export function run() {
  return fetcher().then((f) => f());
}
export function named() {
  return fetcher().then(function use(f) {
    return f();
  });
}
run();
named();
