function start() {
  return "start";
}
function stop() {
  return "stop";
}
export const commands = { start, stop };
