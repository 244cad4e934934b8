function* numbers(limit) {
  for (let i = 0; i < limit; i++) yield i;
}
function* doubled(source) {
  for (const n of source) yield n * 2;
}
export function total() {
  let sum = 0;
  for (const x of doubled(numbers(3))) sum += x;
  const all = [...numbers(2)];
  return sum + all.length;
}
total();
