const target = new EventTarget();

function onPing(event) {
  return event.type;
}
function onPong() {
  return "pong";
}
target.addEventListener("ping", onPing);
target.addEventListener("pong", onPong);

export function run() {
  target.dispatchEvent(new Event("ping"));
}
run();
