const Koa = require("koa");
const Router = require("@koa/router");
const app = new Koa();
const router = new Router({ prefix: "/users" });
async function show(ctx) {
  ctx.body = {};
}
router.get("/:id", show);
app.use(router.routes());
