export class Animal {
  constructor(public name: string) {}
  speak() {
    return this.name;
  }
}
