"""Vendor key shapes from a maintained rule set: gitleaks' rules, ported as data.

``rules/gitleaks.json`` is made by ``scripts/port_gitleaks.py`` from gitleaks' own
``config/gitleaks.toml`` (MIT, ``rules/LICENSE-gitleaks``; the commit is in the file): about 220
providers' token shapes (Stripe ``rk_live_``, Shopify ``shpat_``, Databricks ``dapi``, Vault
``hvs.``, Telegram bot tokens, New Relic ``NRAK-``...). To take a newer set, run the script on a
newer gitleaks and commit the data. detect-secrets was weighed too: its ~25 plugins are classes
of code, not data, and cover fewer providers.

As gitleaks does, a rule runs only on text holding one of its keywords (lower-cased), and a
value below a rule's Shannon entropy is not a secret. Loaded on first use: a run that never
redacts never reads the file.
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
    regex: re.Pattern[str]
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
        _Rule(r["id"], re.compile(r["regex"]), tuple(r["keywords"]), r["entropy"], r["group"])
        for r in data["rules"]
    )


class VendorRules:
    """Every ported rule, as one pattern: ``spans`` yields the secret part of each match."""

    label = "SECRET"

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        lowered = text.lower()
        found: list[tuple[int, int]] = []
        for rule in _rules():
            if rule.keywords and not any(k in lowered for k in rule.keywords):
                continue
            for match in rule.regex.finditer(text):
                group = rule.group if rule.group <= (rule.regex.groups or 0) else 0
                start, end = match.span(group)
                if end <= start:
                    continue
                if rule.entropy and entropy(text[start:end]) < rule.entropy:
                    continue
                found.append((start, end))
        yield from sorted(found)


VENDOR = VendorRules()
