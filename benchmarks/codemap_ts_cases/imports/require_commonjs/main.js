const u = require("./u");
const { g } = require("./u");
const v = require("./v");
function run() {
  u.f();
  g();
  v.h();
}
module.exports = { run };
