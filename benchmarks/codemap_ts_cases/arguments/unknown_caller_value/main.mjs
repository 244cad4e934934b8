function alpha() {
  return "a";
}
function beta() {
  return "b";
}
const registry = new Map([["b", beta]]);
function each(fn) {
  return fn(); // unresolved
}
export function run(key) {
  each(alpha);
  return each(registry.get(key));
}
run("b");
