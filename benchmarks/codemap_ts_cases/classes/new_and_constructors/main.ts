class A {
  constructor() {
    this.init();
  }
  init() {
    return 1;
  }
}
class B extends A {}
class C {}
export function build() {
  new A();
  new B();
  return new C();
}
