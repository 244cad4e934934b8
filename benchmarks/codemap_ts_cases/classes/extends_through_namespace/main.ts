import * as shapes from "./shapes";
export class Square extends shapes.Shape {
  describe() {
    return this.area();
  }
}
