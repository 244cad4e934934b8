export function each(items, visit) {
  for (const item of items) {
    visit(item);
  }
}
