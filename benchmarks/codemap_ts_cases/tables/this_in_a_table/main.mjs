const counter = {
  n: 0,
  inc() {
    this.n += 1;
  },
  twice() {
    this.inc();
    this.inc();
  },
};
counter.twice();
