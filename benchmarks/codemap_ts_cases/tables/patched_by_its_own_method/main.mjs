function loud() {
  return "LOUD";
}
function quiet() {
  return "quiet";
}
const speaker = {
  speak: loud,
  hush() {
    this.speak = quiet;
  },
};
export function run() {
  speaker.hush();
  return speaker.speak(); // unresolved
}
run();
