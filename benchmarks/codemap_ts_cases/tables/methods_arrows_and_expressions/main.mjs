const ops = {
  inc(n) {
    return n + 1;
  },
  dec: (n) => n - 1,
  neg: function (n) {
    return -n;
  },
};
export function run() {
  return ops.inc(1) + ops.dec(1) + ops.neg(1);
}
run();
