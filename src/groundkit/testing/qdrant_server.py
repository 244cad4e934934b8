"""A Qdrant REST server of our own on loopback, for tests and benchmarks: ``FakeQdrantServer``.

No Qdrant server can run on the machines groundkit is developed on, and qdrant-client's local
mode is one process's. This server speaks the part of Qdrant's REST API the backend uses, over a
real socket, and keeps the collections in a local-mode client inside its own process; so the
backend's REST code path runs end to end, several processes (``grk serve`` replicas and a
writer) can share one collection, and a test can make the cluster fail the ways a cluster
fails: refuse a key, rate-limit, run over a limit, answer slowly, go away.

It is not Qdrant: the scoring is local mode's (Python), requests are served one at a time, and
nothing is sharded or replicated. ``python -m groundkit.testing.qdrant_server --port N
[--data DIR] [--api-key KEY]`` runs it as a process of its own (``--data``: kept in a folder).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeQdrantServer", "Fault", "server_process"]


@dataclass
class Fault:
    """What the server does instead of answering: ``status`` (with ``body``), or ``delay_s``
    before answering, or ``drop`` the connection. ``times``: how many requests it hits (None:
    all); ``paths``: only requests whose path holds one of these."""

    status: int | None = None
    body: str = '{"status": {"error": "refused"}}'
    delay_s: float = 0.0
    drop: bool = False
    times: int | None = None
    paths: tuple[str, ...] = ()


@dataclass
class _Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeQdrantServer:
    """Start with ``with FakeQdrantServer() as server:``; ``server.url`` is its address."""

    api_key: str | None = None
    data: str | None = None  # a folder to keep the collections in (default: memory)
    port: int = 0
    faults: list[Fault] = field(default_factory=list)
    seen: list[_Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        from qdrant_client import QdrantClient

        self.client = QdrantClient(path=self.data) if self.data else QdrantClient(":memory:")
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeQdrantServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._server = _Quiet(("127.0.0.1", self.port), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        self.client.close()

    def fail(self, fault: Fault) -> None:
        self.faults.append(fault)

    def _fault(self, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.paths and not any(p in path for p in fault.paths):
                continue
            if fault.times is not None:
                if fault.times <= 0:
                    continue
                fault.times -= 1
            return fault
        return None

    # -- the API ----------------------------------------------------------------------------------
    def answer(self, method: str, path: str, body: dict[str, Any]) -> Any:
        """The ``result`` of one request (raises ``LookupError`` for an unknown route)."""
        from qdrant_client import models

        parts = path.split("?", maxsplit=1)[0].strip("/").split("/")
        if parts == [""]:
            return {"title": "qdrant - vector search engine (groundkit fake)", "version": "1.17.0"}
        if parts[0] != "collections" or len(parts) < 2:
            raise LookupError(path)
        name, rest, c = parts[1], parts[2:], self.client
        route = (method, "/".join(rest))
        if route == ("GET", "exists"):
            return {"exists": c.collection_exists(name)}
        if route == ("PUT", ""):
            made = _fields(models.CreateCollection.model_validate(body))
            made["vectors_config"] = made.pop("vectors", None) or {}
            made["sparse_vectors_config"] = made.pop("sparse_vectors", None)
            return c.create_collection(name, **made)
        if route == ("DELETE", ""):
            return c.delete_collection(name)
        if route == ("GET", ""):
            return c.get_collection(name).model_dump(mode="json")
        if method == "PUT" and len(rest) == 2 and rest[0] == "vectors":
            config = models.DenseVectorNameConfig.model_validate(body)
            return _update(c.create_vector_name(name, rest[1], config))
        if route == ("PUT", "index"):
            return _update(None)  # local mode keeps no payload indexes
        if route == ("PUT", "points"):
            points = models.PointsList.model_validate(body)
            return _update(
                c.upsert(
                    name,
                    points.points,
                    update_filter=points.update_filter,
                    update_mode=points.update_mode,
                )
            )
        if route == ("PUT", "points/vectors"):
            update = models.UpdateVectors.model_validate(body)
            return _update(
                c.update_vectors(name, update.points, update_filter=update.update_filter)
            )
        if route == ("POST", "points/payload"):
            payload = models.SetPayload.model_validate(body)
            selector: Any = (
                models.PointIdsList(points=payload.points)
                if payload.points is not None and payload.filter is None
                else models.FilterSelector(filter=_with_ids(payload.filter, payload.points))
            )
            return _update(c.set_payload(name, payload.payload, selector, key=payload.key))
        if route == ("POST", "points/delete"):
            return _update(c.delete(name, _selector(body)))
        if route == ("POST", "points"):
            request = models.PointRequest.model_validate(body)
            records = c.retrieve(
                name,
                request.ids,
                with_payload=request.with_payload if request.with_payload is not None else True,
                with_vectors=request.with_vector or False,
            )
            return [r.model_dump(mode="json") for r in records]
        if route == ("POST", "points/scroll"):
            scroll = models.ScrollRequest.model_validate(body)
            records, following = c.scroll(
                name,
                scroll_filter=scroll.filter,
                limit=scroll.limit or 10,
                offset=scroll.offset,
                with_payload=scroll.with_payload if scroll.with_payload is not None else True,
                with_vectors=scroll.with_vector or False,
            )
            return {
                "points": [r.model_dump(mode="json") for r in records],
                "next_page_offset": following,
            }
        if route == ("POST", "points/count"):
            count = models.CountRequest.model_validate(body)
            return {"count": c.count(name, count.filter, exact=True).count}
        if route == ("POST", "points/query/batch"):
            batch = models.QueryRequestBatch.model_validate(body)
            answers = c.query_batch_points(name, batch.searches)
            return [a.model_dump(mode="json") for a in answers]
        raise LookupError(path)


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (a timeout test) is not the server's failure to report


def _fields(model: Any) -> dict[str, Any]:
    return {k: getattr(model, k) for k in model.model_fields_set}


def _update(_: object) -> dict[str, Any]:
    return {"operation_id": 0, "status": "completed"}


def _with_ids(where: Any, ids: Any) -> Any:
    from qdrant_client import models

    if ids is None:
        return where
    return models.Filter(must=[models.HasIdCondition(has_id=ids), *([where] if where else [])])


def _selector(body: dict[str, Any]) -> Any:
    from qdrant_client import models

    if "filter" in body:
        return models.FilterSelector.model_validate(body)
    return models.PointIdsList.model_validate(body)


def _handler(server: FakeQdrantServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet: tests read server.seen instead
            pass

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            server.seen.append(_Seen(self.command, self.path, dict(self.headers.items()), raw))
            fault = server._fault(self.path)
            if fault is not None:
                if fault.drop:
                    self.close_connection = True
                    self.connection.close()
                    return
                time.sleep(fault.delay_s)
                if fault.status is not None:
                    self._send(fault.status, fault.body.encode())
                    return
            if server.api_key is not None and self.headers.get("api-key") != server.api_key:
                self._send(401, b'{"status": {"error": "Must provide an API key"}}')
                return
            try:
                body = json.loads(raw) if raw else {}
                with server._lock:
                    result = server.answer(self.command, self.path, body)
            except LookupError:
                self._send(404, b'{"status": {"error": "Not found"}}')
                return
            except (ValueError, KeyError) as exc:
                status = 404 if "not found" in str(exc).lower() else 400
                message = json.dumps({"status": {"error": type(exc).__name__}})
                self._send(status, message.encode())
                return
            except Exception as exc:  # the server's own failure: a 500, as a cluster answers
                message = json.dumps({"status": {"error": type(exc).__name__}})
                self._send(500, message.encode())
                return
            reply = {"result": result, "status": "ok", "time": 0.0}
            self._send(200, json.dumps(reply).encode())

        def _send(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_PUT = do_POST = do_DELETE = do_PATCH = _serve

    return Handler


@contextmanager
def server_process(*args: str) -> Iterator[str]:
    """A ``FakeQdrantServer`` in a process of its own (so that it outlives a client killed in a
    test); yields its URL. ``args``: its command-line options (``--api-key``, ``--data``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRK_")}
    command = [sys.executable, "-m", "groundkit.testing.qdrant_server", "--port", "0", *args]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as process:
        try:
            assert process.stdout is not None
            url = process.stdout.readline().strip()
            if not url.startswith("http://"):
                raise RuntimeError("the fake Qdrant server did not start")
            yield url
        finally:
            process.terminate()
            process.wait(timeout=10)


def main(argv: list[str] | None = None, ready: Callable[[str], None] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--data", default=None)
    parser.add_argument("--api-key", default=None)
    args = parser.parse_args(argv)
    server = FakeQdrantServer(api_key=args.api_key, data=args.data, port=args.port)
    server.start()
    print(server.url, flush=True)  # the one line a parent process waits for
    if ready is not None:
        ready(server.url)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
