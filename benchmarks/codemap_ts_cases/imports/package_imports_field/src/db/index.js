export function connect() {
  return 1;
}
