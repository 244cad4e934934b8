export class User {
  static create(name: string) {
    return new User();
  }
  static count() {
    return 0;
  }
}
