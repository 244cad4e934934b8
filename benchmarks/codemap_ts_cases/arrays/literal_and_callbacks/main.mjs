function parse(x) {
  return x;
}
function check(x) {
  return x;
}
function byName(a, b) {
  return a.name < b.name ? -1 : 1;
}
const steps = [parse];
steps.push(check);
export function run(input) {
  let out = input;
  for (const step of steps) out = step(out); // unresolved
  steps[0](out); // unresolved
  const one = [parse];
  one[0](out);
  const sorted = [parse, check].sort(byName);
  return steps.reduce((acc, step) => {
    return step(acc); // unresolved
  }, sorted);
}
run(1);
