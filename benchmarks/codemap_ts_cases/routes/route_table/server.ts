import * as express from "express";
import { AppRoutes } from "./routes";

const app = express();
AppRoutes.forEach((route) => {
  app[route.method](route.path, (req: unknown, res: unknown) => {
    return route.action(req, res); // unresolved
  });
});
