// express's app.get hands its arguments from 1 on to the route's method of that name: here
// read by name, on a route a call gives (known once the index of pass sites is read)
var methods = ["get", "post"];
var slice = Array.prototype.slice;

function Route() {}
methods.forEach(function (method) {
  Route.prototype[method] = function (handler) {
    handler();
  };
});
Route.prototype.dispatch = function dispatch(req, res, done) {
  done();
};

var app = {};
app.route = function route(path) {
  return new Route();
};
app.get = function get(path) {
  var route = this.route(path);
  route.get.apply(route, slice.call(arguments, 1));
  return this;
};

function show() {}
app.get("/", show);
