var app = require("./app");
app.enable("trust proxy");
