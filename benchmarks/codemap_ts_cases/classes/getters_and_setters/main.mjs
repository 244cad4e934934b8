function render(text) {
  return `<${text}>`;
}
class Base {
  get label() {
    return render(this.name);
  }
}
class User extends Base {
  constructor(name) {
    super();
    this.name = name;
  }
  get upper() {
    return this.name.toUpperCase();
  }
  set nick(value) {
    this.name = value;
  }
  static get count() {
    return 1;
  }
  describe() {
    return this.upper;
  }
}
export function run() {
  const user = new User("ada");
  user.nick = "lovelace";
  const shown = user.label + user.describe();
  return shown + User.count;
}
run();
