"""TypeScript/JavaScript: an array literal a function returns, bound to no name (``return
[comp]``), is an array of its items, read back by index, by ``for...of`` and by a runtime
method's callback; an element of one of several arrays a call may give is read from each."""

from __future__ import annotations

from map_helpers import Repo, build

_RANGE = """
    class Comparator {
      constructor(text) { this.text = text; }
      test(v) { return v === this.text; }
    }
    const cache = new Map();
    export class Range {
      constructor(text) { this.set = text.split("||").map((r) => this.parseRange(r)); }
      parseRange(r) {
        const comp = new Comparator(r);
        if (comp.text === "") return [comp];
        return [comp, new Comparator(r.trim())];
      }
      test(v) {
        for (const comparators of this.set) if (testSet(comparators, v)) return true;
        return false;
      }
    }
    function testSet(set, v) {
      for (let i = 0; i < set.length; i++) if (!set[i].test(v)) return false;
      return true;
    }
"""


def test_an_array_literal_a_function_returns_is_read_as_an_array_of_its_items(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.js": """
                function first() { return 1; }
                function second() { return 2; }
                function only() { return [first]; }
                function both() { return [first, second]; }
                export function byIndex() { return only()[0](); }
                export function byLoop() { for (const f of both()) f(); }
                export function byCallback() { return both().map((g) => g()); }
            """,
        },
    )
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.byIndex", "main.first") in certain
    assert {("main.byLoop", "main.first"), ("main.byLoop", "main.second")} <= pairs - certain
    assert ("main.byCallback", "main.byCallback.<arrow>") in certain
    assert ("main.byCallback.<arrow>", "main.second") in pairs - certain


def test_an_element_of_each_array_a_method_may_return_is_called(repo: Repo) -> None:
    build(repo, {"main.js": _RANGE})
    assert ("main.testSet", "main.Comparator.test") in repo.certain("calls")


def test_a_returned_array_beside_an_unknown_return_gives_a_partial_edge(repo: Repo) -> None:
    cached = _RANGE.replace(
        "const comp = new Comparator(r);",
        "const hit = cache.get(r); if (hit) return hit; const comp = new Comparator(r);",
    )
    build(repo, {"main.js": cached})
    pairs, certain = repo.pairs("calls"), repo.certain("calls")
    assert ("main.testSet", "main.Comparator.test") in pairs - certain
