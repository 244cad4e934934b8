function real() {
  return "real";
}
export const table = { real, handle: real };
