"""TypeScript/JavaScript parameters with defaults and parameter properties: a parameter a caller
leaves out holds its default (partial when no caller in the repository is known), and
``constructor(private repo: Repo)`` stores the argument in ``this.repo``."""

from __future__ import annotations

from map_helpers import Repo, build


def test_a_default_is_called_only_when_some_caller_leaves_the_parameter_out(repo: Repo) -> None:
    build(
        repo,
        {
            "lib.ts": """
                export function fallback() {}
                export function spare() {}
                export function run(fn = fallback) { return fn(); }
                export function never(fn = spare) { return fn(); }
                export function exported(fn = spare) { return fn(); }
            """,
            "main.ts": """
                import { run, never, fallback } from "./lib";
                export function go() { run(); never(fallback); }
            """,
        },
    )
    calls = repo.pairs("calls")
    assert ("lib.run", "lib.fallback") in repo.certain("calls")
    assert ("lib.never", "lib.spare") not in calls
    assert ("lib.never", "lib.fallback") in repo.certain("calls")
    # nobody in the repository calls exported(): its default is one of what it may hold
    assert ("lib.exported", "lib.spare") in calls - repo.certain("calls")


def test_a_parameter_property_holds_what_each_construction_passes(repo: Repo) -> None:
    build(
        repo,
        {
            "main.ts": """
                class Repo { find() { return 1; } }
                export class Service {
                  constructor(private repo: Repo, readonly name = "s") {}
                  load() { return this.repo.find(); }
                }
                export function wire() { return new Service(new Repo()).load(); }
            """,
        },
    )
    assert ("main.Service.load", "main.Repo.find") in repo.certain("calls")
    assert repo.report is not None
    assert repo.report.unresolved_calls == 0
