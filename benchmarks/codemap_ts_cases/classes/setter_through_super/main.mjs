function one() {
  return 1;
}
class A {
  set v(x) {
    one();
  }
}
class B extends A {
  constructor() {
    super();
    super.v = 3;
  }
}
export function run() {
  return new B();
}
run();
