function step() {
  return 1;
}
export function apply(step: () => number) {
  return step(); // unresolved
}
