"""Mutation check for the citation contract: break each rule, the named tests must fail.

The contract's tests run for document passages and for code-map edges alike (the ``kit``
fixture), so each mutant of the one gate is caught for both kinds; the last mutants break how an
edge's quote resolves back to the map.

Run from the repository root: .venv/bin/python tests/answer/check_mutants.py
"""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
p = ROOT / "src/groundkit/answer/contract.py"
orig = p.read_text()
M = [
    (
        "whitespace folded",
        "if quote not in item.text:",
        'if " ".join(quote.split()) not in " ".join(item.text.split()):',
        "whitespace_or_case",
    ),
    (
        "case folded",
        "if quote not in item.text:",
        "if quote.lower() not in item.text.lower():",
        "whitespace_or_case",
    ),
    (
        "unicode folded",
        "if quote not in item.text:",
        'if __import__("unicodedata").normalize("NFC", quote) not in item.text:',
        "unicode_normal_form",
    ),
    (
        "bool/float/str accepted",
        'if type(number) is not int:  # bool is an int subclass; 1.0 and "1" are not ints\n                _refuse(f"{at}: source is not an integer")',  # noqa: E501
        'try:\n                number = int(number)\n            except (TypeError, ValueError):\n                _refuse(f"{at}: source is not an integer")',  # noqa: E501
        "not_an_integer",
    ),
    (
        "isinstance int (bool slips)",
        "if type(number) is not int:",
        "if not isinstance(number, int):",
        "not_an_integer",
    ),
    (
        "bad citation skipped",
        '            if quote not in item.text:\n                _refuse(f"{at}: the quote is not in source {number} exactly as written")',  # noqa: E501
        "            if quote not in item.text:\n                continue",
        "one_bad_citation",
    ),
    (
        "out-of-bundle wraps",
        "            item = bundle.item(number)",
        "            item = bundle.items[number % len(bundle.items)]",
        "outside_the_bundle",
    ),
    (
        "extra properties allowed",
        "    if set(value) != keys:",
        "    if not set(value) >= keys:",
        "extra_json_properties",
    ),
    (
        "marker in text counts as citation",
        "        if not isinstance(cites, list) or not cites:",
        '        if not isinstance(cites, list) or (not cites and "[" not in text):',
        "redaction_token",
    ),
    (
        "empty quote allowed",
        "            if not isinstance(quote, str) or not quote:",
        "            if not isinstance(quote, str):",
        "empty_quote",
    ),
    (
        "no-citation item allowed",
        "        if not isinstance(cites, list) or not cites:",
        "        if not isinstance(cites, list):",
        "without_a_citation",
    ),
    (
        "duplicate keys allowed",
        "data = strict.loads(raw)",
        'data = __import__("json").loads(raw)',
        "strict_json_object",
    ),
    (
        "invisible text counts as text",
        "not strict.visible(text)",
        "not text.strip()",
        "invisible_characters",
    ),
    (
        "unprintable prose allowed",
        "        if not strict.printable(text):",
        "        if False:",
        "lone_surrogate_or_a_control",
    ),
    (
        "no minimum quote length",
        "        if len(quote) < self.min_chars:",
        "        if False:",
        "shorter_than_the_minimum",
    ),
    (
        "restated question accepted",
        "        if any(words <= asked for asked in self.questions):",
        "        if False:",
        "only_restates_the_question",
    ),
    (
        "bidi override allowed",
        "        or ch in _BIDI\n",
        "\n",
        "spoof_the_terminal",
    ),
    (
        "validation token reusable",
        "            _UNSPENT.remove(self._token)",
        "            assert self._token in _UNSPENT",
        "forged",
    ),
    (
        "edge not re-read from the map",
        "        stored = origins.edge(self.edge.id, self.number)",
        "        stored = self.edge",
        "deleted_from_its_origin",
    ),
    (
        "changed edge evidence accepted",
        "        if stored.evidence != self.text:",
        "        if False:",
        "evidence_changed_in_the_map",
    ),
    (
        "edge not re-checked against the files",
        "            origins.verify(stored),",
        '            "verified",',
        "drifted_or_missing",
    ),
]
M += [
    (
        "repeated item accepted",
        "        if said in seen:",
        "        if False:",
        "repeats_an_earlier_item",
    ),
    (
        "repeated citation accepted",
        "            if (number, quote) in checked:",
        "            if False:",
        "repeats_a_citation",
    ),
]
STRICT = ROOT / "src/groundkit/answer/strict.py"
EDGES = ROOT / "src/groundkit/answer/edges.py"


def run() -> int:
    """Apply each mutant in turn; the originals are restored whatever happens (a crash or ^C
    midway must not leave a broken contract in the working tree)."""
    originals = {path: path.read_text() for path in (p, STRICT, EDGES)}
    bad = 0
    try:
        for name, old, new, k in M:
            target = next(path for path, text in originals.items() if old in text)
            target.write_text(originals[target].replace(old, new, 1))
            bad += not check(name, k)
            target.write_text(originals[target])
    finally:
        for path, text in originals.items():
            path.write_text(text)
    return bad


def check(name: str, k: str) -> bool:
    r = subprocess.run(
        [
            ".venv/bin/pytest",
            "-q",
            "-x",
            "tests/answer/test_contract.py",
            "tests/answer/test_code_evidence.py",
            "-k",
            k,
            "-p",
            "no:cacheprovider",
        ],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    line = r.stdout.strip().splitlines()[-1]
    ok = r.returncode != 0
    print(f"{'CAUGHT ' if ok else 'MISSED '} {name:35s} -k {k:25s} {line}")
    return ok


if __name__ == "__main__":
    sys.exit(run())
