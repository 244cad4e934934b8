export default class ItemController {
  create(req: unknown, res: unknown) {
    return res;
  }
  findAll(req: unknown, res: unknown) {
    return res;
  }
}
