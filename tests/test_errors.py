"""The error table as documented (docs/errors.md is rendered from groundkit.errors.OUTCOMES), and
every error raised as the one class its code names (groundkit.errors.ERROR_CLASS)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import groundkit
from groundkit import errors
from groundkit.errors import ERROR_CLASS, OUTCOMES, ErrorCode, Kind

DOC = Path(__file__).parents[1] / "docs" / "errors.md"
_BEGIN = "<!-- table: rendered from groundkit.errors.OUTCOMES by tests/test_errors.py -->"
_END = "<!-- end of table -->"
_WHO = {
    Kind.REQUEST: "the caller",
    Kind.SETUP: "the operator",
    Kind.FAILURE: "nobody right now",
    Kind.BUG: "groundkit",
}


def render() -> str:
    rows = ["| code | who can fix it | `grk` exit | HTTP |", "|---|---|---:|---:|"]
    for code in sorted(ErrorCode, key=lambda c: c.value):
        outcome = OUTCOMES[code]
        rows.append(
            f"| `{code.value}` | {_WHO[outcome.kind]} | {int(outcome.exit_status)} |"
            f" {int(outcome.http)} {outcome.http.phrase} |"
        )
    return "\n".join([_BEGIN, *rows, _END])


def test_the_documented_table_is_the_table_in_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = text.index(_BEGIN), text.index(_END) + len(_END)
    if os.environ.get("UPDATE_DOCS") == "1":  # regenerate: UPDATE_DOCS=1 pytest this
        DOC.write_text(text[:begin] + render() + text[end:], encoding="utf-8")
        text = DOC.read_text(encoding="utf-8")
        begin, end = text.index(_BEGIN), text.index(_END) + len(_END)
    assert text[begin:end] == render()


def _constructions() -> list[tuple[str, str, str]]:
    """Every ``SomeError(ErrorCode.X, ...)`` in the package, and every ``super().__init__(
    ErrorCode.X, ...)`` of an error class: (where, the class, the code)."""
    src = Path(groundkit.__file__).parent
    known = {
        name: cls
        for name, cls in vars(errors).items()
        if isinstance(cls, type) and issubclass(cls, errors.GroundkitError)
    }
    found: list[tuple[str, str, str]] = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            bases = [b.id for b in cls.bases if isinstance(b, ast.Name) and b.id in known]
            if bases:  # an error class of its own: raised as its base
                known.setdefault(cls.name, known[bases[0]])
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            code = node.args[0]
            if not (
                isinstance(code, ast.Attribute)
                and isinstance(code.value, ast.Name)
                and code.value.id == "ErrorCode"
            ):
                continue
            if isinstance(node.func, ast.Name) and node.func.id in known:
                name = node.func.id
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "__init__":
                owner = next(
                    c
                    for c in ast.walk(tree)
                    if isinstance(c, ast.ClassDef)
                    and any(n is node for n in ast.walk(c))
                    and c.name in known
                )
                name = owner.name
            else:
                continue
            where = f"{path.relative_to(src.parent)}:{node.lineno}"
            found.append((where, known[name].__name__, code.attr))
    return found


def test_every_code_names_the_one_class_it_is_raised_as() -> None:
    assert set(ERROR_CLASS) == set(ErrorCode)


def test_every_error_is_raised_as_the_class_its_code_names() -> None:
    made = _constructions()
    assert len(made) > 100  # the scan sees the package's errors
    wrong = [
        f"{where}: {ErrorCode[code].value} raised as {cls}"
        for where, cls, code in made
        if not issubclass(getattr(errors, cls), ERROR_CLASS[ErrorCode[code]])
    ]
    assert wrong == []


def test_each_answer_state_in_the_table_is_one_an_answer_can_report() -> None:
    from groundkit.answer.report import AIState

    states = {o.answer_state for o in OUTCOMES.values() if o.answer_state is not None}
    assert states == {AIState.DISABLED, AIState.REFUSED, AIState.FAILED}
