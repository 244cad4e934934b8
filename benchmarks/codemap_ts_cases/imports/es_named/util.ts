export function double(x: number): number {
  return x * 2;
}
