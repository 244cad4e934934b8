export function sub() {
  return 2;
}
