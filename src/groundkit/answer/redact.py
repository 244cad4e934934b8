"""Redaction before a prompt leaves the machine: a decorator on the chat seam.

``RedactingChat(inner, patterns)`` replaces sensitive values in the system and user text with
per-call tokens (``[EMAIL_1]``, ``[SECRET_2]`` ...) and restores them in the reply before the
reply is validated. The user text is redacted part by part (the question, each source), so a
pattern never spans two sources. A fresh ``Redactor`` serves each call, so a token from one
request can never expand into another request's values; a token the model invents is left as it
is (and then fails validation, since the evidence never contained it). A non-local provider with
an empty pattern set is refused when the decorator is built. What this covers and what it does
not: docs/answer.md.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from groundkit.answer.chat import (
    ChatModel,
    FinishReporting,
    JsonSchema,
    credentials,
    finish_reason,
)
from groundkit.answer.fold import fold
from groundkit.answer.patterns import DEFAULT_PATTERNS, Pattern, Shape
from groundkit.answer.prompts import prompt_parts
from groundkit.errors import AIError, ConfigError, ErrorCode
from groundkit.secret import Secret

__all__ = [
    "DEFAULT_PATTERNS",
    "Pattern",
    "RedactingChat",
    "Redactor",
    "Shape",
    "build_patterns",
]


# A part that is only a boundary (a source's tags, a heading), and the shortest line of a value
# redacted alone (shorter ones, "}" or "  -", would cut into ordinary text).
_BOUNDARIES = re.compile(
    r'\s*(?:<source id="\d+">|</source>|Question:|Symbol:|Sources:|Answer \(JSON\)):?\s*'
)
_MIN_FRAGMENT = 6


def build_patterns(extra_regexes: Sequence[str], names: Sequence[str]) -> tuple[Shape, ...]:
    """The defaults plus the operator's regexes (``CUSTOM``) and literal names (``NAME``)."""
    out: list[Shape] = list(DEFAULT_PATTERNS)
    for source in extra_regexes:
        try:
            compiled = re.compile(source)
        except re.error as exc:
            raise ConfigError(
                ErrorCode.CONFIG_INVALID, f"answer.redact_patterns has an invalid regex ({exc})"
            ) from None
        if compiled.search(""):
            raise ConfigError(
                ErrorCode.CONFIG_INVALID, "answer.redact_patterns has a regex matching nothing"
            )
        out.append(Pattern("CUSTOM", compiled))
    literal = sorted({n for n in names if n.strip()}, key=len, reverse=True)
    if literal:
        out.insert(0, Pattern("NAME", re.compile("|".join(re.escape(n) for n in literal))))
    return tuple(out)


class Redactor:
    """One call's redaction: the value -> token table lives and dies with this object."""

    def __init__(self, patterns: Iterable[Shape], *, reserved: str = "") -> None:
        self._patterns = tuple(patterns)
        # Text already holding "[EMAIL_1]" literally: that token is skipped, or restoring would
        # turn the writer's own words into this call's value.
        self._reserved = reserved
        self._tokens: dict[str, str] = {}  # value -> token
        self._values: dict[str, str] = {}  # token -> value
        self._counts: dict[str, int] = {}
        # Lines of the values found (a card over two lines, a YAML block, a named password): a
        # quote candidate or a picked sentence may hold one alone, which no shape matches.
        self._fragments: dict[str, str] = {}  # fragment -> label

    def redact(self, text: str) -> str:
        """``text`` with every value of a shape replaced by its token. Shapes read the text
        folded (``fold``: disguises undone); what is replaced is the original span."""
        return self._replace(text, self._found(text))

    def _replace(self, text: str, found: list[tuple[int, int, str]]) -> str:
        spans: list[tuple[int, int, str]] = []
        taken = [False] * (len(text) + 1)
        for start, end, label in [*found, *self._fragment_spans(text)]:
            if not any(taken[start:end]):
                spans.append((start, end, label))
                taken[start:end] = [True] * (end - start)
        out, at = [], 0
        for start, end, label in sorted(spans):
            out.append(text[at:start])
            out.append(self._token(text[start:end], label))
            at = end
        out.append(text[at:])
        return "".join(out)

    def _found(self, text: str) -> list[tuple[int, int, str]]:
        """Every shape's values in ``text``, read folded, as spans of the original."""
        folded = fold(text)
        return [
            (*folded.span(start, end), pattern.label)
            for pattern in self._patterns
            for start, end in pattern.spans(folded.text)
        ]

    def _fragment_spans(self, text: str) -> list[tuple[int, int, str]]:
        out = []
        for fragment, label in self._fragments.items():
            at = text.find(fragment)
            while at >= 0:
                out.append((at, at + len(fragment), label))
                at = text.find(fragment, at + len(fragment))
        return out

    def redact_parts(self, text: str) -> str:
        """A prompt redacted part by part (the question, each source: ``prompt_parts``), with
        one table of tokens for all of them. The parts are read together first, so that a value
        cut across lines or parts (a card over two picked sentences) is known by its lines; what
        that one reading finds inside a single part is that part's values, so the patterns run
        over the bundle once, not twice. A part that a value runs out of is read again alone."""
        parts = prompt_parts(text)
        within = self._learn(parts)
        return "".join(
            self._replace(part, within[i]) if i in within else self.redact(part)
            for i, part in enumerate(parts)
        )

    def learn(self, parts: Iterable[str]) -> None:
        """Take the lines of every value in ``parts``, read as one text (their boundaries as
        line breaks), as fragments to redact wherever they appear without what named them: a
        YAML block's line, one line of a card, ``hunter2`` quoted without its ``password=``."""
        self._learn(list(parts))

    def _learn(self, parts: Sequence[str]) -> dict[int, list[tuple[int, int, str]]]:
        """``learn``, returning the values found within each part that no value ran out of
        (spans of that part), by the part's index."""
        inner: list[tuple[int, int, str]] = []  # (index, offset of its text in the part, text)
        for i, part in enumerate(parts):
            if not _BOUNDARIES.fullmatch(part):
                body = part.strip("\n")
                inner.append((i, len(part) - len(part.lstrip("\n")), body))
        joined = "\n".join(body for _, _, body in inner)
        starts, at = [], 0
        for _, _, body in inner:
            starts.append(at)
            at += len(body) + 1
        joins = starts[1:]
        within: dict[int, list[tuple[int, int, str]]] = {i: [] for i, _, _ in inner}
        for start, end, label in self._found(joined):
            # The part holding the value's start (the last that starts at or before it).
            k = bisect.bisect_right(starts, start) - 1
            i, lead, body = inner[k]
            if end <= starts[k] + len(body):
                if i in within:
                    within[i].append((start - starts[k] + lead, end - starts[k] + lead, label))
            else:  # runs out of its part: every part it touches is read alone
                last = bisect.bisect_right(starts, end - 1) - 1
                for touched, _, _ in inner[k : last + 1]:
                    within.pop(touched, None)
            value = joined[start:end]
            # Across two parts at most (a card over two picked sentences): a match running on
            # over many (a rule's [\s\S]* to the next source's END line) is no one value.
            if sum(start <= j < end for j in joins) > 1:
                continue
            for line in value.split("\n"):
                piece = line.strip()
                if len(piece) >= _MIN_FRAGMENT:
                    self._fragments.setdefault(piece, label)
        return within

    def _token(self, value: str, label: str) -> str:
        if value not in self._tokens:
            token = ""
            while not token or token in self._reserved:
                self._counts[label] = self._counts.get(label, 0) + 1
                token = f"[{label}_{self._counts[label]}]"
            self._tokens[value] = token
            self._values[token] = value
        return self._tokens[value]

    def restore(self, reply: str, *, json_strings: bool) -> str:
        """Put this call's values back; inside JSON strings they are escaped as JSON."""
        if not self._values:
            return reply
        pattern = re.compile("|".join(re.escape(t) for t in self._values))

        def back(m: re.Match[str]) -> str:
            value = self._values[m.group(0)]
            return json.dumps(value, ensure_ascii=False)[1:-1] if json_strings else value

        return pattern.sub(back, reply)


class RedactingChat:
    """A ``ChatModel`` that redacts what it sends and restores what comes back."""

    def __init__(self, inner: ChatModel, patterns: Sequence[Shape]) -> None:
        if not patterns and not inner.local:
            raise AIError(
                ErrorCode.AI_REDACTION_REQUIRED,
                f"the {inner.provider} provider is not local and no redaction pattern is set",
                hint="keep the default patterns; AI is refused without redaction off-machine",
            )
        self.inner = inner
        self._patterns = tuple(patterns)

    def __repr__(self) -> str:
        return f"RedactingChat({self.inner!r})"

    @property
    def provider(self) -> str:
        return self.inner.provider

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def local(self) -> bool:
        return self.inner.local

    def credentials(self) -> tuple[Secret, ...]:
        return credentials(self.inner)

    @property
    def max_tokens(self) -> int:
        return self.inner.max_tokens if isinstance(self.inner, FinishReporting) else 0

    @property
    def last_finish_reason(self) -> str | None:
        return finish_reason(self.inner)  # None when the inner model cannot tell

    def complete(self, system: str, user: str, *, response_schema: JsonSchema | None = None) -> str:
        # Fresh per call, so tokens never cross requests.
        redactor = Redactor(self._patterns, reserved=system + user)
        sent_system, sent_user = redactor.redact(system), redactor.redact_parts(user)
        # A quote-constrained schema carries evidence text in its enum and const values: it is
        # redacted with the same table, so a chosen span comes back as tokens and is restored.
        schema = _redacted_schema(response_schema, redactor) if response_schema else None
        reply = self.inner.complete(sent_system, sent_user, response_schema=schema)
        return redactor.restore(reply, json_strings=response_schema is not None)


def _redacted_schema(schema: JsonSchema, redactor: Redactor) -> dict[str, Any]:
    def walk(node: Any, key: str | None = None) -> Any:
        if isinstance(node, dict):
            return {k: walk(v, k) for k, v in node.items()}
        if isinstance(node, list):
            return [
                redactor.redact(v) if key == "enum" and isinstance(v, str) else walk(v)
                for v in node
            ]
        if key == "const" and isinstance(node, str):
            return redactor.redact(node)
        return node

    out: dict[str, Any] = walk(dict(schema))
    return out
