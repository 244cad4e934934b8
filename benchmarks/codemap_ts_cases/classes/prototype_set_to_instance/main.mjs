function Router() {
  function router(x) {
    return router.handle(x);
  }
  Object.setPrototypeOf(router, this);
  return router;
}
Router.prototype.handle = function handle(x) {
  return x;
};
export function run() {
  const r = new Router();
  r.handle(1);
  return r(2);
}
run();
