import { FastifyInstance } from "fastify";
export async function users(app: FastifyInstance) {
  app.get("/users/:id", async () => ({}));
}
