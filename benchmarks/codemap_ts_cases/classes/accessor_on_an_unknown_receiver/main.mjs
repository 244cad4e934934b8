class Box {
  get size() {
    return 1;
  }
  get weight() {
    return 2;
  }
  open() {
    return 3;
  }
}
const boxes = new Map([["a", new Box()]]);
function measure(box) {
  return box.size; // unresolved
}
function weigh(box) {
  return box.weight;
}
export function run(key) {
  const plain = new Box();
  return measure(boxes.get(key)) + weigh(plain) + plain.open.length;
}
run("a");
