"""The commands the README and the docs show are commands that work.

Every line of every fenced ``sh`` block in README.md and docs/ is either run, in order, in a
workspace laid out as the docs assume (a git repository holding ``docs/samples`` and part of
groundkit's own source, ingested and mapped), and must exit 0; or it is listed in ``SKIPPED``
with why it cannot run here. A new example that is neither fails this test, so words and
behaviour cannot drift apart unseen. Placeholders are filled in: a chunk id from a real search,
``"..."`` with a query, ``~`` with the workspace's home.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from grk_runner import Grk
from groundkit.errors import ExitStatus
from groundkit.testing.chat import ForbiddenKeyring

ROOT = Path(__file__).parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(?:sh|bash|shell)(?:[ \t][^\n]*)?\n(.*?)^```", re.MULTILINE | re.DOTALL)

# What is not run, and why. Matched against the start of the command as written.
SKIPPED: list[tuple[str, str]] = [
    (r"python3\.11 -m venv", "makes a virtualenv (the test runs inside one)"),
    (r"(\.venv/bin/)?pip install", "installs packages from a registry"),
    (r"\.venv/bin/pytest", "the test suite itself"),
    (r"(\.venv/bin/)?python3? (benchmarks|-c)", "a benchmark: minutes, over shared data"),
    (r"eval |_GRK_COMPLETE=", "shell start-up lines: tests/cli/test_completion.py runs them"),
    (r"grk eval", "tests/cli/test_eval.py runs the golden gate; the others take minutes"),
    (r"grk .*--profile groq", "needs Groq, over the network, and its key"),
    (r"grk ai enable \S+ --profile offline", "turns on the offline model (a minute an answer)"),
    (r"grk auth set", "stores a key in the operating system's keychain"),
    (r"grk ask SYMBOL|\[--profile", "a synopsis, not a command"),
    (r"grk (--index-dir \S+ )?serve", "a server that runs until stopped: tests/serve start it"),
    (r"curl ", "asks a running `grk serve` (tests/serve cover every route)"),
    (r"claude mcp add", "registers the server with Claude Code"),
    (
        r"grk (migrate \S+ --to qdrant|-c notes )",
        "needs the Qdrant cluster grk.toml names: tests/backends run these on local mode",
    ),
]


@dataclass(frozen=True)
class Example:
    doc: str
    words: tuple[str, ...]  # as the shell splits them, the comment left out

    @property
    def line(self) -> str:
        return " ".join(self.words)


def examples(doc: Path) -> list[Example]:
    """Each command of each fenced shell block, ``&&`` chains split, in document order."""
    found = []
    for block in FENCE.findall(doc.read_text(encoding="utf-8")):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            while words:
                part = words.index("&&") if "&&" in words else len(words)
                found.append(Example(doc.relative_to(ROOT).as_posix(), tuple(words[:part])))
                words = words[part + 1 :]
    return found


def why_skipped(example: Example) -> str | None:
    for pattern, reason in SKIPPED:
        if re.match(pattern, example.line):
            return reason
    return None


def grk_args(example: Example) -> list[str] | None:
    words = example.words
    if words[0] == "grk" or words[0].endswith("/bin/grk"):
        return list(words[1:])
    return None


def git(workspace: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=workspace, check=True, capture_output=True)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small repository as the docs assume one: ``docs/samples``, part of groundkit's own
    source (so ``grk trace groundkit.pipeline.run.run_ingest`` has something to trace), a few
    commits, and a home folder with notes."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs" / "samples", root / "docs" / "samples")
    package = root / "src" / "groundkit"
    for part in ("pipeline", "index"):
        shutil.copytree(ROOT / "src" / "groundkit" / part, package / part)
    for name in ("__init__.py", "types.py"):
        shutil.copy(ROOT / "src" / "groundkit" / name, package / name)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    (home / "notes" / "keys.md").write_text("# Keys\n\nRotate the API keys every month.\n")
    git(root, "init", "-q")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    for n in range(6):  # grk diff HEAD~5 HEAD
        with (root / "src" / "groundkit" / "pipeline" / "names.py").open("a") as changed:
            changed.write(f"# {n}\n")
        git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", f"c{n}")
    monkeypatch.chdir(root)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr("keyring.core._keyring_backend", ForbiddenKeyring())
    return root


@pytest.fixture
def grk(workspace: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    runner = Grk(workspace / ".groundkit", capsys)
    assert runner("ingest", "docs", "--quiet") == 0, runner.err  # for the docs' first searches
    assert runner("map", ".", "--quiet") == 0, runner.err
    return runner


def filled(args: list[str], grk: Grk) -> list[str]:
    """The placeholders of an example, filled in."""
    out = []
    for word in args:
        if re.fullmatch(r"c1f0e2d3a4b5c6d7e|CHUNK_ID", word):
            out.append(grk.json("search", "citations", "-k", "1")["hits"][0]["chunk_id"])
        elif word == "...":
            out.append("how are citations verified")
        elif word.startswith("~/"):
            out.append(str(Path.home() / word[2:]))
        else:
            out.append(word)
    return out


def run(grk: Grk, args: list[str]) -> int:
    """`grk ARGS` as typed, in the workspace (whose index dir is the default, ./.groundkit)."""
    from groundkit.cli.main import main

    grk.capsys.readouterr()
    status = main(args)
    grk.out, grk.err = grk.capsys.readouterr()
    return status


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_shell_example_in_the_docs_runs_or_says_why_not(doc: Path, grk: Grk) -> None:
    unclassified = []
    for example in examples(doc):
        if why_skipped(example) is not None:
            continue
        args = grk_args(example)
        if args is None:
            unclassified.append(example.line)
            continue
        status = run(grk, filled(args, grk))
        assert status == 0, f"{example.doc}: `{example.line}` exited {status}: {grk.err}{grk.out}"
    assert unclassified == [], f"run these, or list them in SKIPPED with why: {unclassified}"


def test_the_getting_started_sample_describes_a_hit_as_grk_search_prints_it(grk: Grk) -> None:
    guide = (ROOT / "docs" / "samples" / "getting-started.md").read_text(encoding="utf-8")
    described = guide.split("## Search", 1)[1].split("## Show", 1)[0]
    assert run(grk, ["search", "how are citations verified"]) == 0
    printed = grk.out

    cited = re.findall(r"`([\w.-]+\.md:\d+-\d+)`", described)  # the forms it shows
    assert cited
    assert all(form in printed for form in cited), (cited, printed)
    assert "BM25 score" not in described
    assert "score" not in printed  # in --json only


def test_the_readme_lists_every_exit_status_grk_has() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = readme.split("Exit statuses:", 1)[1].split("\n\n", 1)[0]

    assert [s for s in ExitStatus if f"`{s.value}`" not in listed] == []


def test_every_skipped_kind_of_example_still_occurs_in_the_docs() -> None:
    every = [e for doc in DOCS for e in examples(doc)]
    unused = [p for p, _ in SKIPPED if not any(re.match(p, e.line) for e in every)]
    assert unused == [], "these SKIPPED entries match no example any more: remove them"
