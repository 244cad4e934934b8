export function load() {
  return 1;
}
