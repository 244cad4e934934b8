const api = {
  users: {
    get(id) {
      return { id };
    },
  },
  items: {
    list() {
      return [];
    },
  },
};
export function run() {
  return [api.users.get(1), api.items.list()];
}
run();
