function a() {
  return 1;
}
function b() {
  return 2;
}
export function run(flag: boolean) {
  let pick = a;
  if (flag) {
    pick = b;
  }
  return pick(); // unresolved
}
