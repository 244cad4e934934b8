export async function listPosts(req: unknown, res: unknown) {
  return res;
}
export async function savePost(req: unknown, res: unknown) {
  return res;
}
export async function hidden(req: unknown, res: unknown) {
  return res;
}
