// Resolve every import of a TypeScript code base with the TypeScript compiler itself.
//
// usage: node resolve.js TSCONFIG FOLDER   (run from the code base's root; typescript must be
// resolvable, e.g. NODE_PATH=/tmp/codemap-bench/ts-tools/node_modules)
//
// Prints JSON: {"typescript": version, "edges": [[from, to, specifier, kind]],
// "unresolved": [[from, specifier]]}, paths relative to the working directory. Imports are
// found with ts.preProcessFile (import/export declarations, require(), import(), `import type`)
// and resolved with ts.resolveModuleName under the tsconfig's own compiler options, so
// baseUrl, paths (with or without baseUrl), rootDirs and index files follow TypeScript's rules.
// Declaration files of packages (node_modules) are external and not reported as edges.
"use strict";
const ts = require("typescript");
const path = require("path");
const fs = require("fs");

const [tsconfigArg, folderArg] = process.argv.slice(2);
const root = process.cwd();
const tsconfig = path.resolve(root, tsconfigArg);
const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys, path.dirname(tsconfig));
const options = parsed.options;
const folder = path.resolve(root, folderArg);
const exts = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (exts.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const edges = [];
const unresolved = [];
const rel = (p) => path.relative(root, p).split(path.sep).join("/");
for (const file of walk(folder, []).sort()) {
  const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  for (const imp of info.importedFiles) {
    const res = ts.resolveModuleName(imp.fileName, file, options, ts.sys).resolvedModule;
    if (!res) {
      unresolved.push([rel(file), imp.fileName]);
      continue;
    }
    if (res.isExternalLibraryImport) continue;
    edges.push([rel(file), rel(res.resolvedFileName), imp.fileName, "import"]);
  }
  for (const ref of info.referencedFiles) {
    const target = path.resolve(path.dirname(file), ref.fileName);
    if (fs.existsSync(target)) edges.push([rel(file), rel(target), ref.fileName, "triple-slash"]);
  }
}
process.stdout.write(JSON.stringify({ typescript: ts.version, edges, unresolved }));
