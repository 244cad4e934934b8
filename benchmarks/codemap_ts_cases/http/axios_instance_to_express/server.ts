import express from "express";
const app = express();
function getItem(req: unknown, res: unknown) {
  return res;
}
app.get("/api/items/:id", getItem);
