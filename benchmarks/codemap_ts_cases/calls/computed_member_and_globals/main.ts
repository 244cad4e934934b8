const handlers = {
  open() {
    return 1;
  },
  close() {
    return 2;
  },
};
export function dispatch(name: "open" | "close") {
  console.log(JSON.stringify(name));
  return handlers[name](); // unresolved
}
