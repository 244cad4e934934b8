class Layer {
  constructor(fn) {
    this.fn = fn;
  }
  handle() {
    return this.fn();
  }
}
class Stack {
  constructor() {
    this.layers = [];
  }
  use(fn) {
    this.layers.push(new Layer(fn));
    return this;
  }
  first() {
    return this.layers[0].handle();
  }
  each() {
    for (const layer of this.layers) layer.handle();
  }
  all() {
    return this.layers.map((layer) => layer.handle());
  }
}
function hello() {
  return 1;
}
export function run() {
  const stack = new Stack().use(hello);
  stack.first();
  stack.each();
  stack.all();
}
run();
