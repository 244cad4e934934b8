// express's app.get: a member made from a list of names hands its arguments from 1 on to the
// route's method of that name, read by a computed key from a call's result
var methods = ["get", "post"];
var slice = Array.prototype.slice;

function Route() {}
methods.forEach(function (method) {
  Route.prototype[method] = function (handler) {
    handler();
  };
});

var app = {};
app.route = function route(path) {
  return new Route();
};
methods.forEach(function (method) {
  app[method] = function (path) {
    var route = this.route(path);
    route[method].apply(route, slice.call(arguments, 1));
    return this;
  };
});

function show() {}
app.get("/", show);
