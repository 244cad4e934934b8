"""TypeScript/JavaScript accessors: ``get x()`` runs when ``o.x`` is read, ``set x(v)`` when it
is written, on an instance of a class (or of a subclass), the class itself (``static``) and an
object literal; an accessor's name on a value known only at run time is counted unresolved."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import Provenance


def test_reading_and_writing_a_member_runs_its_getter_and_setter(repo: Repo) -> None:
    build(
        repo,
        {
            "shapes.ts": """
                export class Base {
                  get area(): number { return 1; }
                }
                export class Square extends Base {
                  set side(v: number) {}
                  static get unit() { return new Square(); }
                  grow() { return this.area; }
                }
                export const settings = { get theme() { return "dark"; } };
            """,
            "main.ts": """
                import { Square, settings } from "./shapes";
                export function use() {
                  const s = new Square();
                  s.side = 2;
                  const a = s.area;
                  return Square.unit.grow() + settings.theme + s.grow.length;
                }
            """,
        },
    )
    accessors = {
        (e.source.qualname, e.target.qualname)
        for e in repo.map.edges(["calls"])
        if e.provenance == Provenance.TS_ACCESSOR
    }
    assert accessors == {
        ("main.use", "shapes.Square.side"),
        ("main.use", "shapes.Base.area"),
        ("main.use", "shapes.Square.unit"),
        ("main.use", "shapes.settings.theme"),
        ("shapes.Square.grow", "shapes.Base.area"),
    }
    # Square.unit returns a Square: its grow() is called on what the getter gives
    assert ("main.use", "shapes.Square.grow") in repo.pairs("calls")


def test_an_accessors_name_on_an_unknown_value_is_unresolved_not_an_edge(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Box { get size() { return 1; } }
                export function measure(box) { return box.size + box.other; }
                measure(JSON.parse("{}"));
            """,
        },
    )
    assert repo.pairs("calls") == {("main", "main.measure")}
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1


def test_define_property_gives_a_getter_and_a_value_written_once(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function readSize() { return 3; }
                function handle() {}
                function other() {}
                const box = {};
                Object.defineProperty(box, "size", { get: readSize });
                Object.defineProperty(box, "handle", { value: handle });
                Object.defineProperty(box, "swapped", { value: handle, writable: true });
                export function swap() { box.swapped = other; }
                export function run() { return box.size + box.handle() + box.swapped(); }
            """,
        },
    )
    calls = repo.pairs("calls")
    assert ("main.run", "main.readSize") in calls
    assert ("main.run", "main.handle") in calls
    assert ("main.run", "main.other") not in calls
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1  # box.swapped(): written again in swap


def test_a_commonjs_literals_accessors_run_through_the_module_and_its_this(repo: Repo) -> None:
    build(
        repo,
        {
            "request.js": """
                module.exports = {
                  get header() { return this.req.headers; },
                  set header(value) { this.req.headers = value; },
                  get host() { return this.get("host"); },
                  get(field) { return this.header[field]; },
                };
            """,
            "main.js": """
                const request = require("./request");
                function run() {
                  const own = Object.create(request);
                  own.header = {};
                  return own.host + request.host;
                }
            """,
        },
    )
    pairs = repo.pairs("calls")
    assert {
        ("main.run", "request.exports.header#2"),  # the setter, written through the copy
        ("main.run", "request.exports.host"),
        ("request.exports.host", "request.exports.get"),  # `this`: the literal exported
        ("request.exports.get", "request.exports.header"),  # the getter, read
    } <= pairs
    assert ("main.run", "request.exports.header") not in pairs  # a write runs no getter


def test_a_class_expressions_own_name_is_the_class_inside_its_body(repo: Repo) -> None:
    build(
        repo,
        {
            "app.js": """
                module.exports = class App {
                  constructor() { this.ready = true; }
                  static get itself() { return App; }
                };
            """,
            "main.js": """
                const Exported = require("./app");
                function make() { return new Exported.itself(); }
            """,
        },
    )
    pairs = repo.pairs("calls")
    assert ("main.make", "app.App.itself") in pairs  # the static getter, read
    assert ("main.make", "app.App.constructor") in pairs  # what it returns, constructed


def test_comments_between_a_literals_members_do_not_count_toward_its_member_limit(
    repo: Repo,
) -> None:
    members = "".join(f"  /** member {i} */\n  m{i}() {{ return {i}; }},\n" for i in range(40))
    build(
        repo,
        {
            "table.js": "module.exports = {\n" + members + "  get last() { return 1; },\n};\n",
            "main.js": """
                const table = require("./table");
                function read() { return table.last + table.m39(); }
            """,
        },
    )
    pairs = repo.pairs("calls")
    assert {("main.read", "table.exports.last"), ("main.read", "table.exports.m39")} <= pairs


def test_module_exports_read_in_a_function_is_the_modules_own_export(repo: Repo) -> None:
    build(
        repo,
        {
            "helper.js": """
                const proto = { get size() { return 1; } };
                module.exports = function make() { return proto; };
                module.exports.size = () => module.exports().size;
            """,
        },
    )
    assert ("helper.exports.size", "helper.proto.size") in repo.pairs("calls")


def test_a_write_under_a_symbol_key_changes_no_named_member_of_the_table(repo: Repo) -> None:
    build(
        repo,
        {
            "table.js": """
                const util = require("util");
                const KEY = Symbol("key");
                module.exports = {
                  get size() { return this.count(); },
                  count() { return 1; },
                };
                module.exports[util.inspect.custom] = module.exports.count;
                module.exports[KEY] = 2;
            """,
            "main.js": """
                const table = require("./table");
                function read() { return table.size + table.count(); }
            """,
        },
    )
    assert {
        ("main.read", "table.exports.size"),
        ("main.read", "table.exports.count"),
        ("table.exports.size", "table.exports.count"),
    } <= repo.pairs("calls")


def test_a_namespaces_default_is_module_exports_not_a_static_getter(repo: Repo) -> None:
    build(
        repo,
        {
            "app.js": """
                module.exports = class App {
                  static get default() { return App; }
                };
            """,
            "main.mjs": """
                export async function load() {
                  const ns = await import("./app.js");
                  return new ns.default();
                }
            """,
        },
    )
    pairs = repo.pairs("calls")
    assert ("main.load", "app.App.default") not in pairs
    assert ("main.load", "app.App") in pairs


def test_a_getter_defined_through_a_private_helper_runs_when_read(repo: Repo) -> None:
    # express's request.js: defineGetter(req, "host", function host() {...}) at module level,
    # the helper's one statement Object.defineProperty(obj, name, {get: getter})
    build(
        repo,
        {
            "request.js": """
                var req = Object.create(Object.prototype);
                defineGetter(req, "host", function host() { return "h"; });
                defineGetter(req, "port", function port() { return 80; });
                module.exports = req;
                function defineGetter(obj, name, getter) {
                  Object.defineProperty(obj, name, { configurable: true, get: getter });
                }
            """,
            "main.js": """
                var req = require("./request");
                function run() { return req.host; }
                run();
            """,
        },
    )
    assert ("main.run", "request.host") in repo.certain("calls")
    assert ("main.run", "request.port") not in repo.pairs("calls")


def test_a_helper_used_otherwise_defines_no_getter(repo: Repo) -> None:
    build(
        repo,
        {
            "request.js": """
                var req = Object.create(Object.prototype);
                defineGetter(req, "host", function host() { return "h"; });
                module.exports = req;
                module.exports.define = defineGetter;
                function defineGetter(obj, name, getter) {
                  Object.defineProperty(obj, name, { get: getter });
                }
            """,
            "main.js": """
                var req = require("./request");
                function run() { return req.host; }
                run();
            """,
        },
    )
    assert ("main.run", "request.host") not in repo.pairs("calls")


def test_a_helper_defining_the_getter_under_a_condition_defines_none(repo: Repo) -> None:
    build(
        repo,
        {
            "request.js": """
                var req = Object.create(Object.prototype);
                defineGetter(req, "host", function host() { return "h"; });
                module.exports = req;
                function defineGetter(obj, name, getter) {
                  if (name.length > 9) Object.defineProperty(obj, name, { get: getter });
                }
            """,
            "main.js": """
                var req = require("./request");
                function run() { return req.host; }
                run();
            """,
        },
    )
    assert ("main.run", "request.host") not in repo.pairs("calls")


def test_a_defined_getter_a_write_of_an_unknown_key_may_replace_is_reached_partial(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "request.js": """
                var req = Object.create(Object.prototype);
                defineGetter(req, "host", function host() { return "h"; });
                function patch(o, k) { o[k] = 1; }
                patch(req, JSON.parse("[]"));  // a write of a key not known: maybe "host"
                module.exports = req;
                function defineGetter(obj, name, getter) {
                  Object.defineProperty(obj, name, { get: getter });
                }
            """,
            "main.js": """
                var req = require("./request");
                function run() { return req.host; }
                run();
            """,
        },
    )
    assert ("main.run", "request.host") in repo.pairs("calls")
    assert ("main.run", "request.host") not in repo.certain("calls")


def test_this_in_a_getter_a_helper_defines_is_the_table(repo: Repo) -> None:
    build(
        repo,
        {
            "request.js": """
                var req = Object.create(Object.prototype);
                req.header = function header(name) { return name; };
                defineGetter(req, "host", function host() { return this.header("host"); });
                defineGetter(req, "hostname", function hostname() { return this.host; });
                module.exports = req;
                function defineGetter(obj, name, getter) {
                  Object.defineProperty(obj, name, { get: getter });
                }
            """,
        },
    )
    calls = repo.certain("calls")
    assert ("request.host", "request.req.header") in calls
    assert ("request.hostname", "request.host") in calls
