function fallback() {
  return 0;
}
export function run(fn = fallback) {
  return fn(); // unresolved
}
