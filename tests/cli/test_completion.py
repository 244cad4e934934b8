"""Shell completion, as the README tells people to turn it on: `_GRK_COMPLETE=SHELL_source grk`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent  # the environment's scripts, `grk` among them


def grk_with(variable: str, **more: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "_GRK_COMPLETE": variable, **more}
    return subprocess.run(
        [str(BIN / "grk")], env=env, capture_output=True, text=True, check=False, timeout=60
    )


@pytest.mark.parametrize(
    ("shell", "registers"),
    [
        ("bash", "complete -o nosort -F _grk_completion grk"),
        ("zsh", "#compdef grk"),
        ("fish", "complete --no-files --command grk"),
    ],
)
def test_grk_prints_a_completion_script_for_each_shell(shell: str, registers: str) -> None:
    done = grk_with(f"{shell}_source")

    assert done.returncode == 0, done.stderr
    assert registers in done.stdout
    assert "error" not in done.stderr


def test_completion_offers_commands_and_their_options() -> None:
    commands = grk_with("bash_complete", COMP_WORDS="grk in", COMP_CWORD="1")
    options = grk_with("bash_complete", COMP_WORDS="grk ingest --wa", COMP_CWORD="2")

    assert commands.stdout.split() == ["plain,ingest"]
    assert options.stdout.split() == ["plain,--watch"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_bash_script_completes_in_a_real_bash() -> None:
    script = (
        'eval "$(_GRK_COMPLETE=bash_source grk)"\n'
        # bash calls a completion function with the command, the word and the word before it.
        "COMP_WORDS=(grk del); COMP_CWORD=1; _grk_completion grk del grk\n"
        'echo "${COMPREPLY[@]}"\n'
    )
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", script],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["delete"]
