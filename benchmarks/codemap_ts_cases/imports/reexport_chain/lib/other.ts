export function format(n: number) {
  return String(n);
}
