export function heavy() {
  return 42;
}
