import { Hono } from "hono";
const app = new Hono();
const BASE = "/api/v2";
app.get(`${BASE}/orders/:id`, function showOrder() {
  return null;
});
app.delete("/api/v2/orders/:id", function dropOrder() {
  return null;
});
