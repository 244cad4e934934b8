"""`grk answer` and `grk ask` end to end, in process: the answer with its citations, or the
evidence and why.

The degraded-mode matrix and the hostile replies run on both surfaces (``surface``): `grk answer`
over a collection and `grk ask` over a code map whose one edge carries the wombat sentence, so
the same scripted replies apply. Every degraded row runs with a transport that fails the test if
it is called; the rows that do reach a provider use a transport double that answers as the
provider would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grk_runner import Grk
from groundkit.answer.access import AIEnvironment
from groundkit.answer.credentials import KeyStore
from groundkit.answer.optin import AISettings
from groundkit.cli import answer as answer_cli
from groundkit.errors import AIError, ErrorCode
from groundkit.testing.chat import (
    ForbiddenKeyring,
    ForbiddenTransport,
    MemoryKeyring,
    RecordingTransport,
    openai_reply,
)
from small_golden import make_small_golden

WOMBAT = "The wombat digs long burrows with its strong claws.\n\nA wombat eats bark.\n"
GOOD = json.dumps(
    {
        "items": [
            {
                "text": "Wombats dig burrows.",
                "citations": [{"source": 1, "quote": "digs long burrows"}],
            }
        ]
    }
)
REMOTE = '[profiles.cloud]\nprovider = "groq"\napi_key_env = "TEST_GROQ_KEY"\n'
LOCAL = (
    '[profiles.box]\nprovider = "openai_compatible"\nbase_url = "http://127.0.0.1:9/v1"\n'
    'model = "m"\nlocal = true\n'
)
FIXTURE_KEY = "gsk_FIXTUREkey0123456789abcdef"
ZOO = 'def wombat():\n    return dig("The wombat digs long burrows with its strong claws.")\n\n\ndef dig(how):\n    return how\n'  # noqa: E501
ZOO_EVIDENCE = (
    "zoo.wombat calls zoo.dig at zoo.py:2:"
    ' return dig("The wombat digs long burrows with its strong claws.")'
)


@dataclass(frozen=True)
class Surface:
    """A way to ask: its command line, the name `grk ai` knows it by, the folder the opt-in file
    keys it by (relative to the index dir), and the evidence it always shows."""

    kind: str
    command: tuple[str, ...]
    target: str
    folder: str
    evidence: tuple[str, ...]

    def ask(self, question: str = "what does the wombat dig?") -> list[str]:
        return (
            [*self.command[:-1], question, *self.command[-1:]]
            if self.kind == "code"
            else [
                *self.command,
                question,
            ]
        )


SURFACES = {
    "documents": Surface("documents", ("answer",), "default", "default", (WOMBAT.strip(),)),
    "code": Surface(
        "code", ("ask", "zoo.wombat", "--map=zoo"), "map:zoo", "_maps/zoo", (ZOO_EVIDENCE,)
    ),
}


@pytest.fixture(params=sorted(SURFACES))
def surface(request: pytest.FixtureRequest) -> Surface:
    return SURFACES[request.param]


@pytest.fixture(autouse=True)
def no_machine_keychain(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Only the in-memory keychain given to the runtime may be used; the opt-in file is the
    test's own."""
    monkeypatch.setattr("keyring.core._keyring_backend", ForbiddenKeyring())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def keychain() -> MemoryKeyring:
    return MemoryKeyring()


@pytest.fixture
def use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keychain: MemoryKeyring
) -> Callable[[Any], AIEnvironment]:
    """Point `grk` at a transport double, an in-memory keychain and a test opt-in file."""

    def install(transport: Any) -> AIEnvironment:
        runtime = AIEnvironment(
            keys=KeyStore(keychain),
            ai_settings=AISettings(tmp_path / "ai.json"),
            transport=transport,
        )
        monkeypatch.setattr(answer_cli, "make_ai_environment", lambda: runtime)
        return runtime

    return install


@pytest.fixture
def grk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "wombat.md").write_text(WOMBAT, encoding="utf-8")
    zoo = tmp_path / "zoo"
    zoo.mkdir()
    (zoo / "zoo.py").write_text(ZOO, encoding="utf-8")
    (tmp_path / "grk.toml").write_text(REMOTE + LOCAL, encoding="utf-8")
    runner = Grk(tmp_path / "index", capsys)
    assert runner("ingest", str(docs), "--quiet") == 0
    assert runner("map", str(zoo), "--name", "zoo", "--quiet") == 0
    return runner


def degraded(
    grk: Grk, state: str, code: str, *args: str, on: Surface = SURFACES["documents"]
) -> dict[str, Any]:
    report = grk.json(*on.ask(), *args)
    assert report["ai"]["state"] == state
    assert report["ai"]["reason"]["code"] == code
    assert report["answer"] is None
    assert tuple(i["text"] for i in report["evidence"]["items"]) == on.evidence  # always there
    return report


# -- the degraded-mode matrix: each row touches no network


def test_with_no_opt_in_answer_shows_the_evidence_and_says_disabled(
    surface: Surface, grk: Grk, use: Any
) -> None:
    forbidden = use(ForbiddenTransport()).transport
    degraded(grk, "disabled", "ai.disabled", on=surface)
    assert forbidden.calls == 0


def test_with_ai_enabled_for_another_profile_answer_is_disabled(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(ForbiddenTransport())
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    degraded(grk, "disabled", "ai.disabled", "--profile", "cloud", on=surface)


def test_after_ai_disable_answer_is_disabled_again(surface: Surface, grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    assert grk("ai", "disable", surface.target) == 0
    degraded(grk, "disabled", "ai.disabled", on=surface)


def test_a_corrupt_opt_in_file_means_disabled_with_a_warning(
    surface: Surface, grk: Grk, use: Any, tmp_path: Path
) -> None:
    use(ForbiddenTransport())
    (tmp_path / "ai.json").write_text("{not json", encoding="utf-8")
    report = degraded(grk, "disabled", "ai.disabled", on=surface)
    assert "AI is off for every collection" in report["ai"]["warning"]


def test_an_opted_in_profile_missing_from_the_config_is_unavailable(
    surface: Surface, grk: Grk, use: Any, tmp_path: Path
) -> None:
    use(ForbiddenTransport())
    AISettings(tmp_path / "ai.json").enable(grk.index_dir / surface.folder, "gone")
    degraded(grk, "unavailable", "ai.unknown_profile", on=surface)


def test_a_profile_named_but_not_configured_is_unknown_and_no_hint_suggests_allowing_it(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(ForbiddenTransport())
    assert grk("ai", "enable", surface.target, "--profile", "cloud") == 0
    report = degraded(grk, "unavailable", "ai.unknown_profile", "--profile", "clod", on=surface)
    reason = report["ai"]["reason"]
    assert reason["message"] == "no profile 'clod' in the configuration"
    assert "the profiles configured are box, cloud" in reason["hint"]
    assert "--profile clod" not in reason["hint"]


def test_with_no_credential_answer_is_unavailable(surface: Surface, grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk("ai", "enable", surface.target, "--profile", "cloud") == 0
    degraded(grk, "unavailable", "auth.missing", on=surface)


def test_with_the_keychain_unavailable_answer_is_unavailable(
    surface: Surface, grk: Grk, use: Any, keychain: MemoryKeyring, tmp_path: Path
) -> None:
    from keyring.errors import NoKeyringError

    use(ForbiddenTransport())
    (tmp_path / "grk.toml").write_text(REMOTE.replace('api_key_env = "TEST_GROQ_KEY"\n', ""))
    assert grk("ai", "enable", surface.target, "--profile", "cloud") == 0
    keychain.fail_with = NoKeyringError()
    degraded(grk, "unavailable", "auth.keychain_unavailable", on=surface)


def test_with_the_keychain_locked_answer_is_unavailable(
    surface: Surface, grk: Grk, use: Any, keychain: MemoryKeyring, tmp_path: Path
) -> None:
    from keyring.errors import KeyringLocked

    use(ForbiddenTransport())
    (tmp_path / "grk.toml").write_text(REMOTE.replace('api_key_env = "TEST_GROQ_KEY"\n', ""))
    assert grk("ai", "enable", surface.target, "--profile", "cloud") == 0
    keychain.fail_with = KeyringLocked()
    degraded(grk, "unavailable", "auth.denied", on=surface)


def test_an_unexpected_keychain_failure_is_unavailable_not_a_crash(
    surface: Surface, grk: Grk, use: Any, keychain: MemoryKeyring, tmp_path: Path
) -> None:
    # Keychain backends raise their own errors (D-Bus, Secret Service), not only keyring's.
    use(ForbiddenTransport())
    (tmp_path / "grk.toml").write_text(REMOTE.replace('api_key_env = "TEST_GROQ_KEY"\n', ""))
    assert grk("ai", "enable", surface.target, "--profile", "cloud") == 0
    keychain.fail_with = RuntimeError("org.freedesktop.DBus.Error.ServiceUnknown")
    report = degraded(grk, "unavailable", "auth.keychain_unavailable", on=surface)
    assert "DBus" not in json.dumps(report)


@pytest.mark.parametrize(
    ("failure", "code"),
    [
        (openai_reply("", status=500), "ai.provider_failed"),
        (openai_reply("", status=429, retry_after="7"), "ai.rate_limited"),
        (AIError(ErrorCode.AI_TIMEOUT, "127.0.0.1:9 did not answer within 60 s"), "ai.timeout"),
        (openai_reply("", status=302), "ai.provider_failed"),
    ],
)
def test_a_provider_failure_shows_the_evidence_and_says_failed(
    surface: Surface, grk: Grk, use: Any, failure: Any, code: str
) -> None:
    transport = use(RecordingTransport([failure])).transport
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    degraded(grk, "failed", code, on=surface)
    assert len(transport.sent) == 1  # one attempt, no retry


def test_a_refused_answer_shows_the_evidence_and_says_refused(
    surface: Surface, grk: Grk, use: Any
) -> None:
    bad = GOOD.replace("digs long burrows", "digs  long burrows")
    use(RecordingTransport([openai_reply(bad)]))
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    degraded(grk, "refused", "ai.invalid_output", on=surface)


@pytest.mark.parametrize("as_json", [True, False])
def test_a_reply_no_encoder_can_print_is_refused_and_the_evidence_still_shown(
    surface: Surface, grk: Grk, use: Any, as_json: bool
) -> None:
    bad = GOOD.replace("Wombats dig burrows.", "Wombats \\ud800 dig.")
    use(RecordingTransport([openai_reply(bad)]))
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    if as_json:
        degraded(grk, "refused", "ai.invalid_output", on=surface)
    else:
        assert grk(*surface.ask()) == 0
        assert "no explanation (refused)" in grk.out
        assert "digs long burrows" in grk.out


def test_a_provider_body_nested_too_deep_to_parse_is_failed_not_a_crash(
    surface: Surface, grk: Grk, use: Any
) -> None:
    from groundkit.answer.chat import HttpReply

    use(RecordingTransport([HttpReply(200, b"[" * 100_000 + b"]" * 100_000)]))
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    degraded(grk, "failed", "ai.provider_failed", on=surface)


def test_every_degraded_answer_exits_zero_and_prints_the_evidence(
    surface: Surface, grk: Grk, use: Any
) -> None:
    use(ForbiddenTransport())
    assert grk(*surface.ask()) == 0
    assert "no explanation (disabled)" in grk.out
    assert "digs long burrows" in grk.out


# -- the answered path


def test_a_valid_answer_is_printed_with_numbered_citations_that_re_read_from_the_store(
    grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply(GOOD)]))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    report = grk.json("answer", "what does the wombat dig?")
    assert report["ai"]["state"] == "answered"
    assert (report["ai"]["profile"], report["ai"]["provider"]) == ("box", "openai_compatible")
    cited = report["answer"]["citations"][0]
    assert cited["cited_text"] == "digs long burrows"
    assert WOMBAT[cited["start"] : cited["end"]] == "digs long burrows"
    shown = grk.json("show", cited["chunk_id"])
    at = cited["start"] - shown["start"]
    assert shown["text"][at : at + len(cited["cited_text"])] == cited["cited_text"]


def test_the_text_output_shows_markers_then_the_citations(grk: Grk, use: Any) -> None:
    use(RecordingTransport([openai_reply(GOOD)]))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("answer", "what does the wombat dig?") == 0
    lines = grk.out.splitlines()
    assert lines[0] == "Wombats dig burrows. [1]"
    assert lines[2] == "citations:"
    assert lines[3].startswith("  [1] ")
    assert lines[3].startswith("  [1] wombat.md:1  [c")  # path:line, as `grk search` cites
    assert lines[4] == '      "digs long burrows"'
    assert lines[6] == "evidence:"


def test_an_abstention_is_an_answer_that_says_the_sources_do_not_answer(grk: Grk, use: Any) -> None:
    use(RecordingTransport([openai_reply('{"items": []}')]))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    report = grk.json("answer", "what does the wombat dig?")
    assert report["ai"]["state"] == "answered"
    assert report["answer"] == {
        "abstained": True,
        "composed": "prose",
        "items": [],
        "citations": [],
    }


def test_with_nothing_retrieved_no_model_is_asked(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    report = grk.json("answer", "platypus")
    assert report["ai"]["state"] == "no_evidence"
    assert report["evidence"]["items"] == []


def test_eval_answers_runs_the_echo_check_with_a_profile(grk: Grk, use: Any) -> None:
    use(RecordingTransport([openai_reply('{"items": []}')] * 12))
    report = grk.json("eval", "--answers", "--profile", "box")
    assert report["questions"] == 6
    assert report["abstained"] == 6
    assert report["code"]["abstained"] == 6


def test_eval_answers_without_a_profile_is_a_usage_error(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk("eval", "--answers", "--json") == 2
    assert json.loads(grk.out)["error"]["code"] == "usage"


def test_the_judge_never_changes_the_exit_status(grk: Grk, use: Any) -> None:
    use(RecordingTransport([openai_reply(GOOD), openai_reply("not a verdict")]))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("answer", "what does the wombat dig?", "--judge") == 0
    assert "judge (advisory) failed" in grk.out
    report_transport = use(
        RecordingTransport(
            [
                openai_reply(GOOD),
                openai_reply('{"faithful": false, "unsupported_claims": ["x"], "reasoning": "r"}'),
            ]
        )
    )
    report = grk.json("answer", "what does the wombat dig?", "--judge")
    assert report["judge"]["faithful"] is False
    assert report["judge"]["advisory"] is True
    assert len(report_transport.transport.sent) == 2


def test_rewrite_shows_both_queries(grk: Grk, use: Any) -> None:
    use(RecordingTransport([openai_reply("wombat burrows"), openai_reply(GOOD)]))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("answer", "what do those diggers make?", "--rewrite") == 0
    assert grk.out.splitlines()[:2] == [
        "question: what do those diggers make?",
        "searched: wombat burrows",
    ]


def test_a_local_model_whose_package_is_missing_is_unavailable(
    surface: Surface, grk: Grk, use: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from groundkit.answer.providers import llamacpp

    use(ForbiddenTransport())
    monkeypatch.setattr(llamacpp, "default_model_path", lambda: None)
    (tmp_path / "grk.toml").write_text('[profiles.box]\nprovider = "llamacpp"\nlocal = true\n')
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    report = degraded(grk, "unavailable", "dependency.missing_extra", on=surface)
    assert report["ai"]["reason"]["hint"] == "pip install 'groundkit[llamacpp]'"


def test_a_local_model_file_that_does_not_exist_is_unavailable(
    surface: Surface, grk: Grk, use: Any, tmp_path: Path
) -> None:
    use(ForbiddenTransport())
    (tmp_path / "grk.toml").write_text(
        '[profiles.box]\nprovider = "llamacpp"\nlocal = true\nmodel = "nowhere.gguf"\n'
    )
    assert grk("ai", "enable", surface.target, "--profile", "box") == 0
    degraded(grk, "unavailable", "config.invalid_value", on=surface)


def test_a_bundle_cut_by_the_size_cap_says_so_in_json_and_text(
    grk: Grk, use: Any, tmp_path: Path
) -> None:
    use(ForbiddenTransport())
    more = tmp_path / "more"
    more.mkdir()
    for n in range(3):
        (more / f"w{n}.md").write_text(f"Wombat note {n}: the wombat digs. " * 10)
    (tmp_path / "grk.toml").write_text(REMOTE + LOCAL + "[answer]\nmax_bundle_bytes = 600\n")
    assert grk("ingest", str(more), "-q") == 0
    evidence = grk.json("answer", "wombat digs")["evidence"]
    assert evidence["truncated"] is True
    assert evidence["omitted"] >= 1
    assert grk("answer", "wombat digs") == 0
    assert f"({evidence['omitted']} more passages left out" in grk.out


def test_passages_too_big_for_the_size_cap_are_not_called_nothing_retrieved(
    grk: Grk, use: Any, tmp_path: Path
) -> None:
    forbidden = use(ForbiddenTransport()).transport
    big = tmp_path / "big"
    big.mkdir()
    (big / "long.md").write_text("The wombat digs a tunnel. " * 40)
    (tmp_path / "grk.toml").write_text(REMOTE + LOCAL + "[answer]\nmax_bundle_bytes = 600\n")
    assert grk("ingest", str(big), "-q") == 0
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    report = grk.json("answer", "wombat tunnel")
    assert report["evidence"]["items"] == []
    assert report["evidence"]["omitted"] >= 1
    assert report["ai"]["state"] == "unavailable"
    assert report["ai"]["reason"]["code"] == "config.invalid_value"
    assert grk("answer", "wombat tunnel") == 0
    assert "no passages found" not in grk.out
    assert "more passages left out" in grk.out
    assert forbidden.calls == 0


def test_a_local_model_still_needs_the_opt_in(
    surface: Surface, grk: Grk, use: Any, tmp_path: Path
) -> None:
    use(ForbiddenTransport())
    (tmp_path / "grk.toml").write_text('[profiles.box]\nprovider = "llamacpp"\nlocal = true\n')
    report = degraded(grk, "disabled", "ai.disabled", "--profile", "box", on=surface)
    assert report["ai"]["provider"] is None  # nothing was built, no model was loaded


# -- a provider that echoes its Authorization header (issue 10, fault 11)


def _echoing_reply(key: str) -> str:
    return json.dumps(
        {
            "items": [
                {
                    "text": f"Wombats dig burrows. Authorization: Bearer {key}",
                    "citations": [{"source": 1, "quote": "digs long burrows"}],
                }
            ]
        }
    )


@pytest.mark.parametrize("as_json", [False, True])
def test_a_key_echoed_by_the_provider_is_never_printed(
    surface: Surface, grk: Grk, use: Any, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    monkeypatch.setenv("TEST_GROQ_KEY", FIXTURE_KEY)
    # `grk ask` has no --rewrite: only `grk answer` is asked for a query first.
    rewrite = surface.kind == "documents"
    replies = [openai_reply(f"wombat burrows Bearer {FIXTURE_KEY}")] if rewrite else []
    transport = use(RecordingTransport([*replies, openai_reply(_echoing_reply(FIXTURE_KEY))]))
    assert grk("ai", "enable", surface.target, "--profile", "cloud") == 0
    args = surface.ask("what do those wombat diggers make?") + (["--rewrite"] if rewrite else [])
    assert grk(*args, *(["--json"] if as_json else [])) == 0
    assert len(transport.transport.sent) == 1 + rewrite  # every call was made, and answered
    assert FIXTURE_KEY not in grk.out + grk.err
    assert "FIXTUREkey" not in grk.out + grk.err
    if as_json:
        report = json.loads(grk.out)
        assert report["ai"]["state"] == "answered"
        assert report["answer"]["items"][0]["text"].startswith("Wombats dig burrows.")
        if rewrite:
            assert "<redacted>" in report["rewritten_query"]
    else:
        assert "Wombats dig burrows." in grk.out


def test_a_key_with_no_known_shape_echoed_by_a_provider_is_scrubbed_verbatim(
    surface: Surface, grk: Grk, use: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opaque = "opaqueKEYwithNoKnownShape42"
    (tmp_path / "grk.toml").write_text(
        '[profiles.odd]\nprovider = "openai_compatible"\nbase_url = "https://llm.example.org/v1"\n'
        'model = "m"\napi_key_env = "ODD_KEY"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("ODD_KEY", opaque)
    use(RecordingTransport([openai_reply(_echoing_reply(opaque))]))
    assert grk("ai", "enable", surface.target, "--profile", "odd") == 0
    report = grk.json(*surface.ask())
    assert report["ai"]["state"] == "answered"
    assert opaque not in json.dumps(report)
    assert report["answer"]["citations"][0]["cited_text"] == "digs long burrows"


# -- grk eval echo / grk eval answers


def test_eval_echo_runs_the_echo_check_with_a_profile(grk: Grk, use: Any) -> None:
    sent = use(RecordingTransport([openai_reply('{"items": []}')] * 12)).transport
    report = grk.json("eval", "echo", "--profile", "box")
    assert report["questions"] == 6
    assert report["abstained"] == 6
    assert report["code"] == {
        "questions": 6,
        "cited_positive": 0,
        "cited_decoy": 0,
        "abstained": 6,
        "refused": 0,
        "failed": 0,
        "leaked": 0,
    }
    assert len(sent.sent) == 12  # three document rounds and three code rounds, two questions each
    assert "deprecated" not in grk.err


def test_the_old_eval_answers_spelling_still_works_and_says_it_is_deprecated(
    grk: Grk, use: Any
) -> None:
    use(RecordingTransport([openai_reply('{"items": []}')] * 4))
    report = grk.json("eval", "--answers", "--profile", "box", "--rounds", "1")
    assert report["questions"] == 2
    assert "grk eval echo" in grk.err


def _cite(quote: str) -> Any:
    return openai_reply(
        json.dumps({"items": [{"citations": [{"source": 1, "quote": quote}], "text": "So."}]})
    )


def test_eval_answers_reports_outcomes_and_relevant_citations_per_system(
    grk: Grk, use: Any, tmp_path: Path
) -> None:
    golden = make_small_golden(tmp_path / "golden")
    sent = use(
        RecordingTransport(
            [_cite("The alpha pump moves 40 litres a minute."), openai_reply('{"items": []}')]
        )
    ).transport
    summary = grk.json(
        "eval", "answers", "--profile", "box", "--golden", str(golden), "--limit", "2",
        "--quotes", "constrained", "--out", str(tmp_path / "r"),
    )  # fmt: skip
    system = summary["systems"]["box/constrained"]
    assert system["counts"]["answered"] == 1
    assert system["counts"]["abstained"] == 1
    assert system["rates"]["validated"]["mean"] == 1.0
    assert system["rates"]["cites_relevant"]["mean"] == 0.5
    assert len(sent.sent) == 2
    page = Path(summary["html"]).read_text()
    assert "box/constrained" in page
    assert "<script" not in page


def test_eval_answers_gated_on_a_better_baseline_exits_4(
    grk: Grk, use: Any, tmp_path: Path
) -> None:
    golden = make_small_golden(tmp_path / "golden")
    args = ["eval", "answers", "--profile", "box", "--golden", str(golden), "--limit", "2",
            "--quotes", "constrained", "--out", str(tmp_path / "r")]  # fmt: skip
    use(
        RecordingTransport(
            [
                _cite("The alpha pump moves 40 litres a minute."),
                _cite("replace its seals every third year"),
            ]
        )
    )
    first = grk.json(*args)
    use(
        RecordingTransport(
            [
                _cite("The alpha pump moves 40 litres a minute."),
                _cite("replace its seals every third year"),
            ]
        )
    )
    assert grk.json(*args, "--compare", first["json"])["regressions"] == []
    use(RecordingTransport([openai_reply('{"items": []}')] * 2))
    assert grk(*args, "--compare", first["json"]) == 4
    assert "cites_relevant" in grk.out
    assert "REGRESSED" in grk.out


def test_eval_answers_refuses_an_unknown_quote_mode(grk: Grk, use: Any) -> None:
    use(ForbiddenTransport())
    assert grk.error("eval", "answers", "--profile", "box", "--quotes", "loose") == (2, "usage")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_line_or_paragraph_separator_in_prose_is_printed_escaped(
    grk: Grk, use: Any, separator: str
) -> None:
    prose = GOOD.replace("Wombats dig burrows.", f"Wombats dig{separator}burrows.")
    use(RecordingTransport([openai_reply(prose)] * 2))
    assert grk("ai", "enable", "default", "--profile", "box") == 0
    assert grk("answer", "what does the wombat dig?") == 0
    assert separator not in grk.out
    assert grk.out.splitlines()[0] == f"Wombats dig\\u{ord(separator):04x}burrows. [1]"
    assert grk("answer", "what does the wombat dig?", "--json") == 0
    assert separator not in grk.out  # the JSON value is the same, written as an escape
    assert json.loads(grk.out)["answer"]["items"][0]["text"] == f"Wombats dig{separator}burrows."
