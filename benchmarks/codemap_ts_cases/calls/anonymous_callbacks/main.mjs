function double(x) {
  return x * 2;
}

function keep(x) {
  return x > 1;
}

export function run(xs) {
  const out = xs.map((x) => {
    return double(x);
  });
  [3, 1, 2].sort(function (a, b) {
    return a - b;
  });
  (() => {
    double(1);
  })();
  return out.filter(keep);
}

run([1, 2]);
