"""What the browser tests measure inside a page: axe-core's findings, focus, layout shifts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")

# Installed before any page script: every layout shift, and when htmx requests and swaps.
RECORDER = """
window.__shifts = [];
window.__htmx = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const moved = (e.sources || []).map((s) => [
      s.node ? s.node.nodeName + (s.node.id ? "#" + s.node.id : "") : "?",
      JSON.stringify(s.previousRect), JSON.stringify(s.currentRect)].join(" "));
    window.__shifts.push({value: e.value, recent: e.hadRecentInput, at: e.startTime, moved: moved});
  }
}).observe({type: "layout-shift", buffered: true});
for (const name of ["htmx:beforeRequest", "htmx:beforeSwap"]) {
  document.addEventListener(name, () => window.__htmx.push([name, performance.now()]));
}
"""

_PATH = """
function keyOf(e) {
  const parts = [];
  for (; e && e.nodeType === 1 && e !== document.body; e = e.parentElement) {
    const siblings = e.parentElement ? Array.from(e.parentElement.children) : [e];
    parts.unshift(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + ":" + siblings.indexOf(e));
  }
  return parts.join(">");
}
"""

FOCUSED = (
    "(() => {"
    + _PATH
    + """
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  const s = getComputedStyle(e);
  return {key: keyOf(e), ring: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2};
})()"""
)

# Every control a keyboard must reach: visible, enabled, in the tab order; one per radio group.
FOCUSABLES = (
    "(() => {"
    + _PATH
    + """
  const all = document.querySelectorAll(
    "a[href], button, input, select, textarea, summary, [tabindex]");
  const out = [];
  for (const e of all) {
    if (e.tabIndex < 0 || e.disabled || !e.checkVisibility({visibilityProperty: true})) continue;
    if (e.type === "radio") {
      const group = document.querySelectorAll('input[type=radio][name="' + e.name + '"]');
      const checked = Array.from(group).find((r) => r.checked) || group[0];
      if (checked !== e) continue;
    }
    out.push(keyOf(e));
  }
  return out;
})()"""
)


def serious_violations(page: Any) -> list[tuple[str, str, list[str]]]:
    """axe-core's serious and critical violations in the page as it is now."""
    page.evaluate(AXE)  # through the debugging protocol: the page's policy does not apply
    found = page.evaluate(
        "axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map("
        "(v) => [v.id, v.impact, v.nodes.slice(0, 3).map((n) => n.target.join(' '))]))"
    )
    return [
        (rule, impact, where) for rule, impact, where in found if impact in ("serious", "critical")
    ]


def tab_through(page: Any, limit: int = 300) -> tuple[list[str], list[str]]:
    """Press Tab from the top of the page until focus comes round again: what it reached, and
    which of those showed no visible focus ring."""
    page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    reached: list[str] = []
    no_ring: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None:
            if reached:
                break
            continue
        if reached and focused["key"] == reached[0]:
            break
        if focused["key"] in reached:
            continue
        reached.append(focused["key"])
        if not focused["ring"]:
            no_ring.append(focused["key"])
    return reached, no_ring


def shifted(page: Any) -> list[Any]:
    """Each layout shift not caused by the person's own input: its value and what moved."""
    return list(
        page.evaluate("window.__shifts.filter((s) => !s.recent).map((s) => [s.value, s.moved])")
    )


def unexpected_shifts(page: Any) -> float:
    """The layout shift not caused by the person's own input (what CLS counts)."""
    return float(sum(value for value, _ in shifted(page)))


def horizontal_overflow(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))
