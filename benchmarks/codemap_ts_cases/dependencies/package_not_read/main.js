// The same handler, registered with a package whose code is not read: its file is minified (a
// line past the length a person writes), so what the package hands back is not followed.
const hub = require("hub");

class Reply {
  send() {
    return 1;
  }
}

function handler(res) {
  res.send(); // unresolved
}

function serve() {
  hub.use(handler);
  hub.handle(new Reply());
}

serve();
module.exports = { serve };
