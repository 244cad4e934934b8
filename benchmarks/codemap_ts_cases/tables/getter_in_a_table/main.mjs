function handler() {
  return "handled";
}
const routes = {
  get current() {
    return handler;
  },
};
export function run() {
  return routes.current();
}
run();
