"""The mutation checker leaves the contract as it found it, even when a run stops midway."""

from __future__ import annotations

from pathlib import Path

import check_mutants
import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "groundkit" / "answer"


def test_an_interrupted_mutation_run_restores_the_contract_and_strict_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contract, strict = tmp_path / "contract.py", tmp_path / "strict.py"
    contract.write_text((SRC / "contract.py").read_text())
    strict.write_text((SRC / "strict.py").read_text())
    edges = tmp_path / "edges.py"
    edges.write_text((SRC / "edges.py").read_text())
    before = (contract.read_text(), strict.read_text())
    monkeypatch.setattr(check_mutants, "p", contract)
    monkeypatch.setattr(check_mutants, "STRICT", strict)
    monkeypatch.setattr(check_mutants, "EDGES", edges)
    seen: list[str] = []

    def interrupted(name: str, k: str) -> bool:
        seen.append(contract.read_text())
        raise KeyboardInterrupt  # ^C while the first mutant is on disk

    monkeypatch.setattr(check_mutants, "check", interrupted)
    with pytest.raises(KeyboardInterrupt):
        check_mutants.run()
    assert seen[0] != before[0]  # the mutant really was written
    assert (contract.read_text(), strict.read_text()) == before


def test_every_mutant_names_text_that_is_in_the_code() -> None:
    code = (SRC / "contract.py").read_text()
    code += (SRC / "strict.py").read_text()
    code += (SRC / "edges.py").read_text()
    for name, old, _new, _k in check_mutants.M:
        assert old in code, name
