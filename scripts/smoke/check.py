"""The checks of scripts/compose_smoke.sh, against replicas already running and ingested.

    python scripts/smoke/check.py --ports 8765,8766 [--query "..."] [--collection notes]

For each replica: /healthz; the same search answers the same hits on every replica; each hit's
text is verbatim in its chunk (POST /v1/verify) and its chunk reads back verified from its source
(GET /v1/chunks/...); /metrics parses as Prometheus text and counted the searches. Prints one
line per check and exits 1 at the first that fails. Loopback only; standard library only, so
it runs with any Python 3.11.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from typing import Any


def call(port: int, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"Content-Type": "application/json"} if data else {},
    )
    with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 (http, loopback)
        text = response.read().decode()
        kind = response.headers.get("content-type", "")
    return json.loads(text) if kind.startswith("application/json") else text


def check(ok: bool, what: str) -> None:
    print(("ok    " if ok else "FAILED") + f"  {what}", flush=True)
    if not ok:
        sys.exit(1)


def samples(metrics: str, name: str) -> float:
    """The sum of one metric's samples, read with prometheus_client's parser when it is there
    (the project's venv), else line by line."""
    try:
        from prometheus_client.parser import text_string_to_metric_families
    except ImportError:
        return sum(
            float(line.rsplit(" ", 1)[1])
            for line in metrics.splitlines()
            if line.startswith(name + "{") and 'route="/v1/search"' in line
        )
    return sum(
        sample.value
        for family in text_string_to_metric_families(metrics)
        for sample in family.samples
        if sample.name == name and sample.labels.get("route") == "/v1/search"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ports", default="8765,8766")
    parser.add_argument("--collection", default="notes")
    parser.add_argument("--query", default="how do I know a quote is genuine")
    args = parser.parse_args()
    ports = [int(p) for p in args.ports.split(",")]

    answers = {}
    for port in ports:
        check(call(port, "/healthz") == {"status": "ok"}, f"replica :{port} /healthz")
        found = call(port, "/v1/search", {"collection": args.collection, "query": args.query})
        hits = found["hits"]
        unranked = found["missing_vectors"]
        check(bool(hits), f"replica :{port} search: {len(hits)} hits ({unranked} unranked)")
        answers[port] = [hit["chunk_id"] for hit in hits]
    first = ports[0]
    for port in ports[1:]:
        check(answers[port] == answers[first], f"replicas :{first} and :{port} agree hit for hit")

    hits = call(first, "/v1/search", {"collection": args.collection, "query": args.query})["hits"]
    for rank, hit in enumerate(hits, start=1):
        quote = hit["text"][:120]
        verdict = call(
            ports[rank % len(ports)],  # every replica checks some
            "/v1/verify",
            {"collection": args.collection, "chunk_id": hit["chunk_id"], "quote": quote},
        )
        check(verdict["verbatim"], f"hit {rank} {hit['source']}: its text is verbatim in its chunk")
        shown = call(ports[-rank % len(ports)], f"/v1/chunks/{args.collection}/{hit['chunk_id']}")
        check(
            shown["verification"] == "verified" and shown["text"] == hit["text"],
            f"hit {rank} {hit['source']}:{hit['line']}: read back {shown['verification']}",
        )

    for port in ports:
        metrics = call(port, "/metrics")
        searches = samples(metrics, "groundkit_http_requests_total")
        check(searches >= 1, f"replica :{port} /metrics: {searches:.0f} searches counted")


if __name__ == "__main__":
    main()
