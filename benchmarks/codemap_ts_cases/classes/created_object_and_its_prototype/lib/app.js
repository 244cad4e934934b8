const request = require("./request");

class App {
  constructor() {
    this.request = Object.create(request);
  }

  createContext(req) {
    const context = Object.create({});
    const own = (context.request = Object.create(this.request));
    own.req = req;
    context.app = this;
    return context;
  }

  name() {
    return "app";
  }
}

module.exports = App;
