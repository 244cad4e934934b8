class Task {
  run() {
    return 1;
  }
}
class Tasks {
  constructor() {
    this.items = [new Task()];
  }
  *[Symbol.iterator]() {
    yield* this.items;
  }
}
function* numbers() {
  yield new Task();
}
export function all() {
  const tasks = new Tasks();
  for (const task of tasks) task.run();
  const copied = [...tasks];
  const listed = Array.from(tasks);
  for (const made of numbers()) made.run();
  return copied.length + listed.length;
}
all();
