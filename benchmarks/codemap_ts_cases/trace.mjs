// Run one case under node's inspector and print every call between the case's own functions.
//
//     node trace.mjs CASE_DIR/main.mjs   ->   one JSON line: [{callee, caller, at}, ...]
//
// A worker thread debugs the main thread (inspector.Session.connectToMainThread). Before each
// script of the case runs, a breakpoint is set at every location V8 can break at; at each
// pause, every pair of adjacent stack frames that both belong to the case is a call: the lower
// frame's function is called by the upper one, at the line the upper frame is on. Functions are
// reported by where V8 says they start (0-based line and column) and the caller's frame scope
// (a module's own code is scope "module" at 0:0). Nothing of the case is rewritten.
// When the case's event loop has nothing left to do (timers and promises included), the worker
// hands its calls back and the run ends.
import { Session } from "node:inspector";
import Module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

if (isMainThread) {
  const entry = path.resolve(process.argv[2]);
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { dir: path.dirname(entry) },
  });
  await new Promise((resolve) => worker.once("message", resolve)); // attached
  worker.unref(); // the case's own work decides when the loop is empty
  let asked = false;
  process.on("beforeExit", () => {
    if (asked) return;
    asked = true;
    worker.ref();
    worker.once("message", (calls) => {
      process.stdout.write(JSON.stringify(calls) + "\n");
      worker.terminate();
    });
    worker.postMessage("done");
  });
  // CommonJS modules are compiled without an instrumentation pause: each of the case's starts
  // with a `debugger;` statement (on its first line, so no line moves), where the worker sets
  // its breakpoints before its first statement runs.
  const base = path.dirname(entry) + path.sep;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    if (filename.startsWith(base)) content = `debugger;${content}`;
    return compile.call(this, content, filename);
  };
  await import(pathToFileURL(entry).href);
} else {
  // ES modules are reported by file URL, CommonJS ones by path.
  const prefixes = [pathToFileURL(workerData.dir).href + "/", workerData.dir + path.sep];
  const calls = [];
  const scripts = new Map(); // scriptId -> url, for the case's files only
  const armed = new Set(); // scripts whose breakpoints are set
  // A listening port keeps this thread alive (an inspector session alone does not).
  parentPort.once("message", () => parentPort.postMessage(calls));
  const session = new Session();
  session.connectToMainThread();
  const post = (method, params = {}) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  session.on("Debugger.scriptParsed", ({ params }) => {
    if (prefixes.some((p) => params.url.startsWith(p))) {
      scripts.set(params.scriptId, params.url);
    }
  });
  const where = (frame) => {
    const at = frame.functionLocation ?? frame.location;
    return [scripts.get(at.scriptId), at.lineNumber, at.columnNumber];
  };
  session.on("Debugger.paused", async ({ params }) => {
    try {
      const statement = params.reason === "other" && !params.hitBreakpoints?.length;
      if (params.reason === "instrumentation" || statement) {
        const id = params.data?.scriptId ?? params.callFrames[0]?.location.scriptId;
        if (scripts.has(id) && !armed.has(id)) {
          armed.add(id);
          const start = { scriptId: id, lineNumber: 0, columnNumber: 0 };
          const { locations } = await post("Debugger.getPossibleBreakpoints", { start });
          for (const location of locations) await post("Debugger.setBreakpoint", { location });
        }
        return;
      }
      const frames = params.callFrames;
      for (let i = 0; i + 1 < frames.length; i++) {
        const callee = frames[i];
        const caller = frames[i + 1];
        if (!scripts.has(callee.location.scriptId) || !scripts.has(caller.location.scriptId)) {
          continue;
        }
        calls.push({
          callee: where(callee),
          caller: [...where(caller), caller.scopeChain[0]?.type ?? ""],
          at: caller.location.lineNumber,
        });
      }
    } finally {
      session.post("Debugger.resume");
    }
  });
  await post("Debugger.enable");
  await post("Debugger.setInstrumentationBreakpoint", { instrumentation: "beforeScriptExecution" });
  parentPort.postMessage("ready");
}
