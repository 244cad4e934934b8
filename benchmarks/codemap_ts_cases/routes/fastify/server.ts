import Fastify from "fastify";
import { users } from "./plugin";
const fastify = Fastify();
async function ping() {
  return "pong";
}
fastify.route({ method: ["GET", "HEAD"], url: "/ping", handler: ping });
fastify.register(users, { prefix: "/v1" });
