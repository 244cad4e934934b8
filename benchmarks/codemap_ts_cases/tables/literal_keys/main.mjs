function create() {
  return "create";
}
function remove() {
  return "remove";
}
const handlers = { create, remove };
export function run() {
  return handlers.create() + handlers["remove"]();
}
run();
