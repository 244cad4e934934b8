import { f } from "./util.js";
export const run = () => f();
