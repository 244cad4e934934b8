const tree = { value: 1, children: [{ value: 2, children: [] }] };
const out = [];
function print(node) {
  out.push(node.value);
}
function walk(node, visit) {
  visit(node);
  for (const child of node.children) {
    walk(child, visit);
  }
}
walk(tree, print);
