export class Shape {
  area() {
    return 0;
  }
}
