function done(value) {
  return value;
}
function failed(error) {
  return error;
}
function load({ onDone, onError }, ok) {
  if (ok) {
    return onDone(1);
  }
  return onError(new Error("no"));
}
load({ onDone: done, onError: failed }, true);
load({ onDone: done, onError: failed }, false);
