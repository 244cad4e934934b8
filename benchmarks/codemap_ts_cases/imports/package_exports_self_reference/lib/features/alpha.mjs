export function alpha() {
  return 3;
}
