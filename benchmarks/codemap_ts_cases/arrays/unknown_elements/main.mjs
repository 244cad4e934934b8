function alpha() {
  return "a";
}
const handlers = [alpha];
export function register(fn) {
  handlers.push(fn);
}
export function fire() {
  for (const handler of handlers) handler(); // unresolved
  const loaded = [].concat(globalThis.extraHandlers || [alpha]);
  loaded.forEach((item) => {
    item(); // unresolved
  });
  const fromPackage = [];
  fromPackage.push(Math.max);
  return fromPackage[0](1, 2);
}
register(JSON.parse("null") || alpha);
fire();
