var proto = require("./proto");

module.exports = function createApplication() {
  var app = function (req, res) {
    return [req, res];
  };
  Object.assign(app, proto);
  app.init();
  return app;
};
