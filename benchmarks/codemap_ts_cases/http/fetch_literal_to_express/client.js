async function check() {
  return fetch("/api/status");
}
async function save(id, body) {
  return fetch("/api/items/" + id, { method: "PUT", body });
}
async function other() {
  return fetch("/api/missing");
}
module.exports = { check, save, other };
