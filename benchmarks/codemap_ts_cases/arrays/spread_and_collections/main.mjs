class Comparator {
  constructor(text) {
    this.text = text;
  }
  test(v) {
    return v === this.text;
  }
}
function parseRange(range) {
  const rangeMap = new Map();
  for (const part of range.split(" ")) rangeMap.set(part, new Comparator(part));
  return [...rangeMap.values()];
}
function a() {
  return "a";
}
function b() {
  return "b";
}
const steps = [a];
function copied() {
  const copy = [...steps];
  return copy[0]();
}
function around() {
  for (const f of [b, ...steps]) f();
}
function made() {
  Array.of(a, b).forEach((f) => f());
}
function added() {
  const seen = new Set([a]);
  seen.add(b);
  for (const f of seen) f();
}
function entries() {
  const byName = new Map();
  byName.set("a", a);
  for (const entry of byName) entry[1]();
}
export function main() {
  const set = parseRange("1 2");
  for (const comparator of set) comparator.test("1");
  copied();
  around();
  made();
  added();
  entries();
}
main();
