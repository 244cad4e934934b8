const request = require("./lib/request");

function run() {
  const own = Object.create(request);
  own.req = { headers: {} };
  own.header = { host: "example.com" };
  return own.host;
}
run();
