import express, { Application } from "express";
import items from "./routes/items";
import swapped from "./routes/swapped";

class Routes {
  constructor(app: Application) {
    app.use("/api/items", items);
    app.use("/api/swapped", swapped);
  }
}

new Routes(express());
