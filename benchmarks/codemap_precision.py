"""Precision of the code map's certain call edges on real repositories, judged by a person.

    python benchmarks/codemap_precision.py sample NAME=PATH@REF... [--per-repo 40] [--dunders 10]
        [--seed 34] [--set NAME]
    python benchmarks/codemap_precision.py score
    python benchmarks/codemap_precision.py recheck NAME=PATH... [--set NAME]
    python benchmarks/codemap_precision.py dunders NAME=PATH... [--list]
    python benchmarks/codemap_precision.py self-calls NAME=PATH... [--list]
    python benchmarks/codemap_precision.py overridden NAME=PATH... [--list]

``sample`` maps each repository (PATH: an unpacked checkout or sdist; REF: its commit or
version, recorded in the sample), draws
``--per-repo`` certain ``calls`` edges from each at random (seeded, so the same maps give the
same sample), then ``--dunders`` more from the certain edges to a dunder method (``__len__``,
``__eq__``, ``__iter__``...: where wrong certain edges were found before), and writes
``benchmarks/codemap/precision/sample.json``: per edge its repository,
both ends, provenance, place and the line it quotes. A person reads each one in the source and
records in ``labels.json`` (same ``key``) whether the call can reach that target when the code
runs: ``right``, or ``wrong`` with a note. ``score`` joins the two and prints the share right,
per repository, per provenance, and for dunder targets (``__len__``, ``__eq__``...) apart.
The labels are the yardstick; they are never read by the map.
Every command takes ``--maps DIR``: the maps are kept there and re-used by the next command.

``recheck`` maps the repositories again and says how the map of now draws each edge of a
labelled draw (still certain, partial, or gone), by label.
``dunders`` maps each repository and counts its certain edges to a dunder method per name
(``--list``: each one with its place and quoted line, to read them all). ``self-calls`` counts
the call edges whose quoted line calls ``self.<name>(...)`` and how many of them are partial
(a package's own calls demoted to guesses by a test's or script's patch showed there first).
``overridden`` counts the certain ``call-self`` edges ``C.m -> D.x`` (D a subclass of C) where
every path from D up to C passes a class whose own ``m`` (a ``def``) is another function that
never calls ``C.m``: ``C.m`` cannot run with such a ``self`` (wrong edges of this kind were found
in the third draw).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from groundkit.codemap.api import CodeMap, open_codemap
from groundkit.codemap.model import Edge, EdgeFlag

HERE = Path(__file__).parent / "codemap" / "precision"


@contextmanager
def _mapped(name: str, root: Path, maps: Path | None) -> Iterator[CodeMap]:
    """The map of ``root``; with ``maps``, kept there under ``name`` (the repository's name), so
    a second draw or count from the same maps re-reads them instead of mapping again."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        open_codemap(name, index_dir=maps or tmp, create=True) as codemap,
    ):
        codemap.update(root)
        yield codemap


def sample(
    repos: list[tuple[str, Path, str]],
    per_repo: int,
    dunders: int,
    seed: int,
    maps: Path | None = None,
) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for name, root, commit in repos:
        with _mapped(name, root, maps) as codemap:
            lines = {n.key: n.line for n in codemap.nodes()}
            certain = sorted(
                (e for e in codemap.edges(["calls"]) if EdgeFlag.PARTIAL not in e.flags),
                key=lambda e: e.id,
            )
        drawn = rng.sample(certain, min(per_repo, len(certain)))
        rest = [e for e in certain if _is_dunder(e.target.qualname) and e not in drawn]
        # a generator of its own, so that adding dunders leaves the random draw as it was
        extra = random.Random(f"{seed}:{name}").sample(rest, min(dunders, len(rest)))
        for stratum, edge in [("random", e) for e in drawn] + [("dunder", e) for e in extra]:
            out.append(
                {
                    "key": f"{name}:{edge.source.qualname}->{edge.target.qualname}",
                    "repo": name,
                    "commit": commit,
                    "source": edge.source.qualname,
                    "target": edge.target.qualname,
                    "provenance": str(edge.provenance),
                    "at": f"{edge.location.path}:{edge.location.line}",
                    "target_at": f"{edge.target.path}:{lines.get(edge.target, 0)}",
                    "quote": edge.quote,
                    "pool": len(certain),
                    "stratum": stratum,
                }
            )
    return out


def dunders(repos: list[tuple[str, Path]], listed: bool, maps: Path | None) -> None:
    for name, root in repos:
        with _mapped(name, root, maps) as codemap:
            edges = list(codemap.edges(["calls"]))
        certain = [e for e in edges if EdgeFlag.PARTIAL not in e.flags]
        found = [e for e in certain if _is_dunder(e.target.qualname)]
        partial = sum(_is_dunder(e.target.qualname) for e in edges) - len(found)
        names = Counter(e.target.qualname.rsplit(".", 1)[-1] for e in found)
        print(
            f"{name}: {len(edges)} call edges, {len(certain)} certain,"
            f" {len(found)} certain to a dunder, {partial} partial to a dunder"
        )
        print("  " + ", ".join(f"{n} {c}" for n, c in names.most_common()))
        if listed:
            for e in sorted(found, key=lambda e: (e.location.path, e.location.line)):
                print(
                    f"  {e.location.path}:{e.location.line} {e.source.qualname}"
                    f" -> {e.target.qualname}: {e.quote.strip()}"
                )


def self_calls(repos: list[tuple[str, Path]], listed: bool, maps: Path | None) -> None:
    called = re.compile(r"\bself\.\w+(\.\w+)*\(")
    for name, root in repos:
        with _mapped(name, root, maps) as codemap:
            edges = [e for e in codemap.edges(["calls"]) if e.quote and called.search(e.quote)]
        partial = [e for e in edges if EdgeFlag.PARTIAL in e.flags]
        print(f"{name}: {len(edges)} self-call edges, {len(partial)} partial")
        if listed:
            for e in sorted(partial, key=lambda e: (e.location.path, e.location.line)):
                where = f"{e.location.path}:{e.location.line}"
                print(f"  {where} {e.source.qualname} -> {e.target.qualname}")


def overridden(repos: list[tuple[str, Path]], listed: bool, maps: Path | None) -> None:
    for name, root in repos:
        with _mapped(name, root, maps) as codemap:
            edges = list(codemap.edges(["calls", "inherits", "defines"]))
        tree = _Hierarchy(edges)
        pool, found = 0, []
        for e in edges:
            if e.kind != "calls" or EdgeFlag.PARTIAL in e.flags or e.provenance != "call-self":
                continue
            top, sub = tree.owner.get(e.source.qualname), tree.owner.get(e.target.qualname)
            if top is None or sub is None or top == sub or not tree.below(sub, top):
                continue
            pool += 1
            if tree.blocked(sub, top, e.source.qualname, frozenset()):
                found.append(e)
        print(
            f"{name}: {pool} certain call-self edges to a subclass's method,"
            f" {len(found)} overridden"
        )
        if listed:
            for e in sorted(found, key=lambda e: (e.location.path, e.location.line)):
                where = f"{e.location.path}:{e.location.line}"
                print(f"  {where} {e.source.qualname} -> {e.target.qualname}")


def recheck(
    repos: list[tuple[str, Path]],
    drawn: list[dict[str, Any]],
    labels: dict[str, dict[str, str]],
    maps: Path | None,
) -> None:
    """How the map of now draws each edge of a labelled draw: still certain, partial, or
    gone, by its label (each wrong one and each right one no longer certain listed)."""
    now: dict[str, str] = {}
    for name, root in repos:
        with _mapped(name, root, maps) as codemap:
            for e in codemap.edges(["calls"]):
                flag = "partial" if EdgeFlag.PARTIAL in e.flags else "certain"
                now[f"{name}:{e.source.qualname}->{e.target.qualname}"] = flag
    mapped = {name for name, _ in repos}
    counts: Counter[tuple[str, str]] = Counter()
    for item in drawn:
        if item["repo"] not in mapped:
            continue
        label = labels.get(item["key"], {}).get("label", "unlabelled")
        status = now.get(item["key"], "gone")
        counts[(label, status)] += 1
        if label == "wrong" or status != "certain":
            print(f"  {label} edge, now {status}: {item['key']} at {item['at']}")
    for (label, status), count in sorted(counts.items()):
        print(f"{label} edges now {status}: {count}")


class _Hierarchy:
    """Classes, their bases and own methods, and who calls what, as one map draws them."""

    def __init__(self, edges: list[Edge]) -> None:
        self.bases: dict[str, set[str]] = defaultdict(set)
        self.members: dict[str, dict[str, str]] = defaultdict(dict)  # class -> name -> method
        self.owner: dict[str, str] = {}
        self.callees: dict[str, set[str]] = defaultdict(set)
        for e in edges:
            source, target = e.source.qualname, e.target.qualname
            if e.kind == "inherits":
                self.bases[source].add(target)
            elif e.kind == "defines" and e.source.kind == "class":
                self.members[source][target.rsplit(".", 1)[-1]] = target
                self.owner[target] = source
            elif e.kind == "calls":
                self.callees[source].add(target)

    def below(self, cls: str, top: str) -> bool:
        todo, seen = [cls], set()
        while todo:
            for base in self.bases.get(todo.pop(), ()):
                if base == top:
                    return True
                if base not in seen:
                    seen.add(base)
                    todo.append(base)
        return False

    def blocked(self, cls: str, top: str, method: str, seen: frozenset[str]) -> bool:
        """Every path from ``cls`` up to ``top`` meets an override of ``method`` that never
        calls it (so ``method`` cannot run with a ``cls`` instance as ``self``)."""
        if cls == top or cls in seen:
            return False
        own = self.members[cls].get(method.rsplit(".", 1)[-1])
        if own and own != method and method not in self.callees[own]:
            return True
        ups = [b for b in self.bases[cls] if b == top or self.below(b, top)]
        return bool(ups) and all(self.blocked(b, top, method, seen | {cls}) for b in ups)


def _is_dunder(qualname: str) -> bool:
    last = qualname.rsplit(".", 1)[-1]
    return last.startswith("__") and last.endswith("__") and last not in ("__init__", "__new__")


def score(drawn: list[dict[str, Any]], labels: dict[str, dict[str, str]]) -> dict[str, Any]:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    wrong: list[str] = []
    for item in drawn:
        label = labels.get(item["key"], {}).get("label", "unlabelled")
        random_draw = item.get("stratum", "random") == "random"
        groups = ["dunder targets (both draws)"] if _is_dunder(item["target"]) else []
        if random_draw:
            groups += ["all", f"repo {item['repo']}", f"provenance {item['provenance']}"]
        for group in groups:
            rows[group][label] += 1
        if label == "wrong":
            wrong.append(f"  {item['key']} at {item['at']}: {labels[item['key']].get('note', '')}")
    header = ["group", "edges", "right", "wrong", "unlabelled", "right share"]
    print(f"{header[0]:<36} " + " ".join(f"{h:>5}" for h in header[1:]))
    figures = {}
    for group in sorted(rows, key=lambda g: (g != "all", g)):
        c = rows[group]
        judged = c["right"] + c["wrong"]
        share = c["right"] / judged if judged else float("nan")
        figures[group] = {"edges": sum(c.values()), "right": c["right"], "wrong": c["wrong"]}
        print(
            f"{group:<36} {sum(c.values()):>5} {c['right']:>5} {c['wrong']:>5}"
            f" {c['unlabelled']:>10} {share:>11.3f}"
        )
    if wrong:
        print("wrong:")
        print("\n".join(wrong))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    draw = sub.add_parser("sample")
    draw.add_argument("repos", nargs="+", help="NAME=PATH@REF")
    draw.add_argument("--per-repo", type=int, default=40)
    draw.add_argument("--dunders", type=int, default=10)
    draw.add_argument("--seed", type=int, default=34)
    marks = sub.add_parser("score")
    again = sub.add_parser("recheck")
    again.add_argument("repos", nargs="+", help="NAME=PATH")
    for command in (draw, marks, again):  # another sample beside the first: sample-NAME.json
        command.add_argument("--set", default="", help="NAME of another sample and its labels")
    for what in ("dunders", "self-calls", "overridden"):
        count = sub.add_parser(what)
        count.add_argument("repos", nargs="+", help="NAME=PATH")
        count.add_argument("--list", action="store_true")
    for command in (
        draw,
        again,
        *(sub.choices[w] for w in ("dunders", "self-calls", "overridden")),
    ):
        command.add_argument("--maps", type=Path, help="keep the maps in this folder, re-use them")
    args = parser.parse_args(argv)
    if args.what in ("dunders", "self-calls", "overridden"):
        repos = [(n, Path(p)) for n, _, p in (s.partition("=") for s in args.repos)]
        {"dunders": dunders, "self-calls": self_calls, "overridden": overridden}[args.what](
            repos, args.list, args.maps
        )
        return 0
    suffix = f"-{args.set}" if args.set else ""
    if args.what == "sample":
        refs = []
        for spec in args.repos:
            name, _, rest = spec.partition("=")
            path, _, ref = rest.rpartition("@")
            refs.append((name, Path(path), ref))
        drawn = sample(refs, args.per_repo, args.dunders, args.seed, args.maps)
        out = HERE / f"sample{suffix}.json"
        out.write_text(json.dumps(drawn, indent=1) + "\n")
        print(f"{len(drawn)} edges drawn into {out}")
        return 0
    drawn = json.loads((HERE / f"sample{suffix}.json").read_text())
    labels_path = HERE / f"labels{suffix}.json"
    labels = json.loads(labels_path.read_text()) if labels_path.exists() else {}
    if args.what == "recheck":
        repos = [(n, Path(p)) for n, _, p in (s.partition("=") for s in args.repos)]
        recheck(repos, drawn, labels, args.maps)
        return 0
    score(drawn, labels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
