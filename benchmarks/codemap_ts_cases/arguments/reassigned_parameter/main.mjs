function log() {
  return "log";
}
function quiet() {
  return "";
}
function wrap(fn, silent) {
  if (silent) {
    fn = quiet;
  }
  return fn(); // unresolved
}
wrap(log, false);
wrap(log, true);
