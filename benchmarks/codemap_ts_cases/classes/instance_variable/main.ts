class Svc {
  run() {
    return 1;
  }
}
class Other {
  run() {
    return 2;
  }
}
export function go(flag: boolean) {
  const s = new Svc();
  s.run();
  let t: Svc | Other = new Svc();
  if (flag) {
    t = new Other();
  }
  return t.run(); // unresolved
}
