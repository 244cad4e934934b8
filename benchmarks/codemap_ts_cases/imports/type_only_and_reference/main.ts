/// <reference path="./globals.d.ts" />
import type { Point } from "./types";
export function norm(p: Point) {
  return p.x;
}
