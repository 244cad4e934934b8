import { Router } from "express";
const router = Router();
function listItems(req: unknown, res: unknown) {
  return res;
}
router.get("/", listItems);
router.post("/:id", (req, res) => res);
export default router;
