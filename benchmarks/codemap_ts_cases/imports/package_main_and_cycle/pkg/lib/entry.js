const { ping } = require("../../main");
function start() {
  return ping();
}
module.exports = { start };
