import { Router } from "express";
import ItemController from "../controllers/items";

declare function pick(): ItemController;

class SwappedRoutes {
  router = Router();
  controller = new ItemController();

  constructor() {
    this.controller = pick();
    this.router.get("/", this.controller.findAll);
  }
}

export default new SwappedRoutes().router;
