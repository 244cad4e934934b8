export function helper() {
  return 2;
}
