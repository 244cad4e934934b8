const cache = new Map();
class Comparator {
  constructor(text) {
    this.text = text;
  }
  test(v) {
    return v === this.text;
  }
}
function parseRange(r) {
  const cached = cache.get(r);
  if (cached) {
    return cached;
  }
  const result = [new Comparator(r)];
  cache.set(r, result);
  return result;
}
function parseOne(r) {
  const hit = cache.get(r);
  if (hit) {
    return hit;
  }
  return [new Comparator(r)];
}
function testSet(set, v) {
  for (let i = 0; i < set.length; i++) {
    if (!set[i].test(v)) return false; // unresolved
  }
  return true;
}
export function main() {
  testSet(parseRange("1"), "1");
  testSet(parseRange("1"), "1");
  return testSet(parseOne("2"), "2");
}
main();
