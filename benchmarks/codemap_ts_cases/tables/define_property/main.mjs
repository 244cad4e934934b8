function readSize() {
  return 3;
}
function handle() {
  return "handled";
}
const box = {};
Object.defineProperty(box, "size", { get: readSize });
Object.defineProperty(box, "handle", { value: handle });
export function run() {
  return box.size + box.handle();
}
run();
