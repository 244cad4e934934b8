async function load() {
  return 1;
}

function done(value) {
  return value;
}

function fail(error) {
  return error;
}

function settle() {
  return 0;
}

const api = {
  async fetch() {
    return 2;
  },
};

export async function run() {
  await load().then(done).catch(fail).finally(settle);
  await api.fetch().then(done);
}

run();
