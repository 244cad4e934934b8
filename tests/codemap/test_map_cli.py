"""`grk map`, `map show`, `trace`, `blast`, `diff`, `edge` as a user runs them: every exit
status, the JSON envelope, byte-identical repeats, and git revisions read without touching the
work tree."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from grk_runner import Grk

FILES = {
    "shop/__init__.py": "",
    "shop/api.py": "from shop.db import save\ndef order():\n    save()\n",
    "shop/db.py": "def save():\n    pass\n",
    "shop/more.py": "def save():\n    pass\n",
}


@pytest.fixture
def grk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Grk:
    return Grk(tmp_path / "index", capsys)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop-repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_map_prints_a_summary_and_names_the_map_after_the_folder(grk: Grk, shop: Path) -> None:
    assert grk("map", str(shop), "--quiet") == 0
    assert "mapped 'shop-repo': 4 files" in grk.out
    assert "files/s" in grk.out
    assert "unresolved calls: 0" in grk.out
    data = grk.json("map", str(shop), "--name", "other")
    assert data["schema"] == "groundkit.codemap/1"
    assert data["map"] == "other"
    assert data["edges"]["calls"] == 1
    assert grk("map", "list") == 0
    assert [line.split()[0] for line in grk.out.splitlines()] == ["other", "shop-repo"]


def test_skipped_files_make_map_exit_3_with_their_reasons(grk: Grk, shop: Path) -> None:
    (shop / "broken.py").write_text("def (:\n")
    assert grk("map", str(shop), "--quiet") == 3
    assert "broken.py: syntax error at line 1" in grk.out


def test_a_folder_with_no_code_is_said_to_have_nothing_to_map_exits_3_and_makes_no_map(
    grk: Grk, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.md").write_text("# Notes\n")
    assert grk("map", str(docs)) == 3
    assert "nothing to map in" in grk.err
    assert "no map was made" in grk.err
    assert not (tmp_path / "index" / "_maps" / "docs").exists()
    assert grk.json("map", "list")["maps"] == []
    assert grk("map", str(docs), "--json") == 3
    assert json.loads(grk.out)["nothing_to_map"] is True


def test_a_map_is_named_after_its_project_and_found_again_from_its_folder(
    grk: Grk, shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (shop / "pyproject.toml").write_text('[project]\nname = "shop-service"\n')
    assert grk("map", str(shop), "--quiet") == 0
    assert "mapped 'shop-service'" in grk.out
    monkeypatch.chdir(shop)
    grk("map", str(shop.parent), "--quiet", "--name", "other")  # two maps: the folder decides
    assert grk("map", "show") == 0
    assert "map 'shop-service'" in grk.out


def test_trace_and_blast_answer_in_text_and_json(grk: Grk, shop: Path) -> None:
    grk("map", str(shop), "--quiet")
    assert grk("trace", "shop.api.order", "--map", "shop-repo") == 0
    assert "calls shop.db.save" in grk.out
    assert "[chain_end]" in grk.out
    data = grk.json("trace", "shop/api.py:order", "--map", "shop-repo", "--evidence")
    assert data["kind"] == "trace"
    assert data["steps"][0]["edge"]["verification"] == "verified"
    assert data["steps"][0]["stop"] == "chain_end"
    data = grk.json("blast", "shop.db.save", "--map", "shop-repo")
    assert [d["node"]["name"] for d in data["dependents"]] == ["shop.api.order"]
    edge_id = data["dependents"][0]["via"]["id"]
    assert grk("edge", edge_id, "--map", "shop-repo") == 0
    assert "shop.api.order calls shop.db.save at shop/api.py:3: save()" in grk.out
    assert "verification: verified" in grk.out


def test_trace_text_says_partial_for_a_target_chosen_at_run_time(grk: Grk, tmp_path: Path) -> None:
    root = tmp_path / "pick"
    root.mkdir()
    (root / "pick.py").write_text(
        "import os\ndef a(): pass\ndef b(): pass\n"
        "def run():\n    f = a if os.environ.get('X') else b\n    f()\n    a()\n"
    )
    grk("map", str(root), "--quiet")
    assert grk("trace", "pick.run", "--map", "pick") == 0
    lines = {line.split()[1]: line for line in grk.out.splitlines()[1:]}
    assert " partial, pick.py:6)" in lines["pick.b"]
    assert "partial" not in lines["pick.a"]  # also called directly: certain


def test_each_failure_has_its_own_exit_status_and_code(grk: Grk, shop: Path) -> None:
    grk("map", str(shop), "--quiet")
    assert grk.error("trace", "shop.api.ordr", "--map", "shop-repo") == (
        5,
        "codemap.symbol_not_found",
    )
    assert "shop.api.order" in json.loads(grk.out)["error"]["suggestions"]
    assert grk.error("trace", "save", "--map", "shop-repo") == (6, "codemap.symbol_ambiguous")
    assert len(json.loads(grk.out)["error"]["candidates"]) == 2
    assert grk.error("trace", "order", "--map", "nope") == (2, "codemap.not_found")
    assert grk.error("trace", "order", "--map", "shop-repo", "--kinds", "bogus") == (2, "usage")
    assert grk.error("blast", "order", "--map", "shop-repo", "--depth", "0") == (2, "usage")
    assert grk.error("edge", "abc", "--map", "shop-repo") == (2, "codemap.edge_not_found")
    assert grk.error("map", str(shop / "shop" / "api.py")) == (2, "usage")
    assert grk.error("map", str(shop), "--name", "../x") == (2, "usage.invalid_name")


def test_symbol_bytes_that_are_not_utf8_are_not_found_rather_than_a_crash(
    grk: Grk, shop: Path
) -> None:
    # Python hands a command line's non-UTF-8 bytes over as lone surrogates ($'order\xff').
    grk("map", str(shop), "--quiet")
    for command in ("trace", "blast"):
        assert grk.error(command, "order\udcff", "--map", "shop-repo") == (
            5,
            "codemap.symbol_not_found",
        )
    assert grk.error("ask", "order\udcff", "why?", "--map", "shop-repo") == (
        5,
        "codemap.symbol_not_found",
    )
    assert grk.error("edge", "a\udcff", "--map", "shop-repo")[0] == 2
    assert grk.error("trace", "order", "--map", "shop\udcff")[0] == 2


def test_text_errors_go_to_stderr_with_a_hint(grk: Grk, shop: Path) -> None:
    grk("map", str(shop), "--quiet")
    assert grk("blast", "save", "--map", "shop-repo") == 6
    assert "2 symbols match 'save'" in grk.err
    assert "shop.db.save (function, shop/db.py; id " in grk.err


def test_map_show_repeats_byte_for_byte_and_draws_mermaid_and_dot(grk: Grk, shop: Path) -> None:
    grk("map", str(shop), "--quiet")
    assert grk("map", "show", "shop-repo", "--json") == 0
    first = grk.out
    assert grk("map", "show", "shop-repo", "--json") == 0
    assert grk.out == first
    assert json.loads(first)["schema"] == "groundkit.codemap/1"
    assert grk("map", "show", "shop-repo") == 0
    assert "areas (" in grk.out
    assert grk("map", "show", "shop-repo", "--format", "mermaid", "--level", "module") == 0
    assert grk.out.startswith("graph LR")
    assert '["shop.api"]' in grk.out
    assert " --> " in grk.out
    assert grk("map", "show", "shop-repo", "--format", "dot") == 0
    assert grk.out.startswith("digraph codemap {")


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True,
        check=True,
        text=True,
    )
    return done.stdout.strip()


def test_diff_of_two_revisions_reads_git_objects_and_leaves_the_work_tree_alone(
    grk: Grk, shop: Path
) -> None:
    _git(shop, "init", "-q")
    _git(shop, "add", ".")
    _git(shop, "commit", "-qm", "one")
    (shop / "shop" / "api.py").write_text("from shop.more import save\ndef order():\n    save()\n")
    _git(shop, "commit", "-qam", "two")
    (shop / "shop" / "db.py").write_text("uncommitted = True\n")  # must not be read or touched
    status = _git(shop, "status", "--porcelain")
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(shop))
    assert data["kind"] == "diff"
    added = {(e["source_name"], e["target_name"]) for e in data["edges"]["added"]}
    removed = {(e["source_name"], e["target_name"]) for e in data["edges"]["removed"]}
    assert ("shop.api.order", "shop.more.save") in added
    assert ("shop.api.order", "shop.db.save") in removed
    assert _git(shop, "status", "--porcelain") == status
    assert (shop / "shop" / "db.py").read_text() == "uncommitted = True\n"
    assert grk.json("diff", "HEAD", "HEAD", "--repo", str(shop))["edges"] == {
        "added": [],
        "removed": [],
        "changed": [],
        "moved": 0,
        "carried": [],
    }
    assert grk.error("diff", "HEAD", "nonsense", "--repo", str(shop)) == (
        2,
        "codemap.bad_revision",
    )


def test_diff_counts_edges_that_only_moved_and_lists_them_only_with_moves(
    grk: Grk, shop: Path
) -> None:
    _git(shop, "init", "-q")
    _git(shop, "add", ".")
    _git(shop, "commit", "-qm", "one")
    api = shop / "shop" / "api.py"
    api.write_text('"""Orders."""\n\n' + api.read_text())  # every edge moves two lines down
    _git(shop, "commit", "-qam", "two")
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(shop)) == 0
    assert grk.out.strip() == "no architecture change; 3 edge(s) only moved (--moves lists them)"
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(shop), "--moves") == 0
    assert "edges moved: 3" in grk.out
    assert "calls shop.api.order -> shop.db.save  (shop/api.py:5)" in grk.out
    assert "(was shop/api.py:3)" in grk.out
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(shop))
    assert data["edges"]["moved"] == 3
    assert "moves" not in data["edges"]
    moves = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(shop), "--moves")["edges"]["moves"]
    assert sorted(m["before"]["line"] for m in moves) == [1, 2, 3]
    assert sorted(m["after"]["line"] for m in moves) == [3, 4, 5]


def test_diff_shows_edges_by_module_then_new_import_cycles_then_routes(
    grk: Grk, shop: Path
) -> None:
    _git(shop, "init", "-q")
    _git(shop, "add", ".")
    _git(shop, "commit", "-qm", "one")
    (shop / "shop" / "db.py").write_text("import shop.api\ndef save():\n    pass\n")
    (shop / "shop" / "web.py").write_text(
        "from fastapi import FastAPI\napp = FastAPI()\n@app.get('/orders')\ndef orders():\n"
        "    pass\n"
    )
    _git(shop, "add", ".")
    _git(shop, "commit", "-qm", "two")
    assert grk("diff", "HEAD~1", "HEAD", "--repo", str(shop)) == 0
    out = grk.out
    assert out.splitlines()[0].startswith("edges: +")
    assert "\nshop.db: +1 -0\n  + imports shop.db -> shop.api  (shop/db.py:1)" in out
    assert "new import cycles: 1\n  shop.api -> shop.db -> shop.api" in out
    assert "routes added: 1\n  + GET /orders" in out
    assert out.index("shop.db: +1") < out.index("new import cycles") < out.index("routes added")
    data = grk.json("diff", "HEAD~1", "HEAD", "--repo", str(shop))
    assert data["by_module"]["shop.db"] == {"added": 1, "removed": 0}
    assert data["new_import_cycles"] == [["shop.api", "shop.db"]]
    assert data["routes"] == {"added": ["GET /orders"], "removed": []}


def test_text_answers_show_short_edge_ids_that_grk_edge_takes(grk: Grk, shop: Path) -> None:
    grk("map", str(shop), "--quiet")
    full = grk.json("blast", "shop.db.save", "--map", "shop-repo")["dependents"][0]["via"]["id"]
    source, kind, target = full.split(".")
    short = f"{source[:6]}.{kind}.{target[:6]}"
    assert grk("trace", "shop.api.order", "--map", "shop-repo") == 0
    assert short in grk.out
    assert grk("blast", "shop.db.save", "--map", "shop-repo") == 0
    assert f"via {short}: " in grk.out
    assert grk("edge", short.upper().replace("CALLS", "calls"), "--map", "shop-repo") == 0
    assert "shop.api.order calls shop.db.save at shop/api.py:3: save()" in grk.out
    unknown = f"{'0' if source[0] != '0' else '1'}{source[1:6]}.{kind}.{target[:6]}"
    assert grk.error("edge", unknown, "--map", "shop-repo") == (2, "codemap.edge_not_found")


def test_diff_of_two_saved_map_files(grk: Grk, shop: Path, tmp_path: Path) -> None:
    grk("map", str(shop), "--quiet", "--name", "a")
    (shop / "shop" / "extra.py").write_text("def new(): pass\n")
    grk("map", str(shop), "--quiet", "--name", "b")
    maps = tmp_path / "index" / "_maps"
    assert grk("diff", str(maps / "a" / "map.sqlite"), str(maps / "b" / "map.sqlite")) == 0
    assert "+ shop.extra.new (function)" in grk.out
    assert grk("diff", str(maps / "a" / "map.sqlite"), str(maps / "a" / "map.sqlite")) == 0
    assert grk.out.strip() == "no architecture change"


@pytest.mark.parametrize("revision", ["HEAD~1..HEAD", "HEAD~1...HEAD", "HEAD^@", "^HEAD"])
def test_diff_refuses_a_range_where_one_revision_is_expected_with_a_usage_error(
    grk: Grk, shop: Path, revision: str
) -> None:
    _git(shop, "init", "-q")
    _git(shop, "add", ".")
    _git(shop, "commit", "-qm", "one")
    (shop / "shop" / "db.py").write_text("def save():\n    return 1\n")
    _git(shop, "commit", "-qam", "two")
    assert grk.error("diff", revision, "HEAD", "--repo", str(shop)) == (2, "usage")
    assert grk.error("diff", "HEAD", revision, "--repo", str(shop)) == (2, "usage")


def test_an_edge_whose_file_became_a_fifo_is_unreadable_not_hung(grk: Grk, shop: Path) -> None:
    grk("map", str(shop), "--quiet")
    (shop / "shop" / "api.py").unlink()
    os.mkfifo(shop / "shop" / "api.py")  # before: the evidence check blocked in open()
    data = grk.json("trace", "shop.api.order", "--map", "shop-repo", "--evidence")
    assert data["steps"][0]["edge"]["verification"] == "unreadable"


def test_a_control_character_in_a_file_name_is_shown_escaped_in_map_trace_and_edge(
    grk: Grk, tmp_path: Path
) -> None:
    # Before: the terminal acted on ESC [2J, and `mod.py` (a file that does not exist) showed.
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "mod\x1b[2J.py").write_text(
        "def a():\n    return b()\n\n\ndef b():\n    return 1\n"
    )
    grk("map", str(repo), "--quiet")
    assert grk("map", "show") == 0
    assert "pkg.mod\\x1b[2J" in grk.out
    assert grk("trace", "pkg.mod\x1b[2J.a", "--map", "repo") == 0
    assert "pkg/mod\\x1b[2J.py:2" in grk.out
    edge_id = grk.json("trace", "pkg.mod\x1b[2J.a", "--map", "repo")["steps"][0]["edge"]["id"]
    assert grk("edge", edge_id, "--map", "repo") == 0
    for shown in (grk.out,):
        assert "\x1b" not in shown
        assert "at pkg/mod\\x1b[2J.py:2" in shown
