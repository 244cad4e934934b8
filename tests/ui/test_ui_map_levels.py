"""The module view of a large code map in a real browser: it aggregates (areas from afar, then
packages, then modules as one zooms in), no label drawn overlaps another, lies under an edge or
is under 9 px on the screen (Cytoscape leaves out a label too small to read), and the drawing is
the same on every load. The map (a few hundred modules in areas of packages) is written straight
into a map file, as benchmarks/codemap_ui_speed.py does with 900."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from ui_site import make_site

from conftest import stop
from groundkit.codemap.api import open_codemap
from groundkit.config import Settings

if TYPE_CHECKING:
    from conftest import Served, Tab

OpenTab = Callable[..., "Tab"]
sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
from codemap_ui_speed import build_map  # noqa: E402  (the benchmark's map, smaller)

MODULES = 240


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    from conftest import start_grk_serve

    root = tmp_path_factory.mktemp("big")
    site = make_site(root / "site", "http://127.0.0.1:9")
    build_map(site.index_dir, MODULES)
    with open_codemap("big", settings=Settings(index_dir=str(site.index_dir))) as codemap:
        assert len([n for n in codemap.nodes() if n.kind == "module"]) == MODULES
    served = start_grk_serve(site, root / "serve.log")
    yield served
    stop(served)


def wait_drawn(page: Any) -> None:
    page.wait_for_selector('#graph[data-ready="true"]')


SHOWN = """(() => {
  const cy = window.groundkitMap;
  const view = cy.extent();
  const within = (n) => { const p = n.position();
    return p.x >= view.x1 && p.x <= view.x2 && p.y >= view.y1 && p.y <= view.y2; };
  const away = cy.edges().filter((e) => !within(e.source()) || !within(e.target())).length;
  const levels = [document.getElementById("graph").dataset.lod];
  const labels = cy.nodes().filter((n) => n.visible() && n.pstyle("label").strValue
    && n.pstyle("font-size").pfValue * cy.zoom() >= n.pstyle("min-zoomed-font-size").pfValue);
  const kinds = [...new Set(labels.map((n) => n.data("kind") === "label"
    ? cy.getElementById(n.id().replace("#label", "")).data("kind") : n.data("kind")))].sort();
  const boxes = labels.map((n) => [n.id(),
    n.renderedBoundingBox({includeNodes: false, includeEdges: false, includeLabels: true})]);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (p.x1 < q.x2 && q.x1 < p.x2 && p.y1 < q.y2 && q.y1 < p.y2) overlaps.push([a, b]);
    }
  }
  // A label is never under an edge: whatever carries a label is drawn above every edge.
  const edgeTop = Math.max(...cy.edges().map((e) => e.pstyle("z-index").value));
  const under = labels.filter((n) => n.pstyle("z-index").value <= edgeTop).map((n) => n.id());
  const smallest = Math.min(...labels.map((n) => n.pstyle("font-size").pfValue * cy.zoom()));
  return {levels, kinds, labels: labels.length, overlaps, under, away, smallest,
          zoom: cy.zoom(), modules: cy.nodes('[kind = "module"]').length};
})()"""


def test_a_large_map_shows_areas_from_afar_then_packages_then_modules(
    big: Served, open_tab: OpenTab
) -> None:
    tab = open_tab(big.base)
    page = tab.page
    tab.go("/ui/maps/big?level=module")
    wait_drawn(page)
    fitted = page.evaluate(SHOWN)
    assert fitted["modules"] == MODULES
    assert fitted["levels"] != ["module"]  # fitted, the modules' labels are too small to read
    for _ in range(12):  # from afar: the areas
        if page.evaluate(SHOWN)["levels"] == ["area"]:
            break
        page.click("button[data-zoom=out]")
    seen = []
    for _ in range(24):  # then, zooming in, the packages, then the modules
        found = page.evaluate(SHOWN)
        seen.append(found)
        if found["levels"] == ["module"]:
            break
        page.click("button[data-zoom=in]")
    tab.shot("map-big-modules")
    order = [s["levels"][0] for s in seen]
    assert list(dict.fromkeys(order)) == ["area", "package", "module"]
    assert seen[0]["kinds"] == ["area"]  # from afar, only the areas' names can be read
    assert "module" in seen[-1]["kinds"]
    for found in seen:
        assert found["smallest"] >= 9, found["zoom"]  # no label drawn under 9 px
        assert found["overlaps"] == [], found["zoom"]
        assert found["under"] == []
    if found["levels"] == ["module"]:  # between modules, only the edges whose ends are in view
        assert found["away"] == 0
    assert "Module labels are too small" not in page.inner_text("#graph-status")


def test_the_drawing_is_the_same_on_every_load(big: Served, open_tab: OpenTab) -> None:
    layouts = []
    for _ in range(2):
        tab = open_tab(big.base)
        tab.go("/ui/maps/big?level=module")
        wait_drawn(tab.page)
        layouts.append(
            tab.page.evaluate(
                "groundkitMap.nodes().map((n) => [n.id(), n.position().x, n.position().y]).sort()"
            )
        )
    assert layouts[0] == layouts[1]


def test_the_filter_controls_redraw_and_say_what_they_hid(big: Served, open_tab: OpenTab) -> None:
    tab = open_tab(big.base)
    page = tab.page
    tab.go("/ui/maps/big?level=area")
    wait_drawn(page)
    before = page.evaluate(
        "groundkitMap.edges().map((e) => e.data('count')).reduce((a, b) => a + b, 0)"
    )
    page.fill("#edge-filter input[name=exclude]", "a00/**")
    page.press("#edge-filter input[name=exclude]", "Enter")
    page.wait_for_selector("#graph-status >> text=The filter hid")
    wait_drawn(page)
    after = page.evaluate(
        "groundkitMap.edges().map((e) => e.data('count')).reduce((a, b) => a + b, 0)"
    )
    assert after < before
    assert "exclude=a00" in page.url
