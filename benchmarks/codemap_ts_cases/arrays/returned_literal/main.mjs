class Comparator {
  constructor(text) {
    this.text = text;
  }
  test(v) {
    return v === this.text;
  }
}
class Range {
  constructor(text) {
    this.set = text.split("||").map((r) => this.parseRange(r));
  }
  parseRange(r) {
    const comp = new Comparator(r.trim());
    if (comp.text === "") {
      return [comp];
    }
    return [comp, new Comparator(r)];
  }
  test(v) {
    for (const comparators of this.set) if (testSet(comparators, v)) return true;
    return false;
  }
}
function testSet(set, v) {
  for (let i = 0; i < set.length; i++) if (!set[i].test(v)) return false;
  return true;
}
function first() {
  return 1;
}
function second() {
  return 2;
}
function only() {
  return [first];
}
function both() {
  return [first, second];
}
export function main() {
  new Range("1 || 2").test("1");
  only()[0]();
  const pair = both();
  for (const f of pair) f(); // unresolved
  return pair.map((g) => {
    return g(); // unresolved
  });
}
main();
