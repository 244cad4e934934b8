const slice = Array.prototype.slice;
const flatten = Array.prototype.flat;
function Layer(fn) {
  this.handle = fn;
}
Layer.prototype.run = function run(x) {
  const fn = this.handle;
  return fn(x);
};
function Stack() {
  this.layers = [];
}
Stack.prototype.use = function use() {
  const callbacks = flatten.call(slice.call(arguments), Infinity);
  for (let i = 0; i < callbacks.length; i++) {
    const layer = new Layer(callbacks[i]);
    this.layers.push(layer);
    layer.run(i);
  }
  return this;
};
function first(x) {
  return x;
}
function second(x) {
  return x + 1;
}
export function run() {
  const stack = new Stack();
  stack.use(first, [second]);
}
run();
