const context = require("./context");
const response = require("./response");

function createContext() {
  const ctx = Object.create(context);
  ctx.response = Object.create(response);
  return ctx;
}

function run() {
  const ctx = createContext();
  ctx.redirect("/home");
  ctx.body = "text";
  return ctx.body + ctx.inspect() + ctx.other;
}
module.exports = { run, createContext };
