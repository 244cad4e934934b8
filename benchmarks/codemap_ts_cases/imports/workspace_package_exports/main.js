import { sweet } from "@ws/sugar";
import { fromEsm } from "@ws/conds";
import { old } from "@ws/legacy";
import { outside } from "not-in-the-repo";

export function run() {
  sweet();
  fromEsm();
  old();
  return outside();
}
