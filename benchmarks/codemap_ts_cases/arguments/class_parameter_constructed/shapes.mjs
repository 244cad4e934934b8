export class Circle {
  constructor(r) {
    this.r = r;
  }
}
export class Square {
  constructor(s) {
    this.s = s;
  }
}
