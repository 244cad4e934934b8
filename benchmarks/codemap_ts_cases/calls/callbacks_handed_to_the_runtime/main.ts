function tick() {}
function show(v: number) {}
function onClick() {}

export function start(el: HTMLElement) {
  setTimeout(tick, 10);
  queueMicrotask(() => tick());
  Promise.resolve(1).then(show);
  new Promise((resolve) => resolve(1));
  el.addEventListener("click", onClick);
  document.addEventListener("keyup", onClick);
}
