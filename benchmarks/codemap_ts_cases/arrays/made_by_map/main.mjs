class Comparator {
  constructor(text) {
    this.text = text;
  }
  test(v) {
    return v === this.text;
  }
}
class Range {
  constructor(range) {
    this.set = range
      .split("||")
      .map((r) => this.parseRange(r))
      .filter((c) => c.text.length);
  }
  parseRange(r) {
    return new Comparator(r.trim());
  }
  test(v) {
    for (const comparator of this.set) if (comparator.test(v)) return true;
    return false;
  }
  first() {
    return this.set[0];
  }
}
const names = ["a", "b"];
export function main() {
  const range = new Range("1 || 2");
  range.test("1");
  range.first().test("2");
  names
    .map((n) => new Comparator(n))
    .forEach((c) => c.test("a"));
  const made = Array.from(names, (n) => new Comparator(n)).concat([new Comparator("z")]);
  return made.slice()[0].test("b");
}
main();
