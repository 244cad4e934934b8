var app = exports = module.exports = {};

app.set = function set(key, value) {
  this[key] = value;
  return this;
};

app.enable = function enable(key) {
  return this.set(key, true);
};
