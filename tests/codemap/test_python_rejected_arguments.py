"""A callee whose body opens with a check raising on a number (``if window_size < 1: raise``)
runs nothing else for a call passing a number that fails it, so the callback only such calls
pass is not called there for certain (more-itertools' ``replace`` and its test of the error)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from map_helpers import Repo
from test_incremental import fresh, snapshot

REPLACE = textwrap.dedent(
    """
    def replace(iterable, pred, window_size=1):
        "Replace the items pred picks."
        if window_size < 1:
            raise ValueError("window_size must be at least 1")
        for item in iterable:
            if pred(item):
                yield None
            else:
                yield item

    def kept(x): return x
    def dropped(x): return x
    """
).lstrip("\n")


def test_a_callback_only_a_call_the_callee_rejects_at_once_passes_is_partial_where_called(
    repo: Repo,
) -> None:
    calls = "list(replace([1], kept))\nlist(replace([1], dropped, window_size=0))\n"
    repo.write({"m.py": REPLACE + calls}).build()
    certain = repo.certain("calls")
    assert ("m.replace", "m.kept") in certain
    assert ("m.replace", "m.dropped") in repo.pairs("calls") - certain


def test_a_number_passed_by_position_is_checked_too(repo: Repo) -> None:
    repo.write({"m.py": REPLACE + "list(replace([1], dropped, -1))\n"}).build()
    assert ("m.replace", "m.dropped") not in repo.certain("calls")


def test_a_callback_a_call_passing_an_accepted_or_unknown_number_gives_stays_certain(
    repo: Repo,
) -> None:
    calls = (
        "list(replace([1], kept, window_size=2))\n"
        "def run(n):\n    list(replace([1], dropped, window_size=n))\n"
        "run(0)\n"
        "list(replace([1], dropped, window_size=0))\n"
    )
    repo.write({"m.py": REPLACE + calls}).build()
    certain = repo.certain("calls")
    assert ("m.replace", "m.kept") in certain
    assert ("m.replace", "m.dropped") in certain


def test_an_edit_changing_the_number_a_call_passes_redraws_the_callee_and_equals_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    calls = "list(replace([1], kept))\n"
    repo.write({"m.py": REPLACE, "t.py": "from m import *\n" + calls}).build()
    rejected = "from m import *\nlist(replace([1], dropped, window_size=0))\n" + calls
    repo.write({"t.py": rejected}).build()
    assert ("m.replace", "m.dropped") not in repo.certain("calls")
    repo.write({"t.py": rejected.replace("window_size=0", "window_size=3")}).build()
    assert ("m.replace", "m.dropped") in repo.certain("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
