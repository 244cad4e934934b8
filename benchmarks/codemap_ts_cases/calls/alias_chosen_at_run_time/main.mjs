const api = {
  feed() {
    return 1;
  },
  all() {
    return 2;
  },
};

export function load(token) {
  const pick = token ? api.feed : api.all;
  return pick();
}

load("t");
load("");
