"""How results look on a terminal, and as JSON."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import click

from groundkit.types import CollectionStatus, Hit, IngestReport, ResolvedCitation

__all__ = ["batch_hit", "config", "hits", "ingest_report", "resolved", "status"]


def ingest_report(report: IngestReport, *, as_json: bool, verbose: bool = False) -> None:
    if as_json:
        click.echo(json.dumps(report.to_dict()))
        return
    click.echo(
        f"new {report.new}, changed {report.changed}, unchanged {report.unchanged}, "
        f"removed {report.removed}, skipped {len(report.skipped)}"
        + (f", passed over {len(report.passed_over)}" if report.passed_over else "")
        + f" ({report.chunks_written} chunks written"
        + (f", {report.chunks_embedded} embedded" if report.chunks_embedded else "")
        + ")"
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


def _location(metadata: dict[str, Any]) -> str:
    parts = []
    if "page" in metadata:
        end = metadata.get("page_end")
        parts.append(f"p. {metadata['page']}" + (f"-{end}" if end else ""))
    if metadata.get("heading_path"):
        parts.append(" > ".join(metadata["heading_path"]))
    return f"  ({'; '.join(parts)})" if parts else ""


def hits(found: Sequence[Hit], *, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"hits": [h.to_dict() for h in found]}, ensure_ascii=False))
        return
    if not found:
        click.echo("no hits")
    for hit in found:
        c = hit.citation
        ranks = ", ".join(f"{arm} #{rank}" for arm, rank in hit.ranks.items())
        click.echo(
            f"{hit.rank:>2}. {hit.score:6.3f}  {c.source}  [{c.chunk_id} {c.start}:{c.end}]"
            + _location(hit.metadata)
            + (f"  ({ranks})" if len(hit.ranks) > 1 else "")
        )
        click.echo(f"    {hit.snippet}")


def batch_hit(hit: Hit) -> dict[str, Any]:
    c = hit.citation
    return {
        "document_id": c.document_id,
        "external_id": c.external_id,
        "chunk_id": c.chunk_id,
        "score": hit.score,
        "start": c.start,
        "end": c.end,
        "source": c.source,
    }


def resolved(found: ResolvedCitation, *, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(found.to_dict(), ensure_ascii=False))
        return
    c = found.citation
    click.echo(f"{c.source}  [{c.chunk_id} {c.start}:{c.end}]{_location(found.metadata)}")
    click.echo(f"verification: {found.verification}")
    click.echo("")
    click.echo(found.text)


def status(info: CollectionStatus, *, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(info.to_dict()))
        return
    for key, value in info.to_dict().items():
        click.echo(f"{key}: {value}")


def config(rows: Sequence[tuple[str, Any, str]], *, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({k: {"value": v, "source": s} for k, v, s in rows}))
        return
    width = max(len(k) for k, _, _ in rows)
    for key, value, source in rows:
        click.echo(f"{key:<{width}} = {json.dumps(value):<14} # {source}")
