"""The confidence of an edge: a prior per provenance, measured, never invented.

Call provenances: the precision of that provenance's edges on the 262 labelled call-edge cases
of ``benchmarks/codemap/calls/`` (708 expected edges), as ``python benchmarks/codemap_score.py
calls --fit`` prints it: ``(correct + 0.5) / (edges + 1)``, floored to two decimals, so that a
provenance seen a handful of times is not given a certainty it has not earned (n is beside each).
Partial edges have one prior of their own, fitted the same way. Fitted on half of the cases,
these priors' expected calibration error on the other half is 0.025. Imports: precision
against grimp's graphs of django, fastapi, httpx and groundkit (3,586 edges, all equal).
Routes: precision against the routes the running frameworks report (518 of ours, 515
correct). docs/codemap.md has the tables and commands.

Not measured yet (no labelled set): ``inherit-base``, ``http-literal``, ``http-template`` (and the
TypeScript provenances, which the TypeScript extractor measures): marked PROVISIONAL below.
"""

from __future__ import annotations

from groundkit.codemap.model import Provenance

__all__ = ["PARTIAL_PRIOR", "PRIORS", "PROVISIONAL", "prior"]

# Provenances whose prior is a placeholder until a labelled set measures it.
PROVISIONAL = frozenset(
    {
        Provenance.INHERIT_BASE,
        Provenance.HTTP_LITERAL,
        Provenance.HTTP_TEMPLATE,
        Provenance.TABLE_DECLARED,
        Provenance.TABLE_DEFAULT,
        Provenance.ORM_ARGUMENT,
        Provenance.ORM_MANAGER,
        Provenance.ENV_READ,
        Provenance.ENV_WRITE,
        Provenance.FASTAPI_DEPENDS,
        Provenance.SQL_TEXT,
        Provenance.ORM_REPOSITORY,
        Provenance.FLASK_HOOK,
        Provenance.ROUTE_LIBRARY,
        Provenance.TABLE_LIBRARY,
    }
)

PRIORS: dict[Provenance, float] = {
    Provenance.IMPORT_ABSOLUTE: 0.99,  # grimp: 3,586 edges of 4 projects, all equal
    Provenance.IMPORT_RELATIVE: 0.99,  # (the three import provenances together)
    Provenance.IMPORT_STAR: 0.99,
    Provenance.CALL_LOCAL: 0.99,  # n=254
    Provenance.CALL_IMPORTED: 0.98,  # n=31
    Provenance.CALL_SELF: 0.96,  # n=13
    Provenance.CALL_INHERITED: 0.83,  # n=2
    Provenance.CALL_SUPER: 0.93,  # n=7
    Provenance.CALL_CONSTRUCTOR: 0.98,  # n=119
    Provenance.CALL_DECORATOR: 0.97,  # n=20
    Provenance.CALL_INSTANCE: 0.99,  # n=52
    Provenance.CALL_ANNOTATION: 0.75,  # n=1
    Provenance.CALL_RETURN: 0.93,  # n=7
    Provenance.CALL_ARGUMENT: 0.98,  # n=44
    Provenance.CALL_RETURNED: 0.98,  # n=32
    Provenance.CALL_CONTAINER: 0.98,  # n=46
    Provenance.CALL_CALLBACK: 0.98,  # n=40
    Provenance.CALL_PROTOCOL: 0.98,  # n=32
    Provenance.INHERIT_BASE: 0.95,  # PROVISIONAL
    Provenance.DEFINE: 1.0,  # containment is what the syntax says
    Provenance.ROUTE_DECORATOR: 0.99,  # routes: 515 of 518 correct (the three together)
    Provenance.ROUTE_CALL: 0.99,
    Provenance.ROUTE_URLCONF: 0.99,
    Provenance.HTTP_LITERAL: 0.9,  # PROVISIONAL
    Provenance.HTTP_TEMPLATE: 0.8,  # PROVISIONAL
    # TypeScript / JavaScript: measured on the 80 labelled cases of benchmarks/codemap_ts_cases
    # (43 of them run with node) by `python benchmarks/codemap_ts_cases.py --fit`:
    # (right + 1) / (edges + 2), rounded down (every edge was right; n beside each).
    Provenance.TS_IMPORT: 0.96,  # n=30
    Provenance.TS_REQUIRE: 0.87,  # n=6
    Provenance.TS_DYNAMIC_IMPORT: 0.66,  # n=1
    Provenance.TS_REFERENCE: 0.66,  # n=1
    Provenance.TS_CALL: 0.98,  # n=96
    Provenance.TS_NEW: 0.94,  # n=17
    Provenance.TS_THIS: 0.9,  # n=8
    Provenance.TS_SUPER: 0.87,  # n=6
    Provenance.TS_INSTANCE: 0.92,  # n=11
    Provenance.TS_EXTENDS: 0.85,  # n=5
    Provenance.TS_ARGUMENT: 0.96,  # n=28
    Provenance.TS_TABLE: 0.96,  # n=24
    Provenance.TS_CALLBACK: 0.91,  # n=10
    Provenance.TS_JSX: 0.8,  # n=3
    Provenance.TS_ACCESSOR: 0.87,  # n=6 (99 cases, issue 33)
    Provenance.TS_EVENT: 0.85,  # n=5 (99 cases, issue 33)
    Provenance.ROUTE_EXPRESS: 0.91,  # n=10
    Provenance.ROUTE_FASTIFY: 0.75,  # n=2
    Provenance.TABLE_DECLARED: 0.99,  # PROVISIONAL
    Provenance.TABLE_DEFAULT: 0.95,  # PROVISIONAL
    Provenance.ORM_ARGUMENT: 0.97,  # PROVISIONAL
    # 25 labelled, all right: the 8 of the chain labels and the 17 drawn by
    # benchmarks/codemap_data_precision.py; (right + 0.5) / (n + 1) floored, as for calls
    Provenance.ORM_INSTANCE: 0.98,
    Provenance.ORM_MANAGER: 0.97,  # PROVISIONAL
    Provenance.ENV_READ: 0.99,  # PROVISIONAL
    Provenance.ENV_WRITE: 0.99,  # PROVISIONAL: the same syntax as env-read's os.environ["X"]
    Provenance.FASTAPI_DEPENDS: 0.97,  # PROVISIONAL
    Provenance.SQL_TEXT: 0.97,  # PROVISIONAL
    Provenance.ORM_REPOSITORY: 0.97,  # PROVISIONAL
    Provenance.FLASK_HOOK: 0.97,  # PROVISIONAL
    Provenance.ROUTE_LIBRARY: 0.95,  # PROVISIONAL
    Provenance.TABLE_LIBRARY: 0.95,  # PROVISIONAL
}


# An edge flagged ``partial`` (one target of a call chosen at run time, or that an unknown
# value may also reach) is drawn beside the others, not trusted like them: its confidence is
# how often such edges were labelled edges on the labelled cases, whatever their provenance.
PARTIAL_PRIOR = 0.15


def prior(provenance: Provenance, *, partial: bool = False) -> float:
    return PARTIAL_PRIOR if partial else PRIORS[provenance]
