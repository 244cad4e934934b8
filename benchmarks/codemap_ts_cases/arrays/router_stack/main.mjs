function Layer(fn) {
  if (!(this instanceof Layer)) return new Layer(fn);
  this.handle = fn;
}
Layer.prototype.handleRequest = function handleRequest(req, next) {
  const fn = this.handle;
  return fn(req, next);
};
function Route() {
  this.stack = [];
}
Route.prototype.use = function use(fn) {
  const layer = Layer(fn);
  this.stack.push(layer);
  return this;
};
Route.prototype.dispatch = function dispatch(req) {
  const stack = this.stack;
  let idx = 0;
  function next() {
    let layer;
    while (idx < stack.length) {
      layer = stack[idx++];
      return layer.handleRequest(req, next);
    }
    return undefined;
  }
  return next();
};
function logger(req, next) {
  return next();
}
function answer(req) {
  return req;
}
export function main() {
  new Route().use(logger).use(answer).dispatch(1);
}
main();
