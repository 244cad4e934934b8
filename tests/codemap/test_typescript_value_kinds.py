"""The value flow tests a value's kind as ``type(v) is C`` (``values/evaluate.py``): that holds
only while no value or fact class is subclassed."""

from __future__ import annotations

import dataclasses

import msgspec

from groundkit.codemap.extract.typescript.parse import facts
from groundkit.codemap.extract.typescript.values import objects


def test_no_value_or_fact_class_of_the_typescript_flow_is_subclassed() -> None:
    classes = [
        c
        for module in (objects, facts)
        for c in vars(module).values()
        if isinstance(c, type)
        and c.__module__ == module.__name__
        and (issubclass(c, msgspec.Struct) or dataclasses.is_dataclass(c))
    ]
    assert len(classes) > 30
    assert [c.__name__ for c in classes if c.__subclasses__()] == []
