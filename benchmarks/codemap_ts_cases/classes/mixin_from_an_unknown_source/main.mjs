const extra = JSON.parse("{}");
class Widget {
  draw() {
    return 1;
  }
}
const plugin = {
  draw() {
    return 2;
  },
};
Object.assign(Widget.prototype, plugin, extra);
export function run() {
  const widget = new Widget();
  return widget.draw(); // unresolved
}
run();
