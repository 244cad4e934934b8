"""One object for each name and number that decoded facts repeat.

msgpack decoding makes a new ``str`` for every string it reads, and a file's facts live
through the solve that makes a map's peak: django's 879 files decode 93,580 call sites' names
(8,040 distinct) and 45,774 attribute reads' names (6,437). The fields that repeat most are
interned (``sys.intern``: one object across files, freed with its last user), set in place on
the records just decoded, which nothing else holds yet: django's decoded facts hold 12 MB
less. Only these fields are visited, one pass over the sites, the operations and the
parameters, and no record is rebuilt (``issue-77-facts`` rebuilt every record to share every
string and number: 0.3 s more CPU for django's decoding, where this takes 0.06 s).

Numbers repeat too: every number above 256 is a new ``int`` of 32 bytes as decoded (CPython
keeps one object only for -5 to 256), and a file names its variables again in each operation
that reads them and its lines in each site on them (django: 415,000 such ints, 117,000 distinct
within their files). The int fields of the sites, scopes and operations share one object per
number and file (``_NUMBERS``), set in place as the names are; numbers inside a record's tuples
(``Site.args``, ``Phi.srcs``) are left, since sharing them means rebuilding the tuple.
"""

from __future__ import annotations

import sys
import typing

import msgspec

from groundkit.codemap.extract.python.parse.facts import (
    Attr,
    BinOp,
    ClassBind,
    Facts,
    Global,
    Import,
    ModBind,
    Op,
    Param,
    Scope,
    SetAttr,
    Site,
)

__all__ = ["share_names"]

_set = msgspec.structs.force_setattr
_intern = sys.intern
# the operations' names that repeat, by the operation's type (a lookup: an ``isinstance``
# chain over django's 250,000 operations took twice as long)
_FIELDS: dict[type, str] = {
    Attr: "attr",
    SetAttr: "attr",
    Global: "name",
    ModBind: "name",
    ClassBind: "name",
    BinOp: "method",
    Import: "module",
}

# The fields holding numbers above 256 (variables, sites, lines), by the record's type; a
# column, a level, an index or a flag is smaller and is one object already.
_SMALL = frozenset({"col", "end_col", "dynamic", "level", "index", "after", "flags"})
_NUMBERS: dict[type, tuple[str, ...]] = {
    record: tuple(
        field.name
        for field in msgspec.structs.fields(record)
        if field.type is int and field.name not in _SMALL
    )
    for record in (Site, Scope, Param, *typing.get_args(Op))
}


def share_names(facts: Facts) -> Facts:
    """``facts``, just decoded, with its most repeated names interned in place and its numbers
    shared within the file."""
    numbers: dict[int, int] = {}
    keep = numbers.setdefault
    site_numbers = _NUMBERS[Site]
    for site in facts.sites:
        _set(site, "name", _intern(site.name))
        for field in site_numbers:
            number = getattr(site, field)
            if number > 256:
                _set(site, field, keep(number, number))
    scope_numbers, param_numbers = _NUMBERS[Scope], _NUMBERS[Param]
    for scope in facts.scopes:
        for field in scope_numbers:
            number = getattr(scope, field)
            if number > 256:
                _set(scope, field, keep(number, number))
        for param in scope.params:
            _set(param, "name", _intern(param.name))
            for field in param_numbers:
                number = getattr(param, field)
                if number > 256:
                    _set(param, field, keep(number, number))
    field_of, numbers_of = _FIELDS.get, _NUMBERS.__getitem__
    for op in facts.ops:
        kind = type(op)
        named = field_of(kind)
        if named is not None:
            name = getattr(op, named)
            if name is not None:  # (an attribute named at run time)
                _set(op, named, _intern(name))
        for field in numbers_of(kind):
            number = getattr(op, field)
            if number > 256:
                _set(op, field, keep(number, number))
    return facts
