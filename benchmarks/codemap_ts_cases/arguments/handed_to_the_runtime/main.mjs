function start() {
  return "start";
}
function finish() {
  return "finish";
}
function onTick(done) {
  return done(); // unresolved
}
onTick(start);
setTimeout(onTick, 1, finish);
