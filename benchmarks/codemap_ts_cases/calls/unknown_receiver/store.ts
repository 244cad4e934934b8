export class Store {
  save() {
    return true;
  }
}
