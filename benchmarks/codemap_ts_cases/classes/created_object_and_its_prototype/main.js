const App = require("./lib/app");

function make(req, app) {
  app = app || new App();
  return app.createContext(req);
}

function run() {
  const context = new App().createContext({ headers: { host: "example.com" } });
  const other = make({ headers: { host: "example.org" } });
  return [context.request.host, context.request.describe(), context.app.name(), other.request.host];
}
run();
