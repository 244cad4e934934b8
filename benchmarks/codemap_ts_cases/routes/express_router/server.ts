import express from "express";
import items from "./routes/items";
const app = express();
app.use("/api/items", items);
app.get("/health", function health() {
  return "ok";
});
