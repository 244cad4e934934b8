import axios from "axios";
const api = axios.create({ baseURL: "/api" });
export function loadItem(id: number) {
  return api.get(`/items/${id}`);
}
export function send(id: number) {
  return api.post(`/items/${id}`, {});
}
