"""How a Python file's facts are held once decoded from the map: the parts only the drawing
reads stay packed until it reads them."""

from __future__ import annotations

import sys

import msgspec

from groundkit.codemap.extract.base import SourceFile
from groundkit.codemap.extract.python import PythonExtractor
from groundkit.codemap.extract.python.parse.facts import Attr, Facts, quoted_lines

SOURCE = """\
import os


def handler(path):
    return os.path.join(path, "x")


class Store:
    def save(self, path):
        return handler(path)
""" + "".join(f"value_{i} = handler('{i}')\n" for i in range(300))


def _decoded() -> Facts:
    extractor = PythonExtractor()
    facts = extractor.decode(*extractor.encode(extractor.parse(SourceFile("m.py", SOURCE)))).body
    assert isinstance(facts, Facts)
    return facts


def test_decoded_facts_read_back_each_quoted_line_as_written() -> None:
    lines = quoted_lines(_decoded())

    assert lines[5] == 'return os.path.join(path, "x")'
    assert lines[10] == "return handler(path)"
    assert lines[310] == "value_299 = handler('299')"


def test_decoded_facts_hold_their_quoted_lines_packed_in_a_buffer_of_their_own() -> None:
    facts = _decoded()
    packed = facts.lines
    unpacked = quoted_lines(facts)
    as_dict = sys.getsizeof(unpacked) + sum(
        sys.getsizeof(k) + sys.getsizeof(v) for k, v in unpacked.items()
    )

    assert isinstance(packed, msgspec.Raw)
    assert len(packed) < as_dict / 3
    # (a view into the decoded body would keep the whole body alive: copy() returns the same
    # object only when it owns its bytes)
    assert packed.copy() is packed


def test_decoded_facts_hold_one_object_for_a_name_their_sites_and_operations_repeat() -> None:
    extractor = PythonExtractor()
    decoded = [
        extractor.decode(*extractor.encode(extractor.parse(SourceFile(path, text)))).body
        for path, text in (
            ("a.py", "def run(store):\n    store.save_all()\n    store.save_all()\n"),
            ("b.py", "def go(other):\n    return other.save_all()\n"),
        )
    ]
    sites = [site for facts in decoded for site in facts.sites if site.name == "save_all"]
    reads = [op for facts in decoded for op in facts.ops if isinstance(op, Attr)]

    assert len(sites) == 3
    assert len(reads) == 3
    assert all(site.name is sites[0].name for site in sites)
    assert all(op.attr is sites[0].name for op in reads)


def test_decoded_facts_hold_one_object_for_a_number_their_sites_and_operations_repeat() -> None:
    facts = _decoded()
    # (variables and lines above 256: CPython keeps one object for smaller ones anyway)
    numbers = [
        getattr(record, field)
        for record in (*facts.sites, *facts.ops)
        for field in record.__struct_fields__
        if type(getattr(record, field)) is int and getattr(record, field) > 256
    ]
    by_value: dict[int, set[int]] = {}
    for number in numbers:
        by_value.setdefault(number, set()).add(id(number))

    assert len(numbers) > len(by_value)  # (a call and its site repeat a line, a variable)
    assert all(len(objects) == 1 for objects in by_value.values())


def test_decoded_facts_equal_the_facts_parsed_once_names_and_numbers_are_shared() -> None:
    extractor = PythonExtractor()
    parsed = extractor.parse(SourceFile("m.py", SOURCE))

    assert extractor.decode(*extractor.encode(parsed)).body == parsed.body
