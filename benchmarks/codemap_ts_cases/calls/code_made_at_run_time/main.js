function greet() {
  return "hi";
}
globalThis.greet = greet;

function run() {
  eval("greet()"); // unresolved
  const f = new Function("return greet()"); // unresolved
  f(); // unresolved
  Function("return greet()")(); // unresolved
  globalThis.eval("greet()"); // unresolved
  return greet();
}
run();
