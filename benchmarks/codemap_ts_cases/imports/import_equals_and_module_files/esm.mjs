export function modern() {
  return 2;
}
