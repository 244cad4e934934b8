class Repo {
  find() {
    return 1;
  }
}
export class Service {
  constructor(private repo: Repo) {}
  load() {
    return this.repo.find(); // unresolved
  }
}
export function wire() {
  return new Service(new Repo()).load();
}
