class Base {
  helper() {
    return 1;
  }
}
export class Child extends Base {
  run() {
    this.helper();
    return this.own();
  }
  own() {
    return 2;
  }
}
