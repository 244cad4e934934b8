class Job {
  run() {
    return 1;
  }
}
export function start(list) {
  for (const job of list.map((x) => new Job(x))) job.run();
  const callable = list.filter((x) => typeof x === "function");
  callable.forEach((item) => item()); // unresolved
}
function helper() {
  return 2;
}
start(globalThis.inputs || [1, helper]);
