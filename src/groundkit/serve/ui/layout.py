"""Where the code map page draws each area, package and module: computed here, once, the same
on every load.

The module view nests: a module is a box sized to its own label, a package is a box holding
its modules in rows under a header that carries its name, and an area holds its packages the
same way. Boxes are packed in rows ("shelves"), largest first, each row as wide as makes the
whole roughly square. Every label sits in space of its own (a module's inside its box, a
package's or an area's in its header strip, each sized to fit that strip), so no two labels
overlap at any zoom, and the page can show each level as its labels become readable: areas
from afar, then packages, then modules. Units are the drawing's own (a module label's font
is ``MODULE_FONT`` units high); the browser only scales them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["CHAR", "MODULE_FONT", "Box", "Item", "pack"]

MODULE_FONT = 12.0  # the height of a module's label, in drawing units
CHAR = 0.62  # the width of a character, as a share of its font (a sans-serif average)
_PAD = 10.0  # around a box's content, and between boxes
_CELL_PAD = 8.0  # around a module's label inside its box
_HEADER = 1.6  # a header strip's height, in fonts
_MAX_HEADER_FONT = {1: 28.0, 2: 72.0}  # a package's, an area's label at most (depth 1, 2)
_MIN_HEADER_FONT = 6.0


@dataclass(slots=True)
class Item:
    """A module (``children`` empty) or a group of items, with its label."""

    id: str
    label: str
    children: list[Item] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Box:
    """Where an item is drawn: its centre, size, and its label's font and centre (a group's
    label is in its header strip, a module's in its middle)."""

    id: str
    depth: int  # 0: a module, 1: a package, 2: an area
    x: float
    y: float
    width: float
    height: float
    font: float
    label_x: float
    label_y: float


@dataclass(slots=True)
class _Placed:
    item: Item
    depth: int
    width: float
    height: float
    font: float
    inner: list[tuple[float, float, _Placed]]  # (left, top) of each child inside the box


def pack(items: Sequence[Item]) -> list[Box]:
    """Every item's box (and every child's, depth first), the whole drawing's top-left at 0, 0.
    Items and children are taken as given: sort them first for a stable drawing."""
    placed = [_measure(item) for item in items]
    rows = _shelves([(p.width, p.height) for p in placed])
    out: list[Box] = []
    for (left, top), part in zip(rows, placed, strict=True):
        _emit(part, left, top, out)
    return out


def _measure(item: Item) -> _Placed:
    if not item.children:
        font = MODULE_FONT
        width = len(item.label) * CHAR * font + 2 * _CELL_PAD
        return _Placed(item, 0, width, font + 2 * _CELL_PAD, font, [])
    children = [_measure(child) for child in item.children]
    depth = 1 + max(c.depth for c in children)
    spots = _shelves([(c.width, c.height) for c in children])
    inner_width = max(left + c.width for (left, _), c in zip(spots, children, strict=True))
    inner_height = max(top + c.height for (_, top), c in zip(spots, children, strict=True))
    width = inner_width + 2 * _PAD
    # The header's font fits the label in the box's width, and is never above its level's cap.
    cap = _MAX_HEADER_FONT.get(depth, _MAX_HEADER_FONT[2])
    fits = (width - 2 * _PAD) / (CHAR * max(1, len(item.label)))
    font = max(_MIN_HEADER_FONT, min(cap, fits))
    header = font * _HEADER
    inner = [
        (left + _PAD, top + header + _PAD, c)
        for (left, top), c in zip(spots, children, strict=True)
    ]
    return _Placed(item, depth, width, inner_height + header + 2 * _PAD, font, inner)


def _shelves(sizes: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """(left, top) for each size, in rows no wider than makes the whole about square (wider
    than tall, as screens are), in the order given."""
    if not sizes:
        return []
    total = sum(w * h for w, h in sizes)
    limit = max(*(w for w, _ in sizes), math.sqrt(total * 1.6))
    out: list[tuple[float, float]] = []
    x = y = row = 0.0
    for width, height in sizes:
        if x > 0 and x + width > limit:
            x, y, row = 0.0, y + row + _PAD, 0.0
        out.append((x, y))
        x += width + _PAD
        row = max(row, height)
    return out


def _emit(part: _Placed, left: float, top: float, out: list[Box]) -> None:
    x, y = left + part.width / 2, top + part.height / 2
    label_y = y if part.depth == 0 else top + part.font * _HEADER / 2
    out.append(Box(part.item.id, part.depth, x, y, part.width, part.height, part.font, x, label_y))
    for inner_left, inner_top, child in part.inner:
        _emit(child, left + inner_left, top + inner_top, out)
