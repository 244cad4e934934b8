const pkg = require("./pkg");
function ping() {
  return "pong";
}
function run() {
  return pkg.start();
}
module.exports = { ping, run };
