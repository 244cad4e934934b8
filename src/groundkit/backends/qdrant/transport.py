"""The calls the Qdrant backend makes, behind one small seam with two implementations.

``Transport`` speaks in ``vocab``'s values (qdrant-client's names, without importing it) and
returns ``Found`` points. ``ClientTransport`` is qdrant-client: over REST to a cluster (``url``),
or its local mode (``":memory:"`` or a folder), which is how CI runs the backend's client code
without a server. ``edge.EdgeTransport`` runs the same requests on Qdrant's own engine inside the
process (qdrant-edge), which is what checks the engine's scoring and what the benchmark times.

Every failure leaves here as a ``BackendError`` with a code from ``errors.OUTCOMES``: a message
that names the collection and what to check, never the request, the response body or the key
(the client's own exceptions print up to 200 bytes of the body, so they are never shown).
"""

from __future__ import annotations

import ipaddress
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar
from urllib.parse import urlsplit

from groundkit.backends.qdrant.vocab import to_client
from groundkit.errors import BackendError, ConfigError, ErrorCode, NotFoundError
from groundkit.secret import Secret

if TYPE_CHECKING:
    from qdrant_client import QdrantClient
    from qdrant_client import models as client_models

    from groundkit.backends.qdrant import vocab as models

__all__ = [
    "ClientTransport",
    "Found",
    "Spec",
    "Transport",
    "backend_failure",
    "scroll_all",
]

T = TypeVar("T")


class Found(NamedTuple):
    """A point as a read returns it (``score`` 0 where nothing scored it)."""

    id: int
    score: float
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Spec:
    """A new collection: its dense size (None: none yet), and what grk.toml passes through."""

    dense: int | None
    shards: int = 1
    replicas: int = 1
    write_consistency: int = 1
    on_disk: bool = False
    quantization: str = "none"


class Transport(Protocol):
    name: str  # the collection's name on the cluster

    def exists(self) -> bool: ...

    def create(self, spec: Spec, indexes: dict[str, str]) -> None: ...

    def add_dense(self, size: int, spec: Spec) -> None: ...

    def drop(self) -> None: ...

    def upsert(
        self, points: Sequence[models.PointStruct], *, insert_only: bool = False
    ) -> None: ...

    def update_vectors(self, points: Sequence[models.PointVectors]) -> None: ...

    def set_payload(
        self,
        payload: dict[str, Any],
        *,
        ids: Sequence[int] | None = None,
        where: models.Filter | None = None,
        key: str | None = None,
    ) -> None:
        """Set the fields of ``payload`` on the points selected (``key``: inside that object
        field of theirs, made when missing)."""
        ...

    def delete(
        self, *, ids: Sequence[int] | None = None, where: models.Filter | None = None
    ) -> None: ...

    def retrieve(self, ids: Sequence[int], fields: Sequence[str] | None = None) -> list[Found]:
        """The points of ``ids`` that exist, with their payload (``fields``: only those)."""
        ...

    def scroll(
        self,
        where: models.Filter,
        *,
        fields: Sequence[str] | None = None,
        limit: int = 1000,
        after: int | None = None,
    ) -> tuple[list[Found], int | None]:
        """A page of points in id order, and the id the next page starts at (None: the end)."""
        ...

    def count(self, where: models.Filter) -> int: ...

    def query_batch(self, requests: Sequence[models.QueryRequest]) -> list[list[Found]]: ...

    def close(self) -> None: ...


# -- qdrant-client --------------------------------------------------------------------------------
def scroll_all(
    transport: Transport, where: models.Filter, fields: Sequence[str] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every point ``where`` selects, in id order, a page at a time."""
    after: int | None = None
    while True:
        page, after = transport.scroll(where, fields=fields, limit=2000, after=after)
        for found in page:
            yield found.id, found.payload
        if after is None:
            return


def _loopback(host: str | None) -> bool:
    if host in (None, "localhost"):
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


class ClientTransport:
    """qdrant-client: a cluster's REST API (``url``), or its local mode (``location``, or a
    folder ``path``). Local mode is one process's and not thread-safe, so its calls take a lock;
    the REST client is used by many threads at once."""

    def __init__(
        self,
        name: str,
        *,
        url: str | None = None,
        location: str | None = None,
        path: str | None = None,
        key: Secret | None = None,
        timeout_s: float = 30.0,
    ) -> None:
        self.name = name
        self.where = url or "local mode"
        self._lock = threading.Lock() if url is None else None
        try:
            from qdrant_client import QdrantClient
        except ImportError:
            from groundkit.errors import missing_extra

            raise missing_extra("qdrant_client", "qdrant") from None
        if url is not None:
            parts = urlsplit(url)
            if key is not None and parts.scheme != "https" and not _loopback(parts.hostname):
                raise ConfigError(
                    ErrorCode.CONFIG_INVALID,
                    f"collection {name!r}: an API key is sent only over https (or to this machine)",
                    hint="use an https:// url for the cluster",
                )
            # The key goes in a header of our own: qdrant-client's api_key= warns on http, and
            # the check above is the rule here.
            headers = {"api-key": key.reveal()} if key is not None else None
            self.client: QdrantClient = QdrantClient(
                url=url,
                timeout=math.ceil(timeout_s),
                headers=headers,
                check_compatibility=False,  # a request of its own at every open; schema is ours
            )
        else:
            self.client = QdrantClient(location=location, path=path)

    @contextmanager
    def _call(self, doing: str) -> Iterator[None]:
        try:
            if self._lock is None:
                yield
            else:
                with self._lock:
                    yield
        except (BackendError, NotFoundError):
            raise
        except Exception as exc:  # every client failure is classified; none is shown
            raise backend_failure(exc, self.name, doing) from None

    def _run(self, doing: str, call: Callable[[], T]) -> T:
        with self._call(doing):
            return call()

    def exists(self) -> bool:
        return self._run("read", lambda: bool(self.client.collection_exists(self.name)))

    def create(self, spec: Spec, indexes: dict[str, str]) -> None:
        from qdrant_client import models

        def create() -> None:
            self.client.create_collection(
                self.name,
                vectors_config=_dense_config(spec.dense, spec) if spec.dense else {},
                sparse_vectors_config={
                    "bm25": models.SparseVectorParams(
                        modifier=models.Modifier.IDF,
                        index=models.SparseIndexParams(on_disk=spec.on_disk),
                    )
                },
                shard_number=spec.shards,
                replication_factor=spec.replicas,
                write_consistency_factor=spec.write_consistency,
                on_disk_payload=spec.on_disk,
                quantization_config=_quantization(spec),
            )
            for field, kind in indexes.items() if self._lock is None else ():
                # (local mode has no payload indexes, and warns when asked for one)
                self.client.create_payload_index(
                    self.name, field, field_schema=_index_schema(kind), wait=True
                )

        self._run("create", create)

    def add_dense(self, size: int, spec: Spec) -> None:
        from qdrant_client import models

        # Where the vectors are kept and how they are quantized follow the collection's config.
        dense = models.DenseVectorConfig(size=size, distance=models.Distance.DOT)
        config = models.DenseVectorNameConfig(dense=dense)
        self._run("create", lambda: self.client.create_vector_name(self.name, "dense", config))

    def drop(self) -> None:
        self._run("delete", lambda: self.client.delete_collection(self.name))

    def upsert(self, points: Sequence[models.PointStruct], *, insert_only: bool = False) -> None:
        from qdrant_client import models

        mode = models.UpdateMode.INSERT_ONLY if insert_only else None
        self._run(
            "write",
            lambda: self.client.upsert(
                self.name, to_client(list(points)), wait=True, update_mode=mode
            ),
        )

    def update_vectors(self, points: Sequence[models.PointVectors]) -> None:
        converted = to_client(list(points))
        self._run("write", lambda: self.client.update_vectors(self.name, converted, wait=True))

    def set_payload(
        self,
        payload: dict[str, Any],
        *,
        ids: Sequence[int] | None = None,
        where: models.Filter | None = None,
        key: str | None = None,
    ) -> None:
        selector = _selector(ids, where)
        self._run(
            "write",
            lambda: self.client.set_payload(self.name, payload, selector, key=key, wait=True),
        )

    def delete(
        self, *, ids: Sequence[int] | None = None, where: models.Filter | None = None
    ) -> None:
        selector = _selector(ids, where)
        self._run("write", lambda: self.client.delete(self.name, selector, wait=True))

    def retrieve(self, ids: Sequence[int], fields: Sequence[str] | None = None) -> list[Found]:
        if not ids:
            return []
        records = self._run(
            "read",
            lambda: self.client.retrieve(
                self.name, list(ids), with_payload=_payload(fields), with_vectors=False
            ),
        )
        return [Found(int(r.id), 0.0, r.payload or {}) for r in records]

    def scroll(
        self,
        where: models.Filter,
        *,
        fields: Sequence[str] | None = None,
        limit: int = 1000,
        after: int | None = None,
    ) -> tuple[list[Found], int | None]:
        records, following = self._run(
            "read",
            lambda: self.client.scroll(
                self.name,
                scroll_filter=to_client(where),
                limit=limit,
                offset=after,
                with_payload=_payload(fields),
                with_vectors=False,
            ),
        )
        found = [Found(int(r.id), 0.0, r.payload or {}) for r in records]
        return found, None if following is None else int(following)

    def count(self, where: models.Filter) -> int:
        converted = to_client(where)
        return self._run(
            "read", lambda: int(self.client.count(self.name, converted, exact=True).count)
        )

    def query_batch(self, requests: Sequence[models.QueryRequest]) -> list[list[Found]]:
        answers = self._run(
            "search", lambda: self.client.query_batch_points(self.name, to_client(list(requests)))
        )
        return [
            [Found(int(p.id), float(p.score), p.payload or {}) for p in answer.points]
            for answer in answers
        ]

    def close(self) -> None:
        with suppress(Exception):  # closing: nothing is left to report a failure to
            self.client.close()


def _index_schema(kind: str) -> client_models.PayloadSchemaType | client_models.IntegerIndexParams:
    """The index a field of ``layout.PAYLOAD_INDEXES`` gets on a cluster."""
    from qdrant_client import models

    if kind == "keyword":
        return models.PayloadSchemaType.KEYWORD
    integer = models.IntegerIndexType.INTEGER
    return models.IntegerIndexParams(type=integer, lookup=kind == "lookup", range=kind == "range")


def _payload(fields: Sequence[str] | None) -> bool | list[str]:
    return True if fields is None else list(fields)


def _selector(ids: Sequence[int] | None, where: models.Filter | None) -> Any:
    from qdrant_client import models as client

    if ids is not None:
        if where is None:
            return client.PointIdsList(points=list(ids))
        return client.FilterSelector(
            filter=client.Filter(must=[client.HasIdCondition(has_id=list(ids)), to_client(where)])
        )
    assert where is not None
    return client.FilterSelector(filter=to_client(where))


def _dense_config(size: int, spec: Spec) -> dict[str, client_models.VectorParams]:
    from qdrant_client import models

    # Dot product, as the embedded index ranks (the embedders' vectors are unit length).
    return {
        "dense": models.VectorParams(size=size, distance=models.Distance.DOT, on_disk=spec.on_disk)
    }


def _quantization(spec: Spec) -> client_models.ScalarQuantization | None:
    from qdrant_client import models

    if spec.quantization != "int8":
        return None
    return models.ScalarQuantization(
        scalar=models.ScalarQuantizationConfig(type=models.ScalarType.INT8, always_ram=True)
    )


# -- failures -------------------------------------------------------------------------------------
def backend_failure(exc: BaseException, name: str, doing: str) -> BackendError | NotFoundError:
    """The ``BackendError`` a client failure means. Only the status code and the failure's type
    are read out loud; the body is read (never shown) only to tell a limit from a refused key."""
    status = getattr(exc, "status_code", None)
    if status is None and type(exc).__name__ == "ResponseHandlingException":
        source = getattr(exc, "source", None)
        if source is not None:
            exc = source
    where = f"the Qdrant cluster of collection {name!r}"
    if isinstance(status, int):
        text = _body(exc)
        if status == 401 or (status == 403 and not _limit(text)):
            return BackendError(
                ErrorCode.BACKEND_AUTH,
                f"{where} refused the API key ({status}) while trying to {doing}",
                hint="check the key (api_key_env, or `grk auth set qdrant:NAME`) and its rights",
            )
        if status == 429:
            return BackendError(
                ErrorCode.BACKEND_RATE_LIMITED,
                f"{where} is rate-limiting requests (429)",
                hint="wait a moment and run the command again",
            )
        if status in (403, 413) or _limit(text):
            return BackendError(
                ErrorCode.BACKEND_QUOTA,
                f"{where} refused a write over one of its limits ({status})",
                hint="raise the cluster's limits (strict mode, payload size), or use a larger plan",
            )
        if status == 404:
            return NotFoundError(
                ErrorCode.COLLECTION_NOT_FOUND,
                f"collection {name!r} is not on its Qdrant cluster (any more)",
                hint="ingest into it to make it, or check remote_name in grk.toml",
            )
        if status in (408, 504):
            return BackendError(
                ErrorCode.BACKEND_TIMEOUT,
                f"{where} did not answer in time ({status})",
                hint="retry; if it persists, raise timeout_s for the collection in grk.toml",
            )
        if status == 400:
            return BackendError(
                ErrorCode.BACKEND_SCHEMA,
                f"{where} refused a request as not fitting the collection (400) while trying"
                f" to {doing}",
                hint="the collection may have been made by another program or version;"
                " check remote_name in grk.toml",
            )
        return BackendError(
            ErrorCode.BACKEND_FAILED,
            f"{where} failed ({status}) while trying to {doing}",
            hint="retry later; the cluster's own logs say more",
        )
    kind = type(exc).__name__
    if "Timeout" in kind or isinstance(exc, TimeoutError):
        return BackendError(
            ErrorCode.BACKEND_TIMEOUT,
            f"{where} did not answer in time ({kind})",
            hint="retry; if it persists, raise timeout_s for the collection in grk.toml",
        )
    if _transport_error(exc):
        return BackendError(
            ErrorCode.BACKEND_UNREACHABLE,
            f"{where} cannot be reached ({kind})",
            hint="check the url in grk.toml and that the cluster is running",
        )
    if "not found" in str(exc).lower() and "collection" in str(exc).lower():
        return NotFoundError(
            ErrorCode.COLLECTION_NOT_FOUND,
            f"collection {name!r} is not in its Qdrant storage",
            hint="ingest into it to make it",
        )
    return BackendError(
        ErrorCode.BACKEND_FAILED,
        f"{where} failed while trying to {doing} ({kind})",
        hint="retry later; if it persists, report it with the command you ran",
    )


def _transport_error(exc: BaseException) -> bool:
    try:
        import httpx
    except ImportError:  # pragma: no cover (qdrant-client brings it)
        return isinstance(exc, OSError)
    return isinstance(exc, httpx.TransportError | OSError)


def _body(exc: BaseException) -> str:
    content = getattr(exc, "content", b"")
    try:
        return bytes(content).decode("utf-8", "replace").lower()
    except TypeError:
        return ""


def _limit(text: str) -> bool:
    return any(word in text for word in ("strict mode", "quota", "larger than allowed", "exceed"))
