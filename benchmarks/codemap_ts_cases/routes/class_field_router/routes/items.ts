import { Router } from "express";
import ItemController from "../controllers/items";

class ItemRoutes {
  router = Router();
  controller = new ItemController();

  constructor() {
    this.intializeRoutes();
  }

  intializeRoutes() {
    this.router.post("/", this.controller.create);
    this.router.get("/", this.controller.findAll);
  }
}

export default new ItemRoutes().router;
