function saved() {
  return "saved";
}
function save(options) {
  return options.onSave();
}
export function run() {
  return save({ onSave: saved, retries: 2 });
}
run();
