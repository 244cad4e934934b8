"""TypeScript/JavaScript generators: a generator object iterated (``for...of``, a spread) runs
its function from the function that iterates, also when a parameter holds it."""

from __future__ import annotations

from map_helpers import Repo, build


def test_iterating_a_generator_object_runs_its_function(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function* numbers() { yield 1; }
                function* doubled(source) { for (const n of source) yield n * 2; }
                function spread(source) { return [...source]; }
                function plain(xs) { for (const x of xs) {} }
                export function total() {
                  const made = numbers();
                  for (const x of made) {}
                  spread(doubled(numbers()));
                  plain([1, 2]);
                }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.total", "main.numbers") in certain
    assert ("main.doubled", "main.numbers") in certain
    assert ("main.spread", "main.doubled") in certain
    assert not {pair for pair in repo.pairs("calls") if pair[0] == "main.plain"}
