// A handler registered with a package (node_modules/hub), which later calls it back with an
// object the repository made: the package's code is read for the value flow, never mapped.
const hub = require("hub");

class Reply {
  send() {
    return 1;
  }
}

function handler(res) {
  res.send();
}

function serve() {
  hub.use(handler);
  hub.handle(new Reply());
}

serve();
module.exports = { serve };
