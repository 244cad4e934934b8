"""TypeScript/JavaScript events: ``emit("x")`` and ``dispatchEvent(new Event("x"))`` run the
listeners registered for that literal name on the same emitter (``ts-event``); an emitter that
is not known makes them partial."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import EdgeFlag, Provenance


def test_emit_runs_the_listeners_of_that_name_on_the_same_emitter(repo: Repo) -> None:
    build(
        repo,
        {
            "bus.js": """
                import { EventEmitter } from "events";
                export const bus = new EventEmitter();
                export const other = new EventEmitter();
            """,
            "main.js": """
                import { bus, other } from "./bus";
                function saved() {}
                function elsewhere() {}
                function ready() {}
                bus.on("saved", saved);
                other.on("saved", elsewhere);
                bus.once("ready", ready);
                export function run(emitter) {
                  bus.emit("saved");
                  emitter.emit("ready");
                }
                run(JSON.parse("{}"));
            """,
        },
    )
    events = {
        (e.source.qualname, e.target.qualname): EdgeFlag.PARTIAL in e.flags
        for e in repo.map.edges(["calls"])
        if e.provenance == Provenance.TS_EVENT
    }
    assert events == {("main.run", "main.saved"): False, ("main.run", "main.ready"): True}
