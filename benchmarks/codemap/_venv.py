"""Run a reference script inside its own throw-away venv under /tmp.

The reference tools (grimp, the web frameworks, httpx's test dependencies) are never
installed into groundkit's own environment: each collect script calls `ensure_venv` first,
which creates the venv once, installs the pinned requirements with pip, and re-executes the
script with that venv's interpreter. Downloads go to /tmp as well; nothing third-party is
written inside the repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

WORK = Path(os.environ.get("CODEMAP_BENCH_TMP", "/tmp/codemap-bench"))


def ensure_venv(name: str, requirements: list[str], python: str = "python3.11") -> None:
    """Re-exec the calling script inside WORK/<name>-venv, creating it when missing."""
    venv = WORK / f"{name}-venv"
    marker = venv / ".requirements"
    wanted = "\n".join(requirements)
    if Path(sys.prefix).resolve() == venv.resolve():
        return
    if not marker.exists() or marker.read_text() != wanted:
        WORK.mkdir(parents=True, exist_ok=True)
        subprocess.run([python, "-m", "venv", "--clear", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
        subprocess.run([*pip, *requirements], check=True)
        marker.write_text(wanted)
    exe = str(venv / "bin" / "python")
    os.execv(exe, [exe, *sys.argv])


def fetch_sdist(name: str, version: str) -> Path:
    """Download NAME==VERSION's sdist with pip and unpack it under WORK/src; return its root."""
    dest = WORK / "src"
    root = dest / f"{name.replace('-', '_')}-{version}"
    alt = dest / f"{name}-{version}"
    for candidate in (root, alt):
        if candidate.is_dir():
            return candidate
    sdists = WORK / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(sdists),
            f"{name}=={version}",
        ],
        check=True,
    )
    archive = next(
        p
        for p in sdists.iterdir()
        if p.name.lower()
        .replace("_", "-")
        .startswith(f"{name}-{version}".lower().replace("_", "-"))
        and p.name.endswith(".tar.gz")
    )
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    for candidate in (root, alt):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"unpacked {archive.name} but found neither {root} nor {alt}")
