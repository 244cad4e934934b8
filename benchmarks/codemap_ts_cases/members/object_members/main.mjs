import store from "./store.mjs";
export function run() {
  return store.put("a") + store.get("b");
}
run();
