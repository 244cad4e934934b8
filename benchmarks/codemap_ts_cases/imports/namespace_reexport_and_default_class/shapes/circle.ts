export default class Circle {
  constructor(public r: number) {}
  area() {
    return 3 * this.r * this.r;
  }
}
