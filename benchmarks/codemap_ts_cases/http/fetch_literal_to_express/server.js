const express = require("express");
const app = express();
const api = express.Router();
api.get("/status", function status(req, res) {
  res.send("ok");
});
api.put("/items/:id", function update(req, res) {
  res.send("ok");
});
app.use("/api", api);
module.exports = app;
