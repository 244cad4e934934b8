import { Store } from "./store";
export function persist(target: { save(): boolean }) {
  return target.save(); // unresolved
}
export function make() {
  return new Store();
}
