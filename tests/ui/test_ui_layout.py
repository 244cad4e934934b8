"""What a page looks like, measured in a real browser: no word broken inside a line, no two
labels of the code map drawn over each other, and a document page that shows its cited span
before (and without) any script.

The pages are served by `grk serve` over a site of this module's own: a long document (its cited
passage far down), a code map of sixteen modules that all import each other (the crowd that made
click's labels run into each other), and a collection named as people name them.
"""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from test_ui_browser import point_of
from ui_site import Site

from conftest import CHROMIUM, CHROMIUM_ARGS, start_grk_serve, stop
from groundkit import open_codemap, open_collection
from groundkit.config import parse_settings

if TYPE_CHECKING:
    from conftest import Served, Tab

OpenTab = Callable[..., "Tab"]

CROWD = [
    "parser", "core", "decorators", "exceptions", "formatting", "globals", "shell_completion",
    "termui", "testing", "types", "utils", "_compat", "_termui_impl", "_textwrap",
    "_winconsole", "_utils",
]  # fmt: skip
LONG = (
    "".join(
        f"## Part {n}\n\nThe burrow of part {n} runs under the old gum tree by the creek.\n\n"
        for n in range(300)
    )
    + "## Quokkas\n\nThe quokka smiles on Rottnest Island every morning.\n"
)


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    """`grk serve` over a long document and a crowded map; and the chunk id that cites the
    quokka, at the end of the document."""
    root = tmp_path_factory.mktemp("crowded")
    docs = root / "docs"
    docs.mkdir()
    (docs / "field-guide.md").write_text(LONG, encoding="utf-8")
    repo = root / "crowd"
    package = repo / "crowd"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for i, name in enumerate(CROWD):
        others = [CROWD[(i + k) % len(CROWD)] for k in (1, 2, 5, 7)]
        imports = "".join(f"from crowd import {other}\n" for other in others)
        (package / f"{name}.py").write_text(
            imports + f"\n\ndef {name.strip('_')}_main():\n    pass\n"
        )
    index_dir = root / "index"
    settings = parse_settings({"index_dir": str(index_dir)})
    with open_collection("field-notes", index_dir=index_dir, settings=settings) as notes:
        notes.ingest([docs])
        [hit] = notes.search("quokka smiles rottnest", top_k=1)
    with open_codemap("crowd", settings=settings, create=True) as codemap:
        codemap.update(repo)
    config = root / "grk.toml"
    config.write_text("")
    site = Site(root, index_dir, docs, repo, config, root / "xdg", root / "evals")
    served = start_grk_serve(site, root / "serve.log")
    yield served, hit.citation.chunk_id
    stop(served)


# Each run of letters or digits (a word, or the part of a name between its dots and dashes) that
# the page breaks across two lines. Preformatted text, hidden text and form controls aside.
BROKEN_WORDS = """(() => {
  const clipped = (e) => {  // visually hidden the sr-only way (a table's head on a phone)
    for (; e; e = e.parentElement) if (getComputedStyle(e).clip !== "auto") return true;
    return false;
  };
  const broken = [];
  const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node; (node = walk.nextNode()); ) {
    const parent = node.parentElement;
    if (!parent || parent.closest("pre, select, textarea") || clipped(parent)) continue;
    if (!parent.checkVisibility({visibilityProperty: true})) continue;
    for (const m of node.data.matchAll(/[\\p{L}\\p{N}]{2,}/gu)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set();
      for (const r of range.getClientRects()) if (r.width > 0) lines.add(Math.round(r.top));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
})()"""


def broken_words(tab: Tab, path: str) -> list[str]:
    tab.go(path)
    if path.startswith("/ui/maps/"):
        tab.page.wait_for_selector('#graph[data-ready="true"]')
    found: list[str] = tab.page.evaluate(BROKEN_WORDS)
    return found


@pytest.mark.parametrize("width", [1280, 390])
def test_no_page_breaks_a_word_inside_a_line(
    server: Served,
    writable_server: tuple[Served, Site],
    crowded: tuple[Served, str],
    open_tab: OpenTab,
    width: int,
) -> None:
    writable, _ = writable_server
    busy, chunk_id = crowded
    found: dict[str, list[str]] = {}
    for base, paths in (
        (server.base, ["/", "/ui/c/notes/search?q=wombat", "/ui/maps/shop", "/ui/evals"]),
        (writable.base, ["/"]),  # with the secret: a Delete form in each row, the table widens
        (busy.base, ["/", f"/ui/c/field-notes/doc/{chunk_id}", "/ui/maps/crowd?level=module"]),
    ):
        tab = open_tab(base, width=width)
        for path in paths:
            found[base + path] = broken_words(tab, path)

    assert {page: words for page, words in found.items() if words} == {}


# Every label the drawing shows (its rendered font not below the size at which Cytoscape hides
# labels), as a box on the screen; the pairs of boxes that overlap; and how many modules there
# are and how many show their labels.
OVERLAPS = """(() => {
  const cy = window.groundkitMap;
  const shown = cy.nodes().filter((n) => n.visible() && n.pstyle("label").strValue
    && n.pstyle("font-size").pfValue * cy.zoom() >= n.pstyle("min-zoomed-font-size").pfValue);
  const boxes = shown.map((n) => [n.id(),
    n.renderedBoundingBox({includeNodes: false, includeEdges: false, includeLabels: true})]);
  const pairs = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (p.x1 < q.x2 && q.x1 < p.x2 && p.y1 < q.y2 && q.y1 < p.y2) pairs.push([a, b]);
    }
  }
  const modules = cy.nodes('[kind = "module"], [kind = "package"]');
  return {modules: modules.length, shown: modules.filter((n) => shown.contains(n)).length,
          overlaps: pairs};
})()"""


SHOWN_LABELS = """groundkitMap.nodes('[kind = "module"], [kind = "package"]')
  .filter((n) => n.pstyle("font-size").pfValue * groundkitMap.zoom()
  >= n.pstyle("min-zoomed-font-size").pfValue).map((n) => n.pstyle("label").strValue)"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_labels_of_a_crowded_map_never_overlap_at_the_default_zoom(
    crowded: tuple[Served, str], open_tab: OpenTab, width: int
) -> None:
    busy, _ = crowded
    tab = open_tab(busy.base, width=width)
    tab.go("/ui/maps/crowd?level=module")
    tab.page.wait_for_selector('#graph[data-ready="true"]')
    drawn = tab.page.evaluate(OVERLAPS)
    tab.shot("map-crowd")

    assert drawn["modules"] == len(CROWD) + 1  # the package too
    assert drawn["overlaps"] == []
    if width == 1280:
        assert drawn["shown"] == drawn["modules"], "on a wide screen every label is readable"
    elif drawn["shown"] == 0:  # on a phone they would be too small to read: it says so
        assert "hover a module or zoom in" in tab.page.inner_text("#graph-status")

    for _ in range(4):  # zoomed out until the labels are too small to read: none is drawn...
        tab.page.click("button[data-zoom=out]")
    hidden = tab.page.evaluate(SHOWN_LABELS)
    parser = "groundkitMap.nodes().filter((n) => n.data('name') === 'crowd.parser')[0]"
    x, y = point_of(tab.page, parser + ".renderedPosition()")
    tab.page.mouse.move(x, y)  # ...but the one hovered, by its whole name
    assert (hidden, tab.page.evaluate(SHOWN_LABELS)) == ([], ["crowd.parser"])


def test_the_document_page_shows_its_cited_span_without_any_script(
    crowded: tuple[Served, str], browser: Any
) -> None:
    busy, chunk_id = crowded
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto(f"{busy.base}/ui/c/field-notes/doc/{chunk_id}")
        where = page.evaluate(
            "(() => { const r = document.getElementById('hl').getBoundingClientRect();"
            " return {top: r.top, bottom: r.bottom, height: innerHeight, scrolled: scrollY}; })()"
        )
    finally:
        context.close()

    assert where["scrolled"] == 0  # the page itself stays at its top: title, badge, facts
    assert where["top"] > 0  # the cited span in view
    assert where["bottom"] < where["height"]


def test_a_plain_headless_screenshot_of_a_long_document_page_is_not_blank(
    crowded: tuple[Served, str], browser: Any, tmp_path: Path
) -> None:
    busy, chunk_id = crowded
    shot = tmp_path / "document.png"
    url = f"{busy.base}/ui/c/field-notes/doc/{chunk_id}"
    assert httpx.get(url, timeout=30).status_code == 200
    subprocess.run(
        [str(CHROMIUM), *CHROMIUM_ARGS, "--window-size=1280,900", f"--screenshot={shot}", url],
        check=True,
        capture_output=True,
        timeout=120,
    )
    # Count the colours of the picture in a page of its own (no PIL here): a blank one has one.
    context = browser.new_context()
    try:
        page = context.new_page()
        data = base64.b64encode(shot.read_bytes()).decode()
        page.set_content(f'<img id="shot" src="data:image/png;base64,{data}">')
        page.wait_for_function("document.getElementById('shot').complete")
        colours = page.evaluate(
            "(() => { const img = document.getElementById('shot');"
            " const c = document.createElement('canvas'); c.width = img.naturalWidth;"
            " c.height = img.naturalHeight; const g = c.getContext('2d'); g.drawImage(img, 0, 0);"
            " const d = g.getImageData(0, 0, c.width, c.height).data; const seen = new Set();"
            " for (let i = 0; i < d.length; i += 4)"
            " seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);"
            " return seen.size; })()"
        )
    finally:
        context.close()

    assert colours > 50, "the screenshot is blank"
