"""TypeScript/JavaScript ``Map`` and ``Set`` entries: iterating a Map (or its ``entries()``)
gives ``[key, value]`` pairs whose value is one of the functions set (``partial``: the key is
not followed); a Set's entries are ``[value, value]``."""

from __future__ import annotations

from map_helpers import Repo, build


def test_a_value_read_from_a_maps_entries_is_reached_partially(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function a() {}
                const byName = new Map();
                byName.set("a", a);
                export function viaEntries() { for (const [, f] of byName.entries()) f(); }
                export function viaLoop() { for (const entry of byName) entry[1](); }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    for source in ("main.viaEntries", "main.viaLoop"):
        assert (source, "main.a") in pairs
        assert (source, "main.a") not in certain


def test_a_sets_entries_hold_its_values(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function b() {}
                const seen = new Set([b]);
                export function run() { for (const e of seen.entries()) e[1](); }
            """,
        },
    )
    assert ("main.run", "main.b") in repo.certain("calls")
