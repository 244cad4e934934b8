var createApplication = require("./make");
var app = (module.exports = createApplication());
app.use(function middleware() {});
