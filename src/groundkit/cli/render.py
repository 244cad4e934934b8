"""How results look on a terminal, and as JSON."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import click

from groundkit.text import for_terminal
from groundkit.types import (
    Citation,
    CollectionStatus,
    Hit,
    IngestReport,
    ResolvedCitation,
    Verification,
)

__all__ = [
    "batch_line",
    "cited",
    "config",
    "hits",
    "ingest_report",
    "missing_vectors_warning",
    "resolved",
    "status",
]


def ingest_report(report: IngestReport, *, as_json: bool, verbose: bool = False) -> None:
    if as_json:
        click.echo(json.dumps(report.to_dict()))
        return
    click.echo(
        f"new {report.new}, changed {report.changed}, unchanged {report.unchanged}, "
        f"removed {report.removed}, skipped {len(report.skipped)}"
        + (f", passed over {len(report.passed_over)}" if report.passed_over else "")
        + f" ({_chunks_done(report)})"
    )
    for item in report.skipped:
        click.echo(f"  skipped {item.source}: {item.reason}")
    if verbose:
        for item in report.passed_over:
            click.echo(f"  passed over {item.source}: {item.reason}")
    elif report.passed_over:
        reasons = Counter(item.reason for item in report.passed_over)
        summary = "; ".join(f"{reason}: {count}" for reason, count in reasons.most_common())
        click.echo(f"  passed over ({summary}); --verbose lists them")


def _chunks_done(report: IngestReport) -> str:
    """What became of chunks: written, embedded, their sentences stored. A run that resumes an
    interrupted one writes none and embeds the rest, which it says instead of "0 written"."""
    written, embedded = report.chunks_written, report.chunks_embedded
    resumed = written == 0 and bool(embedded or report.chunks_split)
    done = ["no new chunks"] if resumed else [f"{written} chunks written"]
    if embedded:
        done.append(f"{embedded} chunks embedded" if resumed else f"{embedded} embedded")
    if report.chunks_split:
        done.append(f"sentences of {report.chunks_split} chunks stored")
    return ", ".join(done)


def _location(metadata: dict[str, Any]) -> str:
    parts = []
    if "page" in metadata:
        end = metadata.get("page_end")
        parts.append(f"p. {metadata['page']}" + (f"-{end}" if end else ""))
    if metadata.get("heading_path"):
        parts.append(" > ".join(metadata["heading_path"]))
    return f"  ({'; '.join(parts)})" if parts else ""


def cited(citation: Citation) -> str:
    """``path:line`` (``path:line-end_line`` across lines), the form editors and terminals open."""
    if citation.line is None:
        return citation.source
    span = f"{citation.line}"
    if citation.end_line is not None and citation.end_line != citation.line:
        span += f"-{citation.end_line}"
    return f"{citation.source}:{span}"


def missing_vectors_warning(missing: int) -> None:
    if missing:
        click.echo(
            f"warning: {missing} chunks have no vector yet, so ranking by meaning cannot find"
            " them; run `grk ingest` on the same paths again to embed them",
            err=True,
        )


def pending_warning(pending: int) -> None:
    if pending:
        click.echo(
            f"warning: {pending} documents are stored but not yet searchable (the search index"
            " is catching up after a run that stopped, a full disk say); this search may miss"
            " them. Run `grk ingest` again (or any write) once there is room",
            err=True,
        )


NO_SEARCHABLE_WORDS = (
    "no hits: the query has no searchable words (words as common as 'the', 'of' or 'is' are not"
    " searched); add a word that names what you are looking for"
)


def hits(
    found: Sequence[Hit],
    *,
    missing_vectors: int = 0,
    no_searchable_words: bool = False,
    pending: int = 0,
    as_json: bool,
) -> None:
    if as_json:
        body = {
            "hits": [h.to_dict() for h in found],
            "missing_vectors": missing_vectors,
            "no_searchable_words": no_searchable_words,
            "pending": pending,
        }
        click.echo(json.dumps(body, ensure_ascii=False))
        return
    missing_vectors_warning(missing_vectors)
    pending_warning(pending)
    if not found:
        click.echo(NO_SEARCHABLE_WORDS if no_searchable_words else "no hits")
    for hit in found:
        c = hit.citation
        click.echo(f"#{hit.rank:<2} {cited(c)}  [{c.chunk_id}]{_location(hit.metadata)}")
        stages = _stages(hit)
        if stages:
            click.echo(f"    {stages}")
        click.echo(f"    {hit.snippet}")


_ARMS = ("bm25", "dense", "rerank")  # "fused" is the rank before folding: the hit's rank says it
_SHOWN_FOLDED = 3


def _stages(hit: Hit) -> str:
    """Per-arm ranks (when more than one stage ranked) and the near-duplicates folded in."""
    arms = [arm for arm in _ARMS if arm in hit.ranks]
    if "fused" in hit.ranks:  # hybrid: say when one arm did not find it at all
        arms = [arm for arm in _ARMS if arm in hit.ranks or arm != "rerank"]
    parts = []
    if len(arms) > 1:
        ranked = (f"{arm} #{hit.ranks[arm]}" if arm in hit.ranks else f"{arm} -" for arm in arms)
        parts.append(" · ".join(ranked))
    if hit.folded:
        shown = ", ".join(cited(c) for c in hit.folded[:_SHOWN_FOLDED])
        more = ", …" if len(hit.folded) > _SHOWN_FOLDED else ""
        word = "near-duplicate" if len(hit.folded) == 1 else "near-duplicates"
        parts.append(f"(+{len(hit.folded)} {word}: {shown}{more})")
    return "  ".join(parts)


def batch_line(
    query_id: str,
    found: Sequence[Hit],
    missing_vectors: int,
    no_searchable_words: bool = False,
    pending: int = 0,
) -> str:
    """One line of ``search --queries``: the hits exactly as a single search gives them."""
    body = {
        "query_id": query_id,
        "hits": [h.to_dict() for h in found],
        "missing_vectors": missing_vectors,
        "no_searchable_words": no_searchable_words,
        "pending": pending,
    }
    return json.dumps(body, ensure_ascii=False)


def resolved(found: ResolvedCitation, *, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(found.to_dict(), ensure_ascii=False))
        return
    c = found.citation
    click.echo(f"{cited(c)}  [{c.chunk_id} {c.start}:{c.end}]{_location(found.metadata)}")
    verdict = f"verification: {found.verification}"
    if found.reason is not None:
        verdict += f" ({for_terminal(found.reason)})"
    elif found.verification == Verification.NOT_CHECKED:
        remote = c.location.startswith(("http://", "https://"))
        verdict += (
            " (a URL: never fetched again)"
            if remote
            else " (could not be checked here: the source file is not on this machine)"
        )
    moved = found.moved_to
    if moved is not None:
        now = replace(c, start=moved.start, end=moved.end, line=moved.line, end_line=moved.end_line)
        verdict += f" (moved: now at {cited(now)}, offsets {moved.start}:{moved.end})"
    click.echo(verdict)
    click.echo("")
    click.echo(found.text)


def status(info: CollectionStatus, *, as_json: bool, where: str | None = None) -> None:
    """``where``: the size row of a collection that is not embedded (the caller knows where it
    lives: a cluster, or a folder Qdrant's engine runs on in this process)."""
    if as_json:
        click.echo(json.dumps(info.to_dict()))
        return
    rows = [
        ("collection", info.collection),
        ("backend", info.backend),
        ("health", info.health),
        ("documents", f"{info.documents:,}"),
        ("chunks", f"{info.chunks:,}"),
        ("vectors", _coverage(info)),
        ("embedder", info.embedder or "none"),
        ("lexical index", f"{info.lexical_chunks:,} chunks"),
        ("dense index", f"{info.dense_index_vectors:,} vectors"),
        ("pending", f"{info.pending:,} documents"),
        ("schema", str(info.schema_version)),
        ("analyzer", info.analyzer or "none"),
        ("size", size_text(info.size_bytes) if where is None else where),
    ]
    width = max(len(key) for key, _ in rows)
    for key, value in rows:
        click.echo(f"{key:<{width}}  {value}")
    if info.formats:
        click.echo("")
        formats = sorted(info.formats.items(), key=lambda pair: (-pair[1], pair[0]))
        name_width = max(len("format"), *(len(name) for name, _ in formats))
        count_width = max(len("documents"), *(len(f"{n:,}") for _, n in formats))
        click.echo(f"{'format':<{name_width}}  {'documents':>{count_width}}")
        for name, count in formats:
            click.echo(f"{name:<{name_width}}  {count:>{count_width},}")


def _coverage(info: CollectionStatus) -> str:
    if info.embedder is None:
        return "none (searched by bm25 alone; ingest with --dense to add them)"
    # Rounded down, so that 100% means every chunk: 399 of 400 is 99%.
    share = 100 * info.vectors // info.chunks if info.chunks else 100
    text = f"{info.vectors:,} of {info.chunks:,} chunks ({share}%)"
    if info.missing_vectors:
        text += f"; {info.missing_vectors:,} missing: run `grk ingest` again to embed them"
    return text


def size_text(size: int) -> str:
    if size < 1000:
        return f"{size} B"
    value, unit = size / 1000, "kB"
    for bigger in ("MB", "GB"):
        if value < 1000:
            break
        value, unit = value / 1000, bigger
    return f"{value:.1f} {unit}"


def config(rows: Sequence[tuple[str, Any, str]], *, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({k: {"value": v, "source": s} for k, v, s in rows}))
        return
    width = max(len(k) for k, _, _ in rows)
    for key, value, source in rows:
        click.echo(f"{key:<{width}} = {json.dumps(value):<14} # {source}")
