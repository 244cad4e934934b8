class Format {
  static upper(text) {
    return text.toUpperCase();
  }
}
const tools = {
  trim(text) {
    return text.trim();
  },
};
function through(fn, text) {
  return fn(text);
}
export function run() {
  return through(Format.upper, " x ") + through(tools.trim, " y ");
}
run();
