import * as store from "./store.mjs";
import { load } from "./store.mjs";
const backend = { save: store.save, load };
export function run() {
  return backend.save(backend.load());
}
run();
