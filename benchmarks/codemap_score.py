"""Score the code map against the ground truth in benchmarks/codemap/ (see its README).

    python benchmarks/codemap_score.py calls [--fit]      labelled call edges; priors; calibration
    python benchmarks/codemap_score.py imports            import edges against grimp's
    python benchmarks/codemap_score.py routes             routes against the running frameworks
    python benchmarks/codemap_score.py coverage           blast radius against coverage contexts
    python benchmarks/codemap_score.py traced             call pairs seen while real tests ran
    python benchmarks/codemap_score.py all

``--data`` points at the ground truth (default: benchmarks/codemap next to this script);
``--src`` at the unpacked sdists its collect scripts made (default: /tmp/codemap-bench/src).
Prints tables; ``--json FILE`` also writes every figure.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from groundkit.codemap.api import CodeMap, open_codemap
from groundkit.codemap.extract.python.web import regex_to_path
from groundkit.codemap.model import NodeKind
from groundkit.codemap.priors import PARTIAL_PRIOR, PRIORS
from groundkit.codemap.routes import compose, load_web, normalise

HERE = Path(__file__).parent


def _map(root: Path, index: Path, **kw: Any) -> CodeMap:
    codemap = open_codemap("bench", index_dir=index, create=True)
    codemap.update(root, **kw)
    return codemap


def _pr(tp: int, fp: int, fn: int) -> tuple[float, float]:
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall


def _table(title: str, header: list[str], rows: Iterable[list[Any]]) -> None:
    print(f"\n{title}")
    rows = [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in row] for row in rows]
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]
    print("  " + "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    for row in rows:
        print("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


# -- calls -----------------------------------------------------------------------------------


PARTIAL = "partial"  # EdgeFlag value: known targets drawn where unknown ones can also reach
MARK = "# unresolved"


@dataclass(frozen=True)
class DrawnCall:
    """One ``calls`` edge of a case's map, in the benchmark's names."""

    caller: str
    callee: str
    provenance: str
    partial: bool
    path: str
    line: int


def edge_flags(edge: Any) -> set[str]:
    """An edge's flags as plain strings (enum members or strings; none when absent)."""
    return {str(getattr(f, "value", f)) for f in getattr(edge, "flags", None) or ()}


def drawn_calls(codemap: CodeMap) -> list[DrawnCall]:
    return [
        DrawnCall(
            e.source.qualname,
            e.target.qualname,
            str(e.provenance),
            PARTIAL in edge_flags(e),
            e.location.path,
            e.location.line,
        )
        for e in codemap.edges(["calls"])
        if NodeKind.EXTERNAL not in (e.source.kind, e.target.kind)
    ]


def marked_lines(case: Path) -> set[tuple[str, int]]:
    """(case-relative path, line) of every line carrying the `# unresolved` marker."""
    found = set()
    for file in sorted(case.rglob("*.py")):
        for no, text in enumerate(file.read_text().splitlines(), 1):
            if MARK in text:
                found.add((file.relative_to(case).as_posix(), no))
    return found


@dataclass
class CallTally:
    """Counts over the labelled cases. The labels describe the certain graph: edges without
    the ``partial`` flag are scored against them; certain and partial edges together make
    the "may" graph, scored the same way and reported beside it."""

    per_category: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    per_provenance: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    may: Counter[str] = field(default_factory=Counter)
    partial: Counter[str] = field(default_factory=Counter)
    judged: list[tuple[str, str, bool]] = field(default_factory=list)  # certain edges only
    cases: int = 0
    unresolved_ok: int = 0
    guarded_cases: list[str] = field(default_factory=list)  # must_stay_unresolved cases
    guarded_drawn: list[str] = field(default_factory=list)  # ...with a certain false edge
    misses: list[str] = field(default_factory=list)

    def add(
        self,
        name: str,
        want: set[tuple[str, str]],
        drawn: list[DrawnCall],
        marked: set[tuple[str, int]],
        unresolved: tuple[int, int],
    ) -> None:
        """Score one case; ``unresolved`` is (the map's count, the case's unresolved_min)."""
        category = name.split("/", maxsplit=1)[0]
        self.cases += 1
        certain = {(d.caller, d.callee): d for d in drawn if not d.partial}
        maybe = {(d.caller, d.callee): d for d in drawn}
        false_drawn = False
        for pair, d in sorted(certain.items()):
            correct = pair in want
            false_drawn = false_drawn or not correct
            self.per_category[category]["tp" if correct else "fp"] += 1
            self.per_provenance[d.provenance]["tp" if correct else "fp"] += 1
            self.judged.append((name, d.provenance, correct))
            if not correct:
                self.misses.append(f"FP {name}: {pair[0]} -> {pair[1]} ({d.provenance})")
        for pair, d in sorted(maybe.items()):
            if d.partial and pair not in certain:  # a partial edge has a prior of its own
                self.judged.append((name, PARTIAL, pair in want))
        for pair in sorted(want - set(certain)):
            self.per_category[category]["fn"] += 1
            partly = " (drawn as partial)" if pair in maybe else ""
            self.misses.append(f"FN {name}: {pair[0]} -> {pair[1]}{partly}")
        for pair, d in sorted(maybe.items()):
            self.may["tp" if pair in want else "fp"] += 1
            if d.partial:
                self.per_category[category]["partial"] += 1
                self.per_provenance[d.provenance]["partial"] += 1
                where = "on_marked" if (d.path, d.line) in marked else "elsewhere"
                self.partial[where] += 1
                self.partial["expected" if pair in want else "not_expected"] += 1
        self.may["fn"] += len(want - set(maybe))
        if category == "must_stay_unresolved":
            self.guarded_cases.append(name)
            if false_drawn:
                self.guarded_drawn.append(name)
        count, minimum = unresolved
        if count >= minimum:
            self.unresolved_ok += 1
        else:
            self.misses.append(f"UNRESOLVED {name}: {count} < {minimum}")

    def totals(self) -> Counter[str]:
        total = Counter[str]()
        for c in self.per_category.values():
            total.update(c)
        return total


def score_calls(data: Path, fit: bool) -> dict[str, Any]:
    cases = sorted(p.parent for p in (data / "calls").glob("*/*/expected.json"))
    tally = CallTally()
    with tempfile.TemporaryDirectory() as tmp:
        for i, case in enumerate(cases):
            expected = json.loads((case / "expected.json").read_text())
            want = {(e["caller"], e["callee"]) for e in expected["edges"]}
            with _map(case, Path(tmp) / str(i), workers=1) as codemap:
                drawn = drawn_calls(codemap)
                unresolved = codemap.counts()["unresolved_calls"]
            tally.add(
                f"{case.parent.name}/{case.name}",
                want,
                drawn,
                marked_lines(case),
                (unresolved, expected.get("unresolved_min", 0)),
            )
    return _report_calls(tally, fit)


def _report_calls(tally: CallTally, fit: bool) -> dict[str, Any]:
    rows = []
    for category, c in sorted(tally.per_category.items()):
        p, r = _pr(c["tp"], c["fp"], c["fn"])
        rows.append([category, c["tp"], c["fp"], c["fn"], p, r, c["partial"]])
    total = tally.totals()
    p, r = _pr(total["tp"], total["fp"], total["fn"])
    rows.append(["ALL", total["tp"], total["fp"], total["fn"], p, r, total["partial"]])
    _table(
        f"certain call edges (without the {PARTIAL!r} flag) on {tally.cases} labelled cases",
        ["category", "tp", "fp", "fn", "precision", "recall", "partial"],
        rows,
    )
    may_p, may_r = _pr(tally.may["tp"], tally.may["fp"], tally.may["fn"])
    print(
        f"\nmay graph (certain + partial): tp {tally.may['tp']}, fp {tally.may['fp']},"
        f" fn {tally.may['fn']}, precision {may_p:.3f}, recall {may_r:.3f}"
    )
    print(
        f"partial edges: {total['partial']} ({tally.partial['on_marked']} from lines marked"
        f" '{MARK}', {tally.partial['elsewhere']} from other lines;"
        f" {tally.partial['expected']} of them labelled edges)"
    )
    prov_rows = []
    for provenance, c in sorted(tally.per_provenance.items()):
        edges = c["tp"] + c["fp"]
        prov_rows.append([provenance, edges, c["tp"], _pr(c["tp"], c["fp"], 0)[0], c["partial"]])
    _table(
        "precision per provenance (certain edges, all cases)",
        ["provenance", "edges", "correct", "precision", "partial"],
        prov_rows,
    )
    guarded = len(tally.guarded_cases)
    verdict = "yes" if not tally.guarded_drawn else "NO: " + ", ".join(tally.guarded_drawn)
    print(
        f"\nno case of must_stay_unresolved drawn (no certain edge that is not expected, in"
        f" {guarded} cases): {verdict}"
    )
    print(f"cases counting at least their unresolved_min: {tally.unresolved_ok}/{tally.cases}")
    calibration = _calibration(tally.judged)
    print(
        f"calibration: priors fitted on {calibration['fit_cases']} cases, expected calibration"
        f" error on the other {calibration['eval_cases']}: {calibration['ece']:.4f}"
        f" (with the priors in code: {calibration['ece_code_priors']:.4f})"
    )
    if fit:
        fitted = _fit(tally.judged)
        print("\nfitted priors (all cases; paste into src/groundkit/codemap/priors.py):")
        for provenance, (value, n) in sorted(fitted.items()):
            print(f"    Provenance.{provenance.upper().replace('-', '_')}: {value},  # n={n}")
    print("\nmisses:")
    for line in tally.misses:
        print("  " + line)
    return {
        "cases": tally.cases,
        "precision": p,
        "recall": r,
        "may": {"precision": may_p, "recall": may_r, **tally.may},
        "partial": {"edges": total["partial"], **tally.partial},
        "per_category": {k: dict(v) for k, v in tally.per_category.items()},
        "per_provenance": {k: dict(v) for k, v in tally.per_provenance.items()},
        "must_stay_unresolved": {"cases": guarded, "drawn": tally.guarded_drawn},
        "unresolved_ok": tally.unresolved_ok,
        "calibration": calibration,
        "misses": tally.misses,
    }


def _held_out(case: str) -> bool:
    return int(hashlib.sha256(case.encode()).hexdigest(), 16) % 2 == 1


def _fit(judged: list[tuple[str, str, bool]]) -> dict[str, tuple[float, int]]:
    """Each provenance's precision, shrunk toward 1 by one pseudo-edge so that a provenance seen
    a handful of times is not given exactly 1.0 or 0.0; floored to two decimals."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _, provenance, correct in judged:
        counts[provenance][0] += int(correct)
        counts[provenance][1] += 1
    return {p: (int(100 * (right + 0.5) / (n + 1)) / 100, n) for p, (right, n) in counts.items()}


def _ece(judged: list[tuple[str, str, bool]], priors: dict[str, float]) -> float:
    bins: dict[float, list[int]] = defaultdict(lambda: [0, 0])
    for _, provenance, correct in judged:
        confidence = priors.get(provenance, 0.5)
        bins[round(confidence, 2)][0] += int(correct)
        bins[round(confidence, 2)][1] += 1
    n = len(judged)
    return (
        sum(abs(right / count - conf) * count / n for conf, (right, count) in bins.items())
        if n
        else 0.0
    )


def _calibration(judged: list[tuple[str, str, bool]]) -> dict[str, Any]:
    fit_part = [j for j in judged if not _held_out(j[0])]
    eval_part = [j for j in judged if _held_out(j[0])]
    fitted = {p: v for p, (v, _) in _fit(fit_part).items()}
    code = {str(k): v for k, v in PRIORS.items()} | {PARTIAL: PARTIAL_PRIOR}
    return {
        "fit_cases": len({j[0] for j in fit_part}),
        "eval_cases": len({j[0] for j in eval_part}),
        "ece": _ece(eval_part, fitted),
        "ece_code_priors": _ece(eval_part, code),
        "fitted": fitted,
    }


# -- imports -----------------------------------------------------------------------------------


def score_imports(data: Path, src: Path, repo: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    rows = []
    for reference in sorted((data / "imports").glob("*.json")):
        ref = json.loads(reference.read_text())
        project = ref["project"]
        if project == "groundkit":
            # The reference is of a pinned commit ("git <sha>"): map that commit's tree.
            commit = ref["version"].split()[-1].removeprefix("git:")
            pinned = Path(tempfile.mkdtemp(prefix="grk-pinned-"))
            archive = subprocess.run(
                ["git", "-C", str(repo), "archive", commit, ref["root"]],
                capture_output=True,
                check=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(pinned)], input=archive, check=True)
            root = pinned / ref["root"]
        else:
            found = sorted(src.glob(f"{project}-*"))
            if not found:
                print(f"  {project}: sdist not under {src}, skipped")
                continue
            root = found[-1] / ref["root"]
        packages = ref["packages"]
        want = {tuple(e) for e in ref["edges"]}
        with tempfile.TemporaryDirectory() as tmp:
            include = [f"{p}/**" for p in packages]
            with _map(root, Path(tmp), include=include) as codemap:
                got = {
                    (e.source.qualname, e.target.qualname)
                    for e in codemap.edges(["imports"])
                    if e.target.kind != NodeKind.EXTERNAL and e.source.qualname != e.target.qualname
                }
        tp, fp, fn = len(got & want), len(got - want), len(want - got)
        p, r = _pr(tp, fp, fn)
        rows.append([project, len(want), len(got), tp, fp, fn, p, r])
        out[project] = {
            "precision": p,
            "recall": r,
            "extra": sorted(got - want),
            "missing": sorted(want - got),
        }
    _table(
        "import edges against grimp",
        ["project", "grimp", "ours", "tp", "fp", "fn", "precision", "recall"],
        rows,
    )
    for project, result in out.items():
        for label in ("extra", "missing"):
            for a, b in result[label][:20]:
                print(f"  {project} {label}: {a} -> {b}")
    return out


# -- routes -----------------------------------------------------------------------------------


def _our_routes(codemap: CodeMap, root: str | None) -> set[tuple[str, str, str | None]]:
    """(method, path with parameters as {}, handler); with ``root``, only that urlconf's."""
    if root is None:
        out = set()
        for edge in codemap.edges(["handles"]):
            method, _, path = edge.source.qualname.partition(" ")
            out.add((method, normalise(path), edge.target.qualname))
        return out
    web = load_web(text for _, text in codemap.store.webs())
    routes = compose(web.routers, web.mounts, web.routes, roots=[root])
    return {(r.method, normalise(r.path), r.decl.handler.qualname) for r in routes}


def _django_path(path: str) -> str:
    """A path Django's resolver reports (regexes joined as written) in the code map's terms."""
    return regex_to_path(path.replace("^", "").replace("$", ""))


def _their_routes(ref: dict[str, Any]) -> set[tuple[str, str, str | None]]:
    if "apps" in ref:
        rows = [r for app in ref["apps"] for r in app["routes"]]
    else:
        rows = [r for r in ref["routes"] if r.get("declared_in_root", True)]
    return {
        (
            r["method"],
            normalise(_django_path(r["path"]) if r.get("syntax") == "regex" else r["path"]),
            r.get("handler"),
        )
        for r in rows
        if r["method"] not in ("MOUNT", "WEBSOCKET")
    }


def score_routes(data: Path, src: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    rows = []
    for reference in sorted((data / "routes").glob("*.json")):
        ref = json.loads(reference.read_text())
        found = sorted(src.glob(f"{ref['source'].split('==')[0].split()[-1].replace('-', '_')}*"))
        found = found or sorted(src.glob(f"{reference.stem.split('-')[0]}*"))
        if not found:
            print(f"  {reference.stem}: sdist not under {src}, skipped")
            continue
        app = ref["app"] if isinstance(ref.get("app"), dict) else {"root": "docs_src"}
        urlconf = app.get("urlconf")
        root = f"py:{urlconf}:urlpatterns" if urlconf else None
        with (
            tempfile.TemporaryDirectory() as tmp,
            _map(found[0] / app["root"], Path(tmp)) as codemap,
        ):
            got = _our_routes(codemap, root)
            outside = {n.qualname for n in codemap.nodes() if n.kind == NodeKind.EXTERNAL}
        want = _their_routes(ref)
        # A view from a library is an outside node, named by its package: it matches the
        # reference's dotted name in that package.
        by_pair: dict[tuple[str, str], list[str | None]] = defaultdict(list)
        for m, path, h in want:
            by_pair[(m, path)].append(h)
        got = {
            (m, path, next((w for w in by_pair[(m, path)] if w and w.split(".")[0] == h), h))
            if h in outside
            else (m, path, h)
            for m, path, h in got
        }
        # Files the reference could not import (their app never ran) are out of the comparison.
        unrun = {s["file"][:-3].replace("/", ".") + "." for s in ref.get("skipped", [])}
        got = {g for g in got if not any((g[2] or "").startswith(m) for m in unrun)}
        # A route without a view function (flaskr's add_url_rule) is compared by method and path.
        want_pairs = {(m, p) for m, p, h in want if h is None}
        got_full = {g for g in got if (g[0], g[1]) not in want_pairs} | {
            (m, p, None) for m, p, _ in got if (m, p) in want_pairs
        }
        tp = len(got_full & want)
        fp, fn = len(got_full - want), len(want - got_full)
        p, r = _pr(tp, fp, fn)
        pairs_got, pairs_want = {g[:2] for g in got_full}, {w[:2] for w in want}
        pp, pr = _pr(
            len(pairs_got & pairs_want), len(pairs_got - pairs_want), len(pairs_want - pairs_got)
        )
        rows.append([reference.stem, len(want), len(got_full), tp, fp, fn, p, r, pp, pr])
        out[reference.stem] = {
            "precision": p,
            "recall": r,
            "extra": sorted(map(str, got_full - want))[:30],
            "missing": sorted(map(str, want - got_full))[:30],
        }
    total = [sum(r[i] for r in rows) for i in (1, 2, 3, 4, 5)]
    p, r = _pr(total[2], total[3], total[4])
    rows.append(["ALL", *total, p, r, "", ""])
    _table(
        "routes (method, path, handler) against the running apps; last two: (method, path) only",
        [
            "project",
            "theirs",
            "ours",
            "tp",
            "fp",
            "fn",
            "precision",
            "recall",
            "p(path)",
            "r(path)",
        ],
        rows,
    )
    for project, result in out.items():
        for label in ("extra", "missing"):
            for item in result[label][:10]:
                print(f"  {project} {label}: {item}")
    return out


# -- coverage -----------------------------------------------------------------------------------


def score_coverage(data: Path, src: Path) -> dict[str, Any]:
    ref = json.loads((data / "coverage" / "httpx.json").read_text())
    root = sorted(src.glob("httpx-*"))[-1]
    inside = outside = missing_fn = 0
    shares = []
    with tempfile.TemporaryDirectory() as tmp, _map(root, Path(tmp)) as codemap:
        for function, tests in sorted(ref["functions"].items()):
            try:
                radius = codemap.blast(function, depth=100)
            except Exception:
                missing_fn += 1
                outside += len(tests)
                continue
            names = {d.node.qualname for d in radius.dependents}
            hit = sum(1 for t in tests if any(t == n or t.endswith("." + n) for n in names))
            inside += hit
            outside += len(tests) - hit
            shares.append(hit / len(tests))
    share = inside / (inside + outside)
    macro = sum(shares) / len(shares) if shares else 0.0
    print(
        f"\nblast radius against httpx's coverage contexts: {inside:,} of {inside + outside:,}"
        f" (function, test) pairs inside the radius = {share:.3f}; mean per function"
        f" {macro:.3f}; functions not in the map: {missing_fn}"
    )
    return {"pairs_inside": inside, "pairs": inside + outside, "share": share, "macro": macro}


# -- traced -----------------------------------------------------------------------------------


def _property_methods(codemap: CodeMap, root: Path) -> set[str]:
    """Qualified names of the methods decorated as properties (`@property`, `@x.setter`,
    `@cached_property`, ...), found with `ast` at the lines the map gives its nodes."""
    lines: dict[str, set[int]] = {}
    found = set()
    for node in codemap.nodes():
        if node.kind != NodeKind.METHOD:
            continue
        if node.path not in lines:
            lines[node.path] = set()
            tree = ast.parse((root / node.path).read_bytes())
            for fn in ast.walk(tree):
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    ast.unparse(d).split("(")[0].endswith(("property", ".setter", ".deleter"))
                    for d in fn.decorator_list
                ):
                    lines[node.path].update({fn.lineno, *(d.lineno for d in fn.decorator_list)})
        if node.line in lines[node.path]:
            found.add(node.qualname)
    return found


def _traced_reason(row: list[Any], nodes: set[str], properties: set[str]) -> str:
    """A rough reason why the map lacks a traced pair, from names alone."""
    _, caller, callee, direct, via = row
    method = callee.rsplit(".", 1)[-1]
    if callee not in nodes:
        return "callee not a node"
    if caller not in nodes:
        return "caller not a node"
    if not direct:
        stdlib = all(v in sys.stdlib_module_names for v in via)
        return "only through the standard library" if stdlib else "only through outside code"
    if method in ("__init__", "__new__"):
        return "constructor"
    if method.startswith("__") and method.endswith("__"):
        return "protocol (dunder)"
    if callee in properties:
        return "property"
    return "other"


def score_traced(data: Path, src: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    rows, reason_rows, partial_rows, how_rows = [], [], [], []
    for reference in sorted((data / "traced").glob("*.json")):
        ref = json.loads(reference.read_text())
        found = sorted(src.glob(f"{ref['project']}-{ref['version']}"))
        if not found:
            print(f"  {reference.stem}: sdist not under {src}, skipped")
            continue
        with (
            tempfile.TemporaryDirectory() as tmp,
            _map(found[0] / ref["root"], Path(tmp), include=ref["map_include"]) as codemap,
        ):
            nodes = {n.qualname for n in codemap.nodes()}
            properties = _property_methods(codemap, found[0] / ref["root"])
            maybe: set[tuple[str, str]] = set()
            certain: set[tuple[str, str]] = set()
            how: dict[tuple[str, str], str] = {}  # a partial pair: how its first edge was found
            for e in codemap.edges(["calls"]):
                maybe.add((e.source.qualname, e.target.qualname))
                if PARTIAL not in edge_flags(e):
                    certain.add((e.source.qualname, e.target.qualname))
                else:
                    how.setdefault((e.source.qualname, e.target.qualname), str(e.provenance))
        result: dict[str, Any] = {}
        for side in ("package", "tests"):
            pairs = [r for r in ref["pairs"] if r[0] == side]
            direct = [r for r in pairs if r[3]]
            hit = [r for r in pairs if (r[1], r[2]) in certain]
            hit_may = [r for r in pairs if (r[1], r[2]) in maybe]
            hit_direct = [r for r in direct if (r[1], r[2]) in certain]
            _, recall = _pr(len(hit), 0, len(pairs) - len(hit))
            _, recall_may = _pr(len(hit_may), 0, len(pairs) - len(hit_may))
            _, recall_direct = _pr(len(hit_direct), 0, len(direct) - len(hit_direct))
            reasons = Counter(
                _traced_reason(r, nodes, properties) for r in pairs if (r[1], r[2]) not in certain
            )
            label = f"{side} -> package"
            rows.append(
                [ref["project"], label, len(pairs), len(hit), recall, recall_may, recall_direct]
            )
            for reason, n in reasons.most_common():
                reason_rows.append([ref["project"], label, reason, n])
            only_partial = Counter(
                _traced_reason(r, nodes, properties)
                for r in pairs
                if (r[1], r[2]) in maybe and (r[1], r[2]) not in certain
            )
            for reason, n in only_partial.most_common():
                partial_rows.append([ref["project"], label, reason, n])
            by_how = Counter(
                how[(r[1], r[2])]
                for r in pairs
                if (r[1], r[2]) in maybe and (r[1], r[2]) not in certain
            )
            for found, n in by_how.most_common(4):
                top = Counter(
                    r[2].rsplit(".", 2)[-2] + "." + r[2].rsplit(".", 1)[-1]
                    for r in pairs
                    if (r[1], r[2]) not in certain and how.get((r[1], r[2])) == found
                ).most_common(2)
                how_rows.append(
                    [ref["project"], label, found, n, ", ".join(f"{name} {k}" for name, k in top)]
                )
            result[side] = {
                "pairs": len(pairs),
                "found": len(hit),
                "recall": recall,
                "recall_may": recall_may,
                "recall_direct": recall_direct,
                "missed_by_reason": dict(reasons),
                "missed": [r[1:3] for r in pairs if (r[1], r[2]) not in certain][:50],
            }
        out[ref["project"]] = {"version": ref["version"], **result}
    _table(
        "traced call pairs (the package's own tests under sys.setprofile) found in the map",
        ["project", "pairs", "traced", "in map", "recall", "recall(may)", "recall(direct)"],
        rows,
    )
    _table(
        "traced pairs missed, by a rough reason", ["project", "pairs", "reason", "n"], reason_rows
    )
    _table(
        "traced pairs drawn only as partial (the gap from certain to certain + partial)",
        ["project", "pairs", "reason", "n"],
        partial_rows,
    )
    _table(
        "the same pairs by how the map found their edge (its provenance; the four largest)",
        ["project", "pairs", "provenance", "n", "most often called"],
        how_rows,
    )
    for project, result in out.items():
        for side in ("package", "tests"):
            for caller, callee in result[side]["missed"][:10]:
                print(f"  {project} missed: {caller} -> {callee}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["calls", "imports", "routes", "coverage", "traced", "all"])
    parser.add_argument("--data", type=Path, default=HERE / "codemap")
    parser.add_argument("--src", type=Path, default=Path("/tmp/codemap-bench/src"))
    parser.add_argument("--fit", action="store_true", help="print the priors fitted on all cases")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    if args.what in ("calls", "all"):
        results["calls"] = score_calls(args.data, args.fit)
    if args.what in ("imports", "all"):
        results["imports"] = score_imports(args.data, args.src, HERE.parent)
    if args.what in ("routes", "all"):
        results["routes"] = score_routes(args.data, args.src)
    if args.what in ("coverage", "all"):
        results["coverage"] = score_coverage(args.data, args.src)
    if args.what in ("traced", "all"):
        results["traced"] = score_traced(args.data, args.src)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
