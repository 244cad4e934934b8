import { Animal } from "./base";
export class Dog extends Animal {
  constructor() {
    super("dog");
  }
  speak() {
    return super.speak() + "!";
  }
}
