"""`grk answer` and `grk ask` give a reader something worth reading (issue 25): with AI off, the
evidence's best sentences, labelled as extracted; an extractive profile; prose that tells
nothing refused as ``ai.unhelpful``; citations as ``path:line``; and the "left out" line naming
the setting that capped the evidence.

Both surfaces run each test that can (``surface``, from ``test_answer_cli``). Where no model may
be asked, the transport fails the test if it is called.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_answer_cli import (
    LOCAL,
    REMOTE,
    Surface,
    grk,
    keychain,
    no_machine_keychain,
    surface,
    use,
)

from grk_runner import Grk
from groundkit.answer.bundle import build_bundle
from groundkit.cli.answer_render import render_report
from groundkit.testing.chat import ForbiddenTransport, RecordingTransport, openai_reply

SHARED_FIXTURES = (grk, keychain, no_machine_keychain, surface, use)
DIG = "The wombat digs long burrows with its strong claws."
PLAIN = '[profiles.plain]\nprovider = "extractive"\n'


def test_with_ai_off_the_extracted_sentences_come_above_the_evidence_labelled_as_extracted(
    surface: Surface, grk: Grk, use: Any
) -> None:
    forbidden = use(ForbiddenTransport()).transport
    assert grk(*surface.ask()) == 0
    out = grk.out
    assert out.startswith("extracted from the evidence, no model")
    head, rest = out.split("\nevidence", 1)
    assert rest.startswith(":")
    assert "no explanation (disabled)" in head
    if surface.kind == "documents":  # the best passage, the sentence marked in it
        assert "marked in the best passage:\n  wombat.md:1-3  [" in head
        assert f"(verified)\n    \u00ab{DIG}\u00bb\n" in head
    else:
        assert "  zoo.py\n        2  zoo.wombat calls zoo.dig" in head
    assert "[1]" not in head  # no markers: nothing here is a model's claim
    assert forbidden.calls == 0
    report = grk.json(*surface.ask())
    assert report["answer"] is None
    assert report["extracted"]["composed"] == "extracted"


def test_a_profile_may_name_the_extractive_provider_which_needs_no_key_or_network(
    surface: Surface, grk: Grk, use: Any, tmp_path: Path
) -> None:
    (tmp_path / "grk.toml").write_text(REMOTE + LOCAL + PLAIN, encoding="utf-8")
    forbidden = use(ForbiddenTransport()).transport
    assert grk("ai", "enable", surface.target, "--profile", "plain") == 0
    report = grk.json(*surface.ask())
    assert report["ai"]["state"] == "answered"
    assert report["ai"]["provider"] == "extractive"
    assert report["answer"]["composed"] == "extracted"
    assert report["extracted"] is None
    assert grk(*surface.ask()) == 0
    assert grk.out.startswith("extracted from the evidence, no model")
    assert "no explanation" not in grk.out
    assert forbidden.calls == 0


@pytest.mark.parametrize("prose", ["a: a: a: a:", 'E"),', DIG])
def test_prose_that_tells_nothing_is_refused_as_unhelpful_and_show_reply_shows_it(
    surface: Surface, grk: Grk, use: Any, prose: str
) -> None:
    quote = DIG if surface.kind == "documents" else "zoo.wombat calls zoo.dig"
    raw = json.dumps({"items": [{"text": prose, "citations": [{"source": 1, "quote": quote}]}]})
    use(RecordingTransport([openai_reply(raw)] * 2))
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    report = grk.json(*surface.ask(), "--profile", "box")
    assert report["ai"]["state"] == "refused"
    assert report["ai"]["reason"]["code"] == "ai.unhelpful"
    assert report["extracted"] is not None
    assert prose not in json.dumps(report["ai"])
    assert grk(*surface.ask(), "--show-reply") == 0
    assert "no explanation (refused): the model's answer was refused as unhelpful" in grk.out
    assert "the model's reply, as it came back (--show-reply):" in grk.out
    assert json.dumps(prose)[1:-1] in grk.out


def test_answer_citations_show_path_and_line_as_search_does(grk: Grk, use: Any) -> None:
    good = json.dumps(
        {"items": [{"text": "Long burrows.", "citations": [{"source": 1, "quote": DIG}]}]}
    )
    use(RecordingTransport([openai_reply(good)]))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("answer", "what does the wombat dig?") == 0
    assert "  [1] wombat.md:1  [" in grk.out
    assert "  1. wombat.md:1  [" in grk.out  # the evidence list too
    assert grk("search", "what does the wombat dig?") == 0
    assert "wombat.md:1" in grk.out


class _SmallContext:
    """A local model whose context holds little evidence (as llama.cpp's n_ctx does)."""

    provider, model_name, local, prompt_budget_bytes = "llamacpp", "tiny.gguf", True, 700

    def complete(self, system: str, user: str, *, response_schema: Any = None) -> str:
        return '{"items": []}'


def test_the_left_out_line_names_n_ctx_when_the_models_context_capped_the_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import groundkit
    from groundkit.answer.service import answer_question

    docs = tmp_path / "d"
    docs.mkdir()
    for n in range(6):
        (docs / f"w{n}.md").write_text(f"The wombat {n} digs long burrows. " * 8, encoding="utf-8")
    with groundkit.open_collection("c", index_dir=tmp_path / "i", create=True) as col:
        col.ingest([docs])
        report = answer_question(
            col, "wombat burrows", _SmallContext(), profile="offline", quotes="constrained"
        )
        full = build_bundle(col.search("wombat burrows"), collection="c", query="q", max_bytes=700)
    render_report(report, as_json=False)
    out = capsys.readouterr().out
    assert "more passages left out: the model's context holds 700 bytes of evidence" in out
    assert "n_ctx and max_tokens in [profiles.offline]" in out
    assert "answer.max_bundle_bytes" not in out
    assert report.bundle.omitted == full.omitted > 0
    assert report.to_dict()["evidence"]["capped_by"] == "n_ctx"
