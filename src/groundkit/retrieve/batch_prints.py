"""Fingerprints of many texts at once, as ingest makes them: ``fingerprint(t).to_bytes()`` for
every chunk of a file, with the work per word in numpy.

A list of word objects per chunk, and a dictionary lookup for each word, cost more than the
rest of the fingerprint (split and looked up, some 120 ns a word; scale.py's documents hold 265
words each). Here each chunk becomes bytes in which its words stand between spaces (ASCII text:
one ``translate``, which also lower-cases; other text: the words ``duplicates.words`` finds,
joined by spaces), the chunks are joined, and the words are found as runs of bytes that are not
a space. A word of up to ``_KEY`` bytes is its own key (its bytes, little-endian: a word holds no
zero byte, so no two words share a key), looked up for every word at once in a table of ids
(``_Slots``); a word not found there, or longer, is looked up as bytes, one by one. The words'
hash of each chunk is taken over the same bytes with its inner separators made zero bytes:
``b"\\0".join(words)``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from hashlib import blake2b
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from groundkit.retrieve.duplicates import _K1, _K2, _K3, _MARKUP, _MASK, _MAX_WORD_IDS, _WORD

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["stored_fingerprint", "stored_fingerprints"]

_SPACE = 0x20
# ASCII bytes as words keep them: letters lower-cased (``bytes.lower`` folded into the table),
# digits and "_" kept; every other byte a space (\w is letters, digits and "_").
_ASCII_WORD_BYTES = bytes(
    (c | 0x20 if 0x41 <= c <= 0x5A else c) if c < 128 and (chr(c).isalnum() or c == 0x5F) else 32
    for c in range(256)
)
# The same for case-folded non-ASCII text, with the bytes of non-ASCII characters (UTF-8: 0x80
# and up) kept for the word regex.
_KEEP_HIGH_BYTES = bytes(c if c >= 128 else _ASCII_WORD_BYTES[c] for c in range(256))
_HIGH = re.compile(rb"[\x80-\xff]")
_KEY = 12  # bytes: a word this long or shorter is its own key, in 64 + 32 bits
_LOW_BYTES = tuple((1 << (8 * n)) - 1 for n in range(9))
_SLOT_BITS = 18  # 262,144 slots of 16 bytes: 4 MB, allocated by the first ingest
_M1, _M2 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F  # odd: each keeps a half's every bit


class _WordIds(dict[bytes, int]):
    """A word's id (``duplicates``: BLAKE2b of its bytes) by its bytes, made on first lookup."""

    def __missing__(self, word: bytes) -> int:
        found = self[word] = int.from_bytes(blake2b(word, digest_size=4).digest(), "little")
        return found


_WORD_IDS = _WordIds()


class _Slots:
    """Word ids by key in numpy, a key per slot (a hash of it): looked up for every word of a
    file at once. A slot holds the last key put there, as two 64-bit values: the key's first
    eight bytes (``first``), and its other four beside the id (``rest``). An empty slot holds 0,
    which no word's key is (its first byte is not zero). Only an id read beside its very key is
    used. Two flat arrays, not one of rows: a gather from each (``take``) cost a third of one
    gather of rows of two."""

    def __init__(self) -> None:
        import numpy as np

        self.first = np.zeros(1 << _SLOT_BITS, dtype=np.uint64)
        self.rest = np.zeros(1 << _SLOT_BITS, dtype=np.uint64)


_SLOTS: list[_Slots] = []  # made on first use: a search never needs it
# Two ingests in threads of one process: a row is read and written whole.
_LOCK = threading.Lock()


def _has_markup(text: str) -> bool:
    """Whether ``_MARKUP`` may match in ``text`` (each of its forms holds one of these)."""
    # A character's own search runs at memory speed; a two-character needle's does not.
    return (
        ("]" in text and "](" in text)
        or (":" in text and "://" in text)
        or ("`" in text and "```" in text)
        or ("~" in text and "~~~" in text)
    )


def _spaced(text: str) -> bytes:
    """``b" ".join(w.encode() for w in duplicates.words(text))``, or the same words with more
    spaces between them."""
    if _has_markup(text):
        text = _MARKUP.sub(" ", text)
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_WORD_BYTES)
    # Cut at ASCII separators as for ASCII text: a word never spans one, and a piece that is all
    # ASCII is a word already. Only the pieces holding other characters (one in sixty on
    # SciFact) go through the regex, each found from one of its non-ASCII bytes.
    data = text.casefold().encode().translate(_KEEP_HIGH_BYTES)
    out: list[bytes] = []
    done = 0  # data[:done] is in out; data[done] is a space, or done is 0
    while found := _HIGH.search(data, done):
        start = data.rfind(b" ", done, found.start()) + 1
        end = data.find(b" ", found.start())
        end = len(data) if end < 0 else end
        out.append(data[done:start])
        out.append(b" ".join([w.encode() for w in _WORD.findall(data[start:end].decode())]))
        done = end
    out.append(data[done:])
    return b"".join(out)


def stored_fingerprints(texts: Sequence[str]) -> list[bytes]:
    """``fingerprint(t).to_bytes()`` for each of ``texts``."""
    import numpy as np  # here: a search never needs it

    if not texts:
        return []
    # A space before the first part, one between parts, and sixteen after the last: every word
    # is a run between spaces, and sixteen bytes can be read from any word's start.
    joined = " ".join(texts)
    if joined.isascii() and not _has_markup(joined):
        # The common case, in one pass over the file's chunks: each ASCII text's part is its
        # bytes translated (as long as the text), and the spaces joining them stay spaces. No
        # markup in the whole means none in any text: a space cannot complete one of its forms.
        body = joined.encode("ascii").translate(_ASCII_WORD_BYTES)
        lengths_of = [len(t) for t in texts]
    else:
        parts = [_spaced(t) for t in texts]
        body = b" ".join(parts)
        lengths_of = [len(p) for p in parts]
    buf = b" " + body + b" " * 16
    data = np.frombuffer(buf, dtype=np.uint8)
    inside = data != _SPACE
    starts = np.flatnonzero(inside[1:] & ~inside[:-1]) + 1
    ends = np.flatnonzero(inside[:-1] & ~inside[1:]) + 1
    sizes = np.array(lengths_of, dtype=np.int64)
    begins = np.cumsum(sizes + 1) - sizes  # of each part in buf, and past the last
    bounds = np.searchsorted(starts, np.append(begins, len(buf)))  # each part's first word
    lengths = ends - starts
    ids = _ids(buf, starts, lengths)
    counts = np.diff(bounds)
    # A 3-gram belongs to the text of its first word when its last word is in the same text;
    # keyed by (text, hash), one sort orders the 3-grams of every text and drops repeats.
    # uint32 arithmetic wraps: the low 32 bits of each product, as ``& _MASK`` keeps.
    hashed = ids[:-2] * np.uint32(_K1) ^ ids[1:-1] * np.uint32(_K2) ^ ids[2:] * np.uint32(_K3)
    owner = np.repeat(np.arange(len(texts), dtype=np.uint64), counts)
    within = owner[:-2] == owner[2:]
    keys = np.sort((owner[:-2][within] << np.uint64(32)) | hashed[within].astype(np.uint64))
    # Not np.unique: numpy 2 hashes instead of sorting, thirty times slower on these keys.
    keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if keys.size else keys
    values = (keys & np.uint64(_MASK)).astype("<u4").tobytes()
    cut = np.searchsorted(keys >> np.uint64(32), np.arange(len(texts) + 1), side="left") * 4
    words = _joined_words(data, ends, lengths, bounds)
    return [
        blake2b(words[i], digest_size=8).digest() + values[cut[i] : cut[i + 1]]
        for i in range(len(texts))
    ]


def stored_fingerprint(text: str) -> bytes:
    """``fingerprint(text).to_bytes()``, made as at ingest."""
    return stored_fingerprints([text])[0]


def _ids(buf: bytes, starts: npt.NDArray[np.intp], lengths: npt.NDArray[np.intp]) -> Any:
    """Each word's id, in order: from the slots where its key is found there, else made (and
    put in its slot)."""
    with _LOCK:
        if not _SLOTS:
            _SLOTS.append(_Slots())
        if len(_WORD_IDS) > _MAX_WORD_IDS:
            _WORD_IDS.clear()
        return _looked_up(_SLOTS[0], buf, starts, lengths)


def _looked_up(
    slots: _Slots, buf: bytes, starts: npt.NDArray[np.intp], lengths: npt.NDArray[np.intp]
) -> Any:
    import numpy as np

    # Eight bytes from every position of buf; of those at a word's start and eight bytes on, the
    # word's own kept: its key, exact for a word of up to _KEY bytes.
    at = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))
    masks = np.array(_LOW_BYTES, dtype=np.uint64)
    low = at.take(starts) & masks[np.minimum(lengths, 8)]
    high = at.take(starts + 8) & masks[np.clip(lengths - 8, 0, 4)]
    slot = (low * np.uint64(_M1) ^ high * np.uint64(_M2)) >> np.uint64(64 - _SLOT_BITS)
    # Seen as numpy's own index type (a slot fits in _SLOT_BITS bits): given uint64 indices,
    # each ``take`` converted them first, a copy that cost three times its gather.
    slot = slot.view(np.intp)
    rest = slots.rest.take(slot)
    found = slots.first.take(slot) == low
    found &= (rest & np.uint64(_MASK)) == high
    found &= lengths <= _KEY
    ids = (rest >> np.uint64(32)).astype(np.uint32)
    missed = np.flatnonzero(~found)
    if missed.size:
        first = starts[missed]
        last = first + lengths[missed]
        pieces = map(buf.__getitem__, map(slice, first.tolist(), last.tolist()))
        ids[missed] = np.fromiter(map(_WORD_IDS.__getitem__, pieces), np.uint32, missed.size)
        keyed = missed[lengths[missed] <= _KEY]
        # One word per slot (the first of those that land on it): a key and its own id.
        taken, at_first = np.unique(slot[keyed], return_index=True)
        chosen = keyed[at_first]
        slots.first[taken] = low[chosen]
        slots.rest[taken] = high[chosen] | ids[chosen].astype(np.uint64) << np.uint64(32)
    return ids


def _joined_words(
    data: npt.NDArray[np.uint8],
    ends: npt.NDArray[np.intp],
    lengths: npt.NDArray[np.intp],
    bounds: npt.NDArray[np.intp],
) -> list[memoryview]:
    """Each part's ``b"\\0".join(words)``: the space after each word but its part's last made a
    zero byte, and every space dropped."""
    import numpy as np

    counts = np.diff(bounds)
    last = np.zeros(len(ends), dtype=bool)
    last[bounds[1:][counts > 0] - 1] = True
    out = data.copy()
    out[ends[~last]] = 0
    joined = memoryview(out[out != _SPACE].tobytes())
    total = np.concatenate(([0], np.cumsum(lengths)))
    sizes = total[bounds[1:]] - total[bounds[:-1]] + np.maximum(counts - 1, 0)
    offsets = np.concatenate(([0], np.cumsum(sizes))).tolist()
    return [joined[a:b] for a, b in pairwise(offsets)]
