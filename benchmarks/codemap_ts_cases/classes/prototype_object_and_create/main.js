function Animal(name) {
  this.name = name;
}
Animal.prototype.describe = function () {
  return this.name;
};
function Dog(name) {
  Animal.call(this, name);
}
Dog.prototype = Object.create(Animal.prototype);
Dog.prototype.bark = function () {
  return this.describe() + "!";
};
function Cat() {}
Cat.prototype = {
  purr() {
    return "purr";
  },
};
const base = {
  hello() {
    return "hello";
  },
};
function run() {
  const dog = new Dog("rex");
  const cat = new Cat();
  const child = Object.create(base);
  return dog.bark() + dog.describe() + cat.purr() + child.hello();
}
run();
