class MemoryStore {
  get(key: string) {
    return key;
  }
}
class DiskStore {
  get(key: string) {
    return key.length;
  }
}
class Cache {
  constructor(
    readonly store: MemoryStore | DiskStore,
    private name = "cache",
  ) {}
  read(key: string) {
    return this.store.get(key);
  }
}
export function wire() {
  const a = new Cache(new MemoryStore());
  const b = new Cache(new DiskStore(), "disk");
  return a.read("k") + b.read("k");
}
