import * as util from "./util";
export function run(flag?: boolean) {
  util?.pick(1);
  return util.pick?.("a");
}
