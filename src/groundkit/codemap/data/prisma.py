"""Prisma schemas (``schema.prisma``): each ``model`` with its table (``@@map("name")``, else
the model's own name, as Prisma documents) and the accessor the generated client gives it
(``prisma.user`` for ``model User``: the name with its first letter lower-cased). Read line by
line as the schema language is written (one block per model, ``}`` closing it); a block that
does not close is counted as unresolved, never guessed."""

from __future__ import annotations

import re

from groundkit.codemap.data import Data, ModelDecl
from groundkit.codemap.model import Location, Provenance

__all__ = ["prisma_data"]

_MODEL = re.compile(r"^\s*model\s+([A-Za-z_]\w*)\s*\{\s*$")
_MAP = re.compile(r"""^\s*@@map\(\s*(?:name:\s*)?"([^"]+)"\s*\)""")


def prisma_data(path: str, text: str) -> Data:
    data = Data()
    lines = text.splitlines()
    current: tuple[str, int] | None = None
    table = ""
    for number, line in enumerate(lines, start=1):
        if current is None:
            found = _MODEL.match(line)
            if found:
                current, table = (found.group(1), number), ""
            continue
        mapped = _MAP.match(line)
        if mapped:
            table = mapped.group(1)
        if line.strip() == "}":
            name, start = current
            where = Location(path, start, 0, number, 1)
            provenance = Provenance.TABLE_DECLARED if table else Provenance.TABLE_DEFAULT
            accessor = name[:1].lower() + name[1:]
            quote = lines[start - 1]
            data.models.append(
                ModelDecl(
                    f"prisma:{name}", None, table or name, provenance, where, quote, "", accessor
                )
            )
            current = None
    if current is not None:
        data.unresolved["schema.prisma model block not closed"] += 1
    return data
