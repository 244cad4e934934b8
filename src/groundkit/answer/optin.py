"""Which collections and code maps allow AI, and with which profile: a small file in the user's
config dir.

Off by default. The file holds folder paths (a collection's, or a code map's
``<index_dir>/_maps/<name>``) and profile names only, never a key or any document text or code.
A missing file means everything is off; a corrupt one means everything is off and a warning says
so. Local providers need the opt-in too.

Without platformdirs (the ``ai`` extra), ``fallback_path`` works out where platformdirs would
have put the file, only to tell "AI is off" (reported as ``disabled``) from "AI is on but the
extra has gone" (``dependency.missing_extra``). A wrong guess can only turn the second into the
first: either way no model is asked.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from groundkit.errors import missing_extra

__all__ = ["AISettings", "OptIn", "default_path", "fallback_path"]

_log = logging.getLogger(__name__)
_VERSION = 1


def default_path() -> Path:
    try:
        import platformdirs
    except ImportError:
        raise missing_extra("platformdirs", "ai") from None
    return Path(platformdirs.user_config_dir("groundkit")) / "ai.json"


def fallback_path() -> Path:
    """Where ``default_path`` would be, worked out without platformdirs (its defaults for
    ``user_config_dir("groundkit")`` on Windows, macOS and the XDG platforms)."""
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "groundkit" / "groundkit" / "ai.json"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "groundkit" / "ai.json"
    config = os.environ.get("XDG_CONFIG_HOME", "").strip() or str(Path.home() / ".config")
    return Path(config) / "groundkit" / "ai.json"


@dataclass(frozen=True, slots=True)
class OptIn:
    collection: str  # the collection's (or code map's) folder, as an absolute path
    profile: str


class AISettings:
    """The opt-in file. ``warning`` is set when it was unreadable (and so read as all off)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self.warning: str | None = None

    def load(self) -> dict[str, str]:
        """Folder path (a collection's or a code map's) -> profile name."""
        self.warning = None
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            return self._corrupt(f"cannot be read ({exc.strerror})")
        try:
            data = json.loads(raw)
        except ValueError:
            return self._corrupt("is not valid JSON")
        entries = data.get("collections") if isinstance(data, dict) else None
        if (
            not isinstance(data, dict)
            or data.get("version") != _VERSION
            or not isinstance(entries, dict)
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in entries.items())
        ):
            return self._corrupt("does not have the expected shape")
        return dict(entries)

    def _corrupt(self, why: str) -> dict[str, str]:
        self.warning = f"the AI settings file {why}: AI is off for every collection and code map"
        _log.warning("%s", self.warning)
        return {}

    def get(self, collection: Path) -> OptIn | None:
        key = str(collection.resolve())
        profile = self.load().get(key)
        return OptIn(key, profile) if profile else None

    def enable(self, collection: Path, profile: str) -> None:
        entries = self.load()
        entries[str(collection.resolve())] = profile
        self._save(entries)

    def disable(self, collection: Path) -> bool:
        entries = self.load()
        removed = entries.pop(str(collection.resolve()), None) is not None
        self._save(entries)
        return removed

    def _save(self, entries: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(
            {"version": _VERSION, "collections": dict(sorted(entries.items()))}, indent=2
        )
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".ai.", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(data + "\n")
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)  # atomic: a crash leaves the old file or the new one
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
