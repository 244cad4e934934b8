"""Vendor key shapes from a maintained rule set: gitleaks' rules, ported as data.

``rules/gitleaks.json`` is made by ``scripts/port_gitleaks.py`` from gitleaks' own
``config/gitleaks.toml`` (MIT, ``rules/LICENSE-gitleaks``; the commit is in the file): about 220
providers' token shapes (Stripe ``rk_live_``, Shopify ``shpat_``, Databricks ``dapi``, Vault
``hvs.``, Telegram bot tokens, New Relic ``NRAK-``...). To take a newer set, run the script on a
newer gitleaks and commit the data. detect-secrets was weighed too: its ~25 plugins are classes
of code, not data, and cover fewer providers.

As gitleaks does, a rule runs only on text holding one of its keywords (lower-cased), and a
value below a rule's Shannon entropy is not a secret. Loaded on first use: a run that never
redacts never reads the file. A rule's regex is compiled the first time its keywords are met:
compiling all 220 cost a cold `grk answer` 0.3 s, though an answer's texts seldom hold any.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

__all__ = ["VENDOR", "VendorRules", "entropy"]


@dataclass(frozen=True, slots=True)
class _Rule:
    id: str
    source: str  # the regex, compiled when first needed (``_compiled``)
    keywords: tuple[str, ...]
    entropy: float
    group: int


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character, as gitleaks measures it."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


@functools.cache
def _rules() -> tuple[_Rule, ...]:
    data = json.loads(resources.files(__package__).joinpath("rules/gitleaks.json").read_text())
    return tuple(
        _Rule(r["id"], r["regex"], tuple(r["keywords"]), r["entropy"], r["group"])
        for r in data["rules"]
    )


@functools.cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


@functools.cache
def _keywords() -> tuple[re.Pattern[str], dict[str, tuple[str, ...]]]:
    """Every rule's keywords as one regex shaped as a trie (Python's ``re`` tries the branches
    of a plain alternation one by one), and for each keyword the keywords it begins with."""
    words = sorted({k for rule in _rules() for k in rule.keywords})
    scan = re.compile(_trie(words))
    return scan, {w: tuple(k for k in words if w.startswith(k)) for w in words}


def _trie(words: list[str]) -> str:
    """A regex matching the longest of ``words`` that starts where it is tried."""
    heads: dict[str, list[str]] = {}
    ends = False
    for word in words:
        if word:
            heads.setdefault(word[0], []).append(word[1:])
        else:
            ends = True
    branches = [re.escape(c) + _trie(rest) for c, rest in sorted(heads.items())]
    if not branches:
        return ""
    body = "(?:" + "|".join(branches) + ")"
    return body + "?" if ends else body


def _present(lowered: str) -> set[str]:
    """The keywords ``lowered`` holds: one scan, where asking each of 236 keywords in turn took
    a fifth of a bundle's redaction. Overlapping ones too (``sk_live`` holds ``sk``)."""
    scan, starting = _keywords()
    found: set[str] = set()
    at = 0
    while (m := scan.search(lowered, at)) is not None:
        found.update(starting.get(m.group(0), ()))
        at = m.start() + 1
    return found


class VendorRules:
    """Every ported rule, as one pattern: ``spans`` yields the secret part of each match."""

    label = "SECRET"

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        lowered = text.lower()
        present = _present(lowered)
        found: list[tuple[int, int]] = []
        for rule in _rules():
            if rule.keywords and not any(k in present for k in rule.keywords):
                continue
            regex = _compiled(rule.source)
            for match in regex.finditer(text):
                group = rule.group if rule.group <= (regex.groups or 0) else 0
                start, end = match.span(group)
                if end <= start:
                    continue
                if rule.entropy and entropy(text[start:end]) < rule.entropy:
                    continue
                found.append((start, end))
        yield from sorted(found)


VENDOR = VendorRules()
