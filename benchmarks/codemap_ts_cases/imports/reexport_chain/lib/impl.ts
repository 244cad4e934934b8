export function parse(s: string) {
  return s.length;
}
