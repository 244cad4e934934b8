import { User } from "./model";
import * as models from "./model";
export function seed() {
  User.create("a");
  return models.User.count();
}
