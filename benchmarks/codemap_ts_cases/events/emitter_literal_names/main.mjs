import { EventEmitter } from "node:events";

const bus = new EventEmitter();
const other = new EventEmitter();

function onSaved(id) {
  return id;
}
function onceReady() {
  return "ready";
}
function onOther() {
  return "other";
}
bus.on("saved", onSaved);
bus.once("ready", onceReady);
other.addListener("saved", onOther);

class Store extends EventEmitter {
  constructor() {
    super();
    this.on("change", this.log);
  }
  log() {
    return "logged";
  }
  save() {
    this.emit("change");
  }
}

export function run() {
  bus.emit("saved", 1);
  bus.emit("ready");
  const store = new Store();
  store.save();
}
run();
