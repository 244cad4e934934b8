function target(a) {
  return a;
}
async function fetchIt() {
  return 1;
}
async function other() {
  return 2;
}
const counter = {
  n: 0,
  inc() {
    this.n += 1;
    return this.n;
  },
};

function binder() {
  const f = target.bind(null, 1);
  f();
  target.bind(null)(2);
  const inc = counter.inc.bind(counter);
  return inc();
}

async function flow() {
  const a = await fetchIt();
  const [b, c] = await Promise.all([fetchIt(), other()]);
  await Promise.all([1, 2].map(target));
  return a + b + c;
}

binder();
await flow();
