"""The one writer of a Qdrant collection, wherever the writers run: a lease in the collection.

The lease is the point ``LOCK_ID``: its owner (host, process, a random part) and when it expires.
Taking it is an insert that only succeeds when no such point exists, then a read of who holds
it; a lease that has expired, or whose owner is a process of this host that is gone (a kill -9),
is deleted (only if it is still that owner's) and taken again. The holder renews it as it
writes, and checks before committing that it still holds it, so a writer stalled past its
lease never commits over the next one (the check and the commit are two requests: a writer
stalled between them for a whole lease could still; the lease is long for that reason).
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

from groundkit.backends.qdrant.layout import LOCK_ID
from groundkit.backends.qdrant.transport import Found, Transport
from groundkit.errors import IndexLockedError

__all__ = ["LEASE_S", "Lease", "lease"]

LEASE_S = 300.0  # a writer on another host that died holds the collection this long at most
_POLL_S = 0.05


class Lease:
    """A held lease; ``renew`` as writing goes on, ``confirm`` just before a commit."""

    def __init__(self, transport: Transport, owner: str) -> None:
        self._transport = transport
        self.owner = owner
        self._renewed = time.monotonic()

    def _mine(self) -> bool:
        found = self._transport.retrieve([LOCK_ID])
        return bool(found) and found[0].payload.get("owner") == self.owner

    def renew(self, *, force: bool = False) -> None:
        """Push the expiry back (at most every tenth of a lease, unless ``force``)."""
        if not force and time.monotonic() - self._renewed < LEASE_S / 10:
            return
        from groundkit.backends.qdrant import vocab as models

        self._transport.set_payload(
            {"expires": time.time() + LEASE_S},
            ids=[LOCK_ID],
            where=models.Filter(
                must=[models.FieldCondition(key="owner", match=models.MatchValue(value=self.owner))]
            ),
        )
        self._renewed = time.monotonic()

    def confirm(self) -> None:
        """Renew, and fail unless this process still holds the lease."""
        self.renew(force=True)
        if not self._mine():
            raise IndexLockedError()


def _stale(holder: Found, now: float) -> bool:
    payload = holder.payload
    if float(payload.get("expires", 0)) < now:
        return True
    if payload.get("host") != socket.gethostname():
        return False
    try:
        os.kill(int(payload.get("pid", 0)), 0)
    except ProcessLookupError:
        return True  # its process is gone: a kill -9 on this host leaves no wait
    except (PermissionError, ValueError, OverflowError):
        return False
    return False


@contextmanager
def lease(transport: Transport, wait_s: float) -> Iterator[Lease]:
    """Hold the collection's write lease for the block; ``index.locked`` when another writer
    still holds it after ``wait_s`` seconds."""
    from groundkit.backends.qdrant import vocab as models

    host, pid = socket.gethostname(), os.getpid()
    owner = f"{host}:{pid}:{secrets.token_hex(6)}"
    deadline = time.monotonic() + wait_s
    while True:
        now = time.time()
        mine = models.PointStruct(
            id=LOCK_ID,
            vector={},
            payload={
                "kind": "lock",
                "owner": owner,
                "host": host,
                "pid": pid,
                "expires": now + LEASE_S,
            },
        )
        transport.upsert([mine], insert_only=True)
        found = transport.retrieve([LOCK_ID])
        if found and found[0].payload.get("owner") == owner:
            break
        if found and _stale(found[0], now):
            holder = found[0].payload.get("owner", "")
            transport.delete(
                ids=[LOCK_ID],
                where=models.Filter(
                    must=[models.FieldCondition(key="owner", match=models.MatchValue(value=holder))]
                ),
            )
            continue
        if time.monotonic() >= deadline:
            raise IndexLockedError()
        time.sleep(_POLL_S)
    held = Lease(transport, owner)
    try:
        yield held
    finally:
        transport.delete(
            ids=[LOCK_ID],
            where=models.Filter(
                must=[models.FieldCondition(key="owner", match=models.MatchValue(value=owner))]
            ),
        )
