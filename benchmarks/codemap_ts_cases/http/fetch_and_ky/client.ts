import ky from "ky";
const HOST = "http://localhost:3000";
export async function order(id: string) {
  return fetch(`${HOST}/api/v2/orders/${id}`);
}
export async function drop(id: string) {
  return fetch(`/api/v2/orders/${id}`, { method: "DELETE" });
}
export async function viaKy(id: string) {
  return ky.get(`api/v2/orders/${id}`, { prefixUrl: HOST }).json();
}
export async function unknown(url: string) {
  return fetch(url);
}
