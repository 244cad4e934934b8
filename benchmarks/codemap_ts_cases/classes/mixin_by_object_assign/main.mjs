const speaker = {
  speak() {
    return "hi";
  },
};
function shout(text) {
  return text.toUpperCase();
}
class Person {
  greet() {
    return this.speak() + this.loud("x");
  }
}
Object.assign(Person.prototype, speaker, {
  loud(text) {
    return shout(text);
  },
});
export function run() {
  const p = new Person();
  return p.greet() + p.speak();
}
run();
