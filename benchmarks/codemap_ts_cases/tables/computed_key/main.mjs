const handlers = {
  a() {
    return "a";
  },
  b() {
    return "b";
  },
};
export function run(name) {
  return handlers[name](); // unresolved
}
run("a");
