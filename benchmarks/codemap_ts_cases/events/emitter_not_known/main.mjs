import { EventEmitter } from "node:events";

function onTick() {
  return "tick";
}
function make() {
  return new EventEmitter();
}
const clock = make();
clock.on("tick", onTick);

export function fire(emitter) {
  emitter.emit("tick"); // unresolved
}
fire(clock);
