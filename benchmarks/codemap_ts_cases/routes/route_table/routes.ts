import { listPosts, savePost, hidden } from "./actions";

declare function verbOf(name: string): string;

export const AppRoutes = [
  { path: "/posts", method: "get", action: listPosts },
  { path: "/posts", method: "post", action: savePost },
  { path: "/hidden", method: verbOf("hidden"), action: hidden },
];
