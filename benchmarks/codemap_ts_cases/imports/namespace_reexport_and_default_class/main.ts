import { circle, Circle } from "./shapes";
export function run() {
  const a = new circle.default(1);
  const b = new Circle(2);
  return a.area() + b.area();
}
