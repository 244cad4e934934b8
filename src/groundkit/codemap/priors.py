"""The confidence of an edge: a prior per provenance, measured, never invented.

Each value is the precision of that provenance's edges on labelled call-edge cases
(``benchmarks/codemap/calls/``), scored by ``benchmarks/codemap_score.py --fit``, which prints
this table; docs/codemap.md gives the counts behind each figure. Edges that are not calls
(imports, containment, inheritance, routes) are checked against the running frameworks and grimp
by the same script.

PROVISIONAL: until the labelled suite lands these are the values the first scoring run on the
development cases gave, rounded down; re-run the script and paste its table here.
"""

from __future__ import annotations

from groundkit.codemap.model import Provenance

__all__ = ["PRIORS", "PROVISIONAL", "prior"]

PROVISIONAL = True

PRIORS: dict[Provenance, float] = {
    Provenance.IMPORT_ABSOLUTE: 0.99,
    Provenance.IMPORT_RELATIVE: 0.99,
    Provenance.IMPORT_STAR: 0.99,
    Provenance.CALL_LOCAL: 0.97,
    Provenance.CALL_IMPORTED: 0.97,
    Provenance.CALL_SELF: 0.95,
    Provenance.CALL_INHERITED: 0.9,
    Provenance.CALL_SUPER: 0.95,
    Provenance.CALL_CONSTRUCTOR: 0.97,
    Provenance.CALL_DECORATOR: 0.97,
    Provenance.CALL_INSTANCE: 0.9,
    Provenance.CALL_ANNOTATION: 0.85,
    Provenance.CALL_RETURN: 0.85,
    Provenance.INHERIT_BASE: 0.99,
    Provenance.DEFINE: 1.0,
    Provenance.ROUTE_DECORATOR: 0.95,
    Provenance.ROUTE_CALL: 0.95,
    Provenance.ROUTE_URLCONF: 0.95,
    Provenance.HTTP_LITERAL: 0.9,
    Provenance.HTTP_TEMPLATE: 0.8,
    # TypeScript / JavaScript: measured on the 35 labelled cases of benchmarks/codemap_ts_cases
    # by `python benchmarks/codemap_ts_cases.py --fit`: (right + 1) / (edges + 2), rounded
    # down (every edge was right; the few-edge provenances get the lower priors).
    Provenance.TS_IMPORT: 0.95,
    Provenance.TS_REQUIRE: 0.83,
    Provenance.TS_DYNAMIC_IMPORT: 0.66,
    Provenance.TS_REFERENCE: 0.66,
    Provenance.TS_CALL: 0.96,
    Provenance.TS_NEW: 0.90,
    Provenance.TS_THIS: 0.85,
    Provenance.TS_SUPER: 0.75,
    Provenance.TS_INSTANCE: 0.80,
    Provenance.TS_EXTENDS: 0.83,
    Provenance.ROUTE_EXPRESS: 0.91,
    Provenance.ROUTE_FASTIFY: 0.75,
}


def prior(provenance: Provenance) -> float:
    return PRIORS[provenance]
