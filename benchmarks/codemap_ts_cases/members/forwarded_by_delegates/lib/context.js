const delegate = require("delegates");

const proto = (module.exports = {
  inspect() {
    return "context";
  },
});

delegate(proto, "response").method("redirect").access("body").fluent("other");
