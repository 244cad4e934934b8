"""TypeScript/JavaScript value flow: a function passed as an argument and called through the
parameter (``ts-argument``), and object-literal method tables (``ts-table``). Never guessed: a
parameter some caller gives an unknown value, a function handed to code outside the repository,
a computed key and a table member that code changes stay unresolved."""

from __future__ import annotations

from pathlib import Path

from map_helpers import Repo, build

from groundkit.codemap.model import Provenance


def _provenance(repo: Repo, source: str, target: str) -> Provenance:
    return repo.edge("calls", source, target).provenance  # type: ignore[attr-defined, no-any-return]


def test_every_function_passed_at_any_call_site_is_called_through_the_parameter(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "lib.ts": """
                export function apply(fn: (x: number) => number, x: number) {
                  return fn(x);
                }
                export function forward(cb: (x: number) => number) {
                  return apply(cb, 1);
                }
            """,
            "main.ts": """
                import { apply, forward } from "./lib";
                function double(x: number) { return 2 * x; }
                function triple(x: number) { return 3 * x; }
                function half(x: number) { return x / 2; }
                export function run() {
                  apply(double, 1);
                  apply((x) => x, 2);
                  forward(triple);
                  const h = half;
                  apply(h, 3);
                }
            """,
        },
    )
    calls = repo.pairs("calls")
    assert {("lib.apply", "main.double"), ("lib.apply", "main.triple")} <= calls
    assert ("lib.apply", "main.half") in calls
    assert _provenance(repo, "lib.apply", "main.triple") == Provenance.TS_ARGUMENT
    assert repo.report is not None
    assert repo.report.unresolved_calls == 0


def test_a_parameter_also_given_an_unknown_value_or_handed_outside_is_only_partial(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.js": """
                function step() {}
                function tick() {}
                function each(fn) { fn(); }
                function later(fn) { fn(); }
                export function run(given) {
                  each(step);
                  each(given);
                  later(tick);
                  setTimeout(later, 10);
                }
                export function orphan(cb) { cb(); }
            """,
        },
    )
    certain = repo.certain("calls")
    assert certain == {("main.run", "main.each"), ("main.run", "main.later")}
    # the known paths give step and tick: partial edges, the sites still unresolved
    assert repo.pairs("calls") - certain == {
        ("main.each", "main.step"),
        ("main.later", "main.tick"),
    }
    assert repo.report is not None
    assert repo.report.unresolved_calls == 3  # each's fn, later's fn, orphan's cb


def test_options_objects_hand_their_members_to_destructured_and_dotted_parameters(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.ts": """
                function done() {}
                function failed() {}
                function load({ onDone }: { onDone: () => void }) { onDone(); }
                function save(options: { onError: () => void }) { options.onError(); }
                export function run() {
                  load({ onDone: done });
                  save({ onError: failed });
                }
            """,
        },
    )
    assert {("main.load", "main.done"), ("main.save", "main.failed")} <= repo.pairs("calls")


def test_object_literal_tables_are_called_by_literal_key_and_never_by_a_computed_one(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.ts": """
                function create() {}
                function remove() {}
                const handlers = { create, remove, list() {}, nested: { get: () => 1 } };
                const patched = { create, remove };
                patched.remove = () => {};
                export function run(key: string) {
                  handlers.create();
                  handlers["remove"]();
                  handlers.list();
                  handlers.nested.get();
                  handlers[key]();
                  patched.create();
                  patched.remove();
                }
            """,
        },
    )
    calls = repo.pairs("calls")
    assert {
        ("main.run", "main.create"),
        ("main.run", "main.remove"),
        ("main.run", "main.handlers.list"),
        ("main.run", "main.handlers.nested.get"),
    } == calls
    assert _provenance(repo, "main.run", "main.handlers.list") == Provenance.TS_TABLE
    assert repo.report is not None
    assert repo.report.unresolved_calls == 2  # handlers[key](), patched.remove()


def test_an_exported_table_changed_in_another_file_is_unresolved(repo: Repo) -> None:
    build(
        repo,
        {
            "table.ts": "function a() {}\nfunction b() {}\nexport const table = { a, b };\n",
            "main.ts": """
                import { table } from "./table";
                export function run() { table.a(); table.b(); }
            """,
            "patch.ts": 'import { table } from "./table";\ntable.b = () => {};\n',
        },
    )
    assert repo.pairs("calls") == {("main.run", "table.a")}


_MAIN = 'import { apply } from "./lib";\nfunction a() {}\nfunction b() {}\napply(a);\n'


def test_re_mapping_after_an_argument_changes_in_another_file_equals_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    build(repo, {"lib.ts": "export function apply(fn: () => void) { fn(); }\n", "main.ts": _MAIN})
    assert ("lib.apply", "main.a") in repo.pairs("calls")
    edits: list[dict[str, str]] = [
        {"main.ts": _MAIN.replace("apply(a)", "apply(b)")},
        {"other.ts": 'import { apply } from "./lib";\nexport function c(x: any) { apply(x); }\n'},
        {"other.ts": "export const nothing = 1;\n"},
    ]
    expected = [{"main.b"}, set(), {"main.b"}]
    for number, edit in enumerate(edits):
        repo.write(edit)
        repo.build()
        targets = {t for s, t in repo.certain("calls") if s == "lib.apply"}
        assert targets == expected[number]  # an unknown value from other.ts: b only partial
        fresh = Repo(repo.root, tmp_path / f"fresh{number}")
        fresh.build()
        try:
            assert repo.pairs("calls") == fresh.pairs("calls")
            assert repo.map.counts() == fresh.map.counts()
        finally:
            fresh.close()


def test_a_table_member_that_code_may_have_replaced_is_unresolved(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function a() {}
                function b() {}
                function c() {}
                const spread = { run: a, ...extra(), keep: c };
                const computed = { run: a, [name()]: b, keep: c };
                const own = { run: a, keep: c, reset() { this.run = b; } };
                const handed = { run: a, keep: c };
                function patch(target) { target.run = b; }
                patch(handed);
                export function go() {
                  spread.run();
                  computed.run();
                  own.run();
                  handed.run();
                  spread.keep();
                  computed.keep();
                  own.keep();
                  handed.keep();
                }
            """,
        },
    )
    assert {t for s, t in repo.pairs("calls") if s == "main.go"} == {"main.c"}
    assert repo.report is not None
    assert repo.report.unresolved_calls >= 4


def test_a_method_on_an_instance_every_caller_hands_over_is_reached(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                class Store { save() {} }
                function persist(target: { save(): void }) { target.save(); }
                export function run() { persist(new Store()); }
            """,
        },
    )
    assert _provenance(repo, "main.persist", "main.Store.save") == Provenance.TS_ARGUMENT


_MODEL = """
    const sql = require("./db");
    const Tutorial = function (t) { this.title = t.title; };
    Tutorial.create = (t) => sql.query("INSERT", t);
    Tutorial.findById = function (id) { return sql.query("SELECT", id); };
    module.exports = Tutorial;
"""


def test_a_member_assigned_once_on_a_module_exports_function_is_what_a_caller_reaches(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "db.js": "exports.query = function (text, value) { return [text, value]; };\n",
            "model.js": _MODEL,
            "controller.js": """
                const Tutorial = require("./model");
                exports.create = (req) => Tutorial.create(new Tutorial(req.body));
                exports.findOne = (req) => Tutorial.findById(req.params.id);
            """,
            "store.mjs": """
                const store = {};
                store.get = function (key) { return key; };
                export default store;
            """,
            "main.mjs": """
                import store from "./store.mjs";
                export function run() { store.get(1); }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("controller.exports.create", "model.Tutorial.create") in certain
    assert ("controller.exports.findOne", "model.Tutorial.findById") in certain
    assert ("main.run", "store.store.get") in certain
    assert _provenance(repo, "controller.exports.create", "model.Tutorial.create") == (
        Provenance.TS_CALL
    )


def test_a_member_assigned_twice_under_a_computed_key_or_by_another_file_is_unresolved(
    repo: Repo, tmp_path: Path
) -> None:
    build(
        repo,
        {
            "model.js": _MODEL + "Tutorial.findById = () => null;\n",
            "api.js": """
                function a() {}
                function b() {}
                const api = {};
                api.load = a;
                api.keep = a;
                api[process.env.KEY] = b;
                exports.go = () => api.load();
            """,
            "controller.js": """
                const Tutorial = require("./model");
                exports.create = (req) => Tutorial.create(req.body);
                exports.findOne = (req) => Tutorial.findById(req.params.id);
            """,
        },
    )
    calls = repo.pairs("calls")
    assert ("controller.exports.create", "model.Tutorial.create") in calls
    assert not {t for s, t in calls if s in ("controller.exports.findOne", "api.exports.go")}
    repo.write({"patch.js": 'const T = require("./model");\nT.create = () => 1;\n'})
    repo.build()
    assert not {t for s, t in repo.pairs("calls") if s == "controller.exports.create"}
    fresh = Repo(repo.root, tmp_path / "fresh")
    fresh.build()
    try:
        assert repo.pairs("calls") == fresh.pairs("calls")
    finally:
        fresh.close()
