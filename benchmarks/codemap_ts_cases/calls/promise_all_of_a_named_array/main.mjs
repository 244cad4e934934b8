function one() {
  return 1;
}
function two() {
  return 2;
}
async function fetcher() {
  return one;
}
async function other() {
  return two;
}
export async function run() {
  const ps = [fetcher()];
  ps.push(other());
  const [a, b] = await Promise.all(ps);
  return a() + b();
}
await run();
