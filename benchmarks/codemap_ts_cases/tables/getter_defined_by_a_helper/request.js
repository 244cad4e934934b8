var req = Object.create(Object.prototype);

defineGetter(req, "host", function host() {
  return "example.com";
});
defineGetter(req, "port", function port() {
  return 80;
});
defineGetter(req, "origin", function origin() {
  return this.host + ":" + this.port; // this: the object read, made from req
});

module.exports = req;

// every use of this helper is a module-level call with a literal key: each is the
// Object.defineProperty it runs, written there
function defineGetter(obj, name, getter) {
  Object.defineProperty(obj, name, { configurable: true, enumerable: true, get: getter });
}
