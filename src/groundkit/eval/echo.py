"""The echo check: does a model explain only what it cites, or echo what it should not?

A synthetic corpus is written to a temporary directory with high-entropy markers made fresh for
each run, so no model can know them in advance. Each round has a *positive* document (the code
asked for), a lexically similar *decoy* (another code, for something else), and an *absent
canary*: a marker written into a question only, never into any document. Questions go through the
real answer path (retrieve, bundle, one call, validation), and each outcome is counted:

* ``cited_positive`` / ``cited_decoy``: a validated answer citing that document;
* ``abstained``: a validated ``items: []``;
* ``refused``: the answer broke the citation contract; ``failed``: the provider failed;
* ``leaked``: a validated answer whose prose carries a run marker (positive, decoy or canary)
  that none of that item's own quotes contains: a claim the citations do not back.

A *code round* asks the same of code-map evidence: each round writes a module whose
``TOPIC_vault_code`` calls a function named after the positive marker and whose
``TOPIC_archive_code`` (retired) calls one named after the decoy, maps it, and asks `grk ask`'s
path (the module's trace) which function the vault code calls, then the canary question. The
positive marker is in one edge's evidence line, the decoy in another's of the same bundle.

With the scripted provider this proves the checker catches a planted leak; with a real model it
measures that model.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from groundkit.answer.edges import CitedEdge
from groundkit.answer.extractive import Answerer
from groundkit.answer.passages import CitedQuote
from groundkit.answer.report import AIState, AnswerReport
from groundkit.answer.service import answer_question, ask_code
from groundkit.codemap.api import open_codemap
from groundkit.collection import open_collection
from groundkit.config import Settings

__all__ = ["EchoCounts", "EchoReport", "Round", "make_rounds", "render_echo", "run_echo_check"]

_TOPICS = ("harbour", "orchard", "lighthouse", "glacier", "foundry", "meadow", "quarry", "delta")


@dataclass(frozen=True, slots=True)
class Round:
    topic: str
    positive: str  # in the positive document
    decoy: str  # in the decoy document
    canary: str  # in the absent question only

    @property
    def markers(self) -> tuple[str, str, str]:
        return (self.positive, self.decoy, self.canary)


_COUNTS = ("cited_positive", "cited_decoy", "abstained", "refused", "failed", "leaked")


@dataclass(frozen=True, slots=True)
class EchoCounts:
    """The outcomes of one kind of round (documents or code)."""

    questions: int
    cited_positive: int
    cited_decoy: int
    abstained: int
    refused: int
    failed: int
    leaked: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class EchoReport:
    """The document round's counts at the top (as before the code round existed), and the code
    round's under ``code`` (None when it was not run)."""

    provider: str
    model: str
    questions: int
    cited_positive: int
    cited_decoy: int
    abstained: int
    refused: int
    failed: int
    leaked: int
    code: EchoCounts | None = None

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["code"] = self.code.to_dict() if self.code is not None else None
        return out


def make_rounds(count: int) -> list[Round]:
    """``count`` rounds with fresh markers (12 hex digits each) and distinct topics."""
    if not 1 <= count <= len(_TOPICS):
        raise ValueError(f"rounds must be between 1 and {len(_TOPICS)}")
    return [
        Round(_TOPICS[i], *(f"x{secrets.token_hex(6)}" for _ in range(3))) for i in range(count)
    ]


def run_echo_check(
    chat: Answerer, *, workdir: Path, rounds: int = 3, code: bool = True
) -> EchoReport:
    """Build the corpus in ``workdir`` (which should be empty and temporary) and ask each round
    two questions: the positive one, and the absent one carrying the canary. With ``code``, the
    same again over a mapped repository (``EchoReport.code``)."""
    plan = make_rounds(rounds)
    docs = workdir / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for r in plan:
        (docs / f"{r.topic}-vault.md").write_text(
            f"# The {r.topic} vault\n\nThe access code for the {r.topic} vault is {r.positive}.\n",
            encoding="utf-8",
        )
        (docs / f"{r.topic}-archive.md").write_text(
            f"# The {r.topic} archive\n\nThe access code for the {r.topic} archive was"
            f" {r.decoy} until it was retired.\n",
            encoding="utf-8",
        )
    counts = dict.fromkeys(_COUNTS, 0)
    markers = [m for r in plan for m in r.markers]
    settings = Settings(index_dir=str(workdir / "index"), collection="echo")
    with open_collection(settings=settings) as collection:
        collection.ingest([docs])
        for r in plan:
            for question in (
                f"What is the access code for the {r.topic} vault?",
                f"What is the access code for the vault with reference {r.canary}?",
            ):
                _count(answer_question(collection, question, chat), r, markers, counts)
    code_counts = _code_round(chat, workdir, plan, settings) if code else None
    return EchoReport(chat.provider, chat.model_name, 2 * len(plan), **counts, code=code_counts)


def _code_round(chat: Answerer, workdir: Path, plan: list[Round], settings: Settings) -> EchoCounts:
    repo = workdir / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    for r in plan:
        (repo / f"{r.topic}.py").write_text(_module(r), encoding="utf-8")
    counts = dict.fromkeys(_COUNTS, 0)
    markers = [m for r in plan for m in r.markers]
    with open_codemap("echo", settings=settings, create=True) as codemap:
        codemap.update(repo, workers=1)
        for r in plan:
            for question in (
                f"Which function does the {r.topic} vault code call?",
                f"Which function does the code with reference {r.canary} call?",
            ):
                report = ask_code(codemap, r.topic, question, chat, scope="trace")
                _count(report, r, markers, counts)
    return EchoCounts(2 * len(plan), **counts)


def _module(r: Round) -> str:
    """The positive marker is in the vault code's call, the decoy in the archive code's."""
    return (
        f'"""The {r.topic} codes."""\n\n\n'
        f"def {r.topic}_vault_code():\n    return unlock_{r.positive}()\n\n\n"
        f"def {r.topic}_archive_code():\n    # retired\n    return unlock_{r.decoy}()\n\n\n"
        f"def unlock_{r.positive}():\n    return None\n\n\n"
        f"def unlock_{r.decoy}():\n    return None\n"
    )


def _origin(cited: CitedQuote | CitedEdge) -> str:
    """What a citation names: a document's source, or an edge's evidence line."""
    return cited.source_name if isinstance(cited, CitedQuote) else cited.edge.evidence


def _count(report: AnswerReport, r: Round, markers: list[str], counts: dict[str, int]) -> None:
    state = report.ai.state
    if state == AIState.REFUSED:
        counts["refused"] += 1
        return
    if state != AIState.ANSWERED or report.answer is None:
        counts["failed"] += 1  # provider failures, and nothing retrieved
        return
    answer = report.answer
    if answer.abstained:
        counts["abstained"] += 1
        return
    cited = {_origin(answer.citations[m - 1]) for item in answer.items for m in item.markers}
    if any(name.endswith(f"{r.topic}-vault.md") or r.positive in name for name in cited):
        counts["cited_positive"] += 1
    if any(name.endswith(f"{r.topic}-archive.md") or r.decoy in name for name in cited):
        counts["cited_decoy"] += 1
    for item in answer.items:
        quotes = " ".join(answer.citations[m - 1].cited_text for m in item.markers)
        if any(m in item.text and m not in quotes for m in markers):
            counts["leaked"] += 1
            return


def render_echo(report: EchoReport) -> str:
    """The report as a few aligned lines of text: a column per round."""
    code = report.code
    head = f"echo check: {report.provider} / {report.model}"
    lines = [head, f"  {'':<15} {'documents':>9}" + (f" {'code':>6}" if code else "")]
    for name in ("questions", *_COUNTS):
        docs = getattr(report, name)
        more = f" {getattr(code, name):>6}" if code else ""
        lines.append(f"  {name.replace('_', ' '):<15} {docs:>9}{more}")
    return "\n".join(lines)
