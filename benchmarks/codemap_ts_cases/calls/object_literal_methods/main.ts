const api = {
  get() {
    return 1;
  },
  post: (x: number) => x,
  nested: {
    del() {
      return 0;
    },
  },
};
export function run() {
  api.get();
  api.post(1);
  api.nested.del();
}
