"""TypeScript/JavaScript prototypes given members by ``Object.assign(C.prototype, ...)`` of
literal objects, replaced by ``F.prototype = {...}`` or ``Object.create(B.prototype)``, and
objects made by ``Object.create(proto)``: instances reach those members; a source known only
at run time hides them."""

from __future__ import annotations

from map_helpers import Repo, build


def test_members_copied_onto_a_prototype_are_reached_from_instances(repo: Repo) -> None:
    build(
        repo,
        {
            "mixins.js": "export const walker = { walk() {} };\n",
            "main.js": """
                import { walker } from "./mixins";
                class Robot { go() { return this.walk(); } }
                Object.assign(Robot.prototype, walker, { beep() {} });
                function Old() {}
                Old.prototype = Object.create(Robot.prototype);
                const proto = { hello() {} };
                export function run() {
                  new Robot().beep();
                  new Old().go();
                  const child = Object.create(proto);
                  child.hello();
                }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.Robot.go", "mixins.walker.walk") in certain
    assert ("main.run", "main.Robot.prototype.beep") in certain
    assert ("main.run", "main.Robot.go") in certain
    assert ("main.run", "main.proto.hello") in certain


def test_a_mixin_known_only_at_run_time_leaves_the_member_unresolved(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                class Widget { draw() {} }
                Object.assign(Widget.prototype, JSON.parse("{}"));
                export function run() { const w = new Widget(); w.draw(); }
            """,
        },
    )
    assert ("main.run", "main.Widget.draw") not in repo.pairs("calls")
    assert repo.report is not None
    assert repo.report.unresolved_calls == 1
