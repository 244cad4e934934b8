"""Draw client call sites at random from a frontend, to be labelled by hand (route, handler).

    python benchmarks/codemap/chains/sample_client_calls.py PATH [--n 15] [--seed 65]

A client call site is a line of a ``.ts`` or ``.vue`` file under ``frontend/`` (outside the
client library ``frontend/lib/api/`` and tests) calling a method of an API client's member,
``api.recipes.getOne(slug)`` (``<name ending in api/Api>.<member>.<method>(``). The draw is a
fixed-seed sample of all such sites in file order, so the same checkout gives the same sites.
Written for mealie-recipes/mealie (``benchmarks/codemap/chains/mealie.json``).
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

SITE = re.compile(r"\b\w*[aA]pi\.\w+\.\w+\(")
SKIP = ("frontend/lib/api/", "/tests/", ".test.ts", ".spec.ts")


def sites(root: Path) -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(root.glob("frontend/**/*")):
        rel = path.relative_to(root).as_posix()
        if path.suffix not in (".ts", ".vue") or any(s in rel for s in SKIP):
            continue
        if "node_modules" in rel:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found.extend((rel, number, m.group(0)) for m in SITE.finditer(line))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--n", type=int, default=15)
    parser.add_argument("--seed", type=int, default=65)
    args = parser.parse_args()
    every = sites(args.root)
    print(f"{len(every)} client call sites")
    for rel, number, text in sorted(random.Random(args.seed).sample(every, args.n)):
        print(f"{rel}:{number}  {text}")


if __name__ == "__main__":
    main()
