const Route = require('./lib/route');

module.exports = Router;

function Router() {
  this.stack = [];
}

Router.prototype.route = function route(path) {
  const route = new Route(path);
  return route;
};

Router.prototype.use = function use(fn) {
  this.stack.push(fn);
  return this;
};
