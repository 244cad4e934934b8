var app = require("./app");
app.get("/"); // unresolved
app.use(function middleware() {}); // unresolved
