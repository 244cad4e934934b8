// Run a JavaScript program (a test runner, a test file) under node's inspector and record every
// call between two functions of one repository, as they happen.
//
//     node trace.mjs ROOT OUT.jsonl SCRIPT [ARGS...]
//
// ROOT is the repository (files under its node_modules are not its own); each call seen for the
// first time is appended to OUT.jsonl as {"callee": [file, line, col], "caller": [file, line,
// col, scope], "at": line} (0-based lines and columns; the caller's scope type tells a module's
// own code). A worker thread debugs the main thread (inspector.Session.connectToMainThread):
// before each script of ROOT runs, a breakpoint is set at every location V8 can break at; at each
// pause the two innermost frames, when both are ROOT's, are a call (the upper frame's function
// calls the lower's, at the upper frame's line; native frames such as Array.prototype.map are no
// frames, so a callback's caller is the function that handed it over). A breakpoint that is not
// the first location of its function is removed after its first hit: every call still pauses at
// the function's first location, and the run is not slowed by every statement. Calls from timers
// and promise jobs have no caller frame and are not recorded.
import fs from "node:fs";
import { Session } from "node:inspector";
import Module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

if (isMainThread) {
  const [root, out, script, ...rest] = process.argv.slice(2);
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { root: path.resolve(root), out: path.resolve(out) },
  });
  await new Promise((resolve) => worker.once("message", resolve)); // attached
  worker.unref();
  // CommonJS modules are compiled without an instrumentation pause: each of ROOT's starts with a
  // `debugger;` statement (on its first line, so no line moves), where the worker sets its
  // breakpoints before its first statement runs.
  const base = path.resolve(root) + path.sep;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    if (filename.startsWith(base) && !filename.includes(`${path.sep}node_modules${path.sep}`)) {
      content = content.startsWith("#!") ? `debugger;//${content.slice(2)}` : `debugger;${content}`;
    }
    return compile.call(this, content, filename);
  };
  process.argv = [process.argv[0], path.resolve(script), ...rest];
  await import(pathToFileURL(path.resolve(script)).href);
} else {
  // ES modules are reported by file URL, CommonJS ones by path.
  const prefixes = [pathToFileURL(workerData.root).href + "/", workerData.root + path.sep];
  const own = (url) => {
    const prefix = prefixes.find((p) => url.startsWith(p));
    if (prefix === undefined) return null;
    const rel = decodeURIComponent(url.slice(prefix.length)).split(path.sep).join("/");
    return rel.startsWith("node_modules/") || rel.includes("/node_modules/") ? null : rel;
  };
  const scripts = new Map(); // scriptId -> url, ROOT's files only
  const entries = new Map(); // scriptId -> sorted [line, col] of its possible breakpoints
  const breakpoints = new Map(); // "scriptId:line:col" -> breakpointId
  const seen = new Set();
  parentPort.on("message", () => {}); // a listening port keeps this thread alive
  const session = new Session();
  session.connectToMainThread();
  const post = (method, params = {}) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  session.on("Debugger.scriptParsed", ({ params }) => {
    const rel = own(params.url);
    if (rel !== null) scripts.set(params.scriptId, rel);
  });
  const where = (frame) => {
    const at = frame.functionLocation ?? frame.location;
    return [scripts.get(at.scriptId), at.lineNumber, at.columnNumber];
  };
  // The first breakable location at or after a function's start: where every call pauses.
  const entryOf = (frame) => {
    const start = frame.functionLocation;
    const list = start && entries.get(start.scriptId);
    if (!list) return null;
    for (const [line, col] of list) {
      if (line > start.lineNumber || (line === start.lineNumber && col >= start.columnNumber)) {
        return `${start.scriptId}:${line}:${col}`;
      }
    }
    return null;
  };
  session.on("Debugger.paused", async ({ params }) => {
    try {
      const statement = params.reason === "other" && !params.hitBreakpoints?.length;
      if (params.reason === "instrumentation" || statement) {
        const id = params.data?.scriptId ?? params.callFrames[0]?.location.scriptId;
        if (scripts.has(id) && !entries.has(id)) {
          const start = { scriptId: id, lineNumber: 0, columnNumber: 0 };
          const { locations } = await post("Debugger.getPossibleBreakpoints", { start });
          entries.set(
            id,
            locations.map((l) => [l.lineNumber, l.columnNumber ?? 0]),
          );
          for (const location of locations) {
            const res = await post("Debugger.setBreakpoint", { location });
            breakpoints.set(`${id}:${location.lineNumber}:${location.columnNumber ?? 0}`, res.breakpointId);
          }
        }
        return;
      }
      const [callee, caller] = params.callFrames;
      if (!callee || !scripts.has(callee.location.scriptId)) return;
      if (caller && scripts.has(caller.location.scriptId)) {
        const record = {
          callee: where(callee),
          caller: [...where(caller), caller.scopeChain[0]?.type ?? ""],
          at: caller.location.lineNumber,
        };
        const key = JSON.stringify(record);
        if (!seen.has(key)) {
          seen.add(key);
          fs.appendFileSync(workerData.out, key + "\n");
        }
      }
      const here = callee.location;
      const key = `${here.scriptId}:${here.lineNumber}:${here.columnNumber ?? 0}`;
      if (key !== entryOf(callee) && breakpoints.has(key)) {
        const id = breakpoints.get(key);
        breakpoints.delete(key);
        await post("Debugger.removeBreakpoint", { breakpointId: id });
      }
    } finally {
      session.post("Debugger.resume");
    }
  });
  await post("Debugger.enable");
  await post("Debugger.setInstrumentationBreakpoint", { instrumentation: "beforeScriptExecution" });
  parentPort.postMessage("ready");
}
