"""Port gitleaks' rules (its config/gitleaks.toml, MIT) to the data file redaction reads.

    .venv/bin/python scripts/port_gitleaks.py GITLEAKS.toml COMMIT \\
        > src/groundkit/answer/rules/gitleaks.json

gitleaks writes Go (RE2) regexes; Python's ``re`` differs in a few places, rewritten here:
a ``(?i)`` in the middle of a pattern (Python wants it first: it is made global, which can only
match more), ``\\z`` (``\\Z``), and a ``[`` opening a set inside a set (escaped). Its rules end a
token with ``(?:[\\x60'"\\s;]|\\\\[nr]|$)``, fit for code, so a key closing a sentence ("...is
ghp_x.") went unmatched: that ending becomes "no letter or digit follows". Left out: the
``generic-api-key`` rule (our own named-value patterns do that job, with placeholders and code
told apart), rules without a regex (file paths), and any rule Python cannot compile (listed on
stderr). Allowlists are not ported: redacting more is the safe side.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
import warnings

_END = "(?:[\\x60'\"\\s;]|\\\\[nr]|$)"
_SKIP = {"generic-api-key"}


def convert(regex: str) -> str:
    flags = ""
    if "(?i)" in regex[1:]:
        regex = regex.replace("(?i)", "")
        flags = "(?i)"
    elif regex.startswith("(?i)"):
        regex, flags = regex[4:], "(?i)"
    regex = regex.replace("\\z", "\\Z").replace(_END, "(?![A-Za-z0-9])")
    regex = re.sub(r"(?<!\\)\[\[", "[\\\\[", regex)
    return flags + regex


def main() -> None:
    source, commit = sys.argv[1], sys.argv[2]
    with open(source, "rb") as fh:
        rules = tomllib.load(fh)["rules"]
    out = []
    for rule in rules:
        if rule["id"] in _SKIP or "regex" not in rule:
            continue
        regex = convert(rule["regex"])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                compiled = re.compile(regex)
        except (re.error, FutureWarning) as exc:
            print(f"skipped {rule['id']}: {exc}", file=sys.stderr)
            continue
        group = rule.get("secretGroup", 1 if compiled.groups else 0)
        out.append(
            {
                "id": rule["id"],
                "regex": regex,
                "keywords": [k.lower() for k in rule.get("keywords", [])],
                "entropy": rule.get("entropy", 0),
                "group": group,
            }
        )
    body = {
        "source": "https://github.com/gitleaks/gitleaks config/gitleaks.toml",
        "commit": commit,
        "licence": "MIT, see LICENSE-gitleaks",
        "rules": out,
    }
    json.dump(body, sys.stdout, indent=1)
    sys.stdout.write("\n")
    print(f"{len(out)} rules of {len(rules)}", file=sys.stderr)


if __name__ == "__main__":
    main()
