"""The base of the eval report structs, and how a report file is written and read.

Both report families (``eval.schema`` for retrieval runs, ``eval.answer_schema`` for answer
quality) are trees of ``Record`` structs. A file is decoded straight into its tree, so a missing
key, a wrong type or an unknown key is refused where the file is read, with the place it is at.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from groundkit.errors import ErrorCode, UsageError

__all__ = ["Record", "decode_file", "encode", "to_plain"]


class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every report struct: immutable, built by keyword, unknown keys refused (a
    changed shape needs a new schema id)."""


def encode(report: msgspec.Struct, *, ensure_ascii: bool = False) -> str:
    """The report as indented JSON, keys in field order, as the stdlib writes it (so files
    written before the structs existed and files written now differ only in their values)."""
    return json.dumps(msgspec.to_builtins(report), indent=1, ensure_ascii=ensure_ascii)


R = TypeVar("R", bound=msgspec.Struct)


def decode_file(path: str | Path, kind: type[R], what: str, hint: str) -> R:
    """Read and validate one report file. Raises ``UsageError`` (``eval.invalid_results``),
    naming ``path`` and, for a bad value, where in the file it is."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise UsageError(ErrorCode.EVAL_RESULTS, f"cannot read {what} {path}: {reason}") from None
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.DecodeError as exc:  # malformed JSON, or a ValidationError: the wrong shape
        raise UsageError(
            ErrorCode.EVAL_RESULTS, f"{path} is not a valid {what}: {exc}", hint=hint
        ) from None


def to_plain(value: msgspec.Struct | dict[str, Any]) -> Any:
    """Builtin values for ``json.dumps`` (a CLI summary that embeds part of a report)."""
    return msgspec.to_builtins(value)
