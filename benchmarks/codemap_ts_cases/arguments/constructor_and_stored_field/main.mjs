function job() {
  return 42;
}
class Worker {
  constructor(task) {
    task();
    this.task = task;
  }
  start() {
    return this.task();
  }
}
export function run() {
  const worker = new Worker(job);
  return worker.start();
}
run();
