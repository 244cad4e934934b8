var app = (exports = module.exports = {});

app.route = function route(path) {
  return path;
};

["get", "post"].forEach(function (method) {
  app[method] = function (path) {
    return this.route(path); // unresolved
  };
});

app.use = function use(fn) {
  return fn;
};
