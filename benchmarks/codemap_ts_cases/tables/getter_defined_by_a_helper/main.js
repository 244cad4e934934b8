var req = require("./request");

function run() {
  return req.host;
}

function made() {
  var own = Object.create(req);
  return own.port;
}

function whole() {
  return req.origin;
}

run();
made();
whole();
