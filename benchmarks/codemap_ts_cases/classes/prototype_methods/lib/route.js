module.exports = Route;

function Route(path) {
  this.path = path;
}

Route.prototype.dispatch = function dispatch(req) {
  return this.handle(req);
};

Route.prototype.handle = function handle(req) {
  return req;
};

['get', 'post'].forEach(function (method) {
  Route.prototype[method] = function (fn) {
    return this;
  };
});
