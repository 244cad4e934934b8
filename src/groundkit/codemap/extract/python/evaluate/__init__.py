"""Static evaluation of names and attribute chains across the repository's Python modules.

Python's own lookup rules, as far as they can be followed without running anything: a function's
locals, enclosing functions (class bodies skipped), the module, star imports, then builtins;
attributes through modules (re-exports and submodules), classes and instances (C3 MRO over the
in-repository bases), ``super()``. A name bound several times is known only when every binding
agrees (a ``None`` placeholder aside); anything else is ``Unknown``, never a guess.

Each result carries *how* it was reached (the root binding and the steps since), from which the
edge's provenance follows. Every other module consulted is recorded as a dependency key.

The evaluator is one object, since its memo and the dependencies it records are shared by every
lookup; it is written in parts, one per module: ``state.py`` (facts, memo, dependencies),
``modules.py``, ``names.py``, ``bindings.py``, ``attributes.py`` and ``classes.py``.
"""

from __future__ import annotations

from groundkit.codemap.extract.python.evaluate.attributes import Attributes
from groundkit.codemap.extract.python.evaluate.bindings import Bindings
from groundkit.codemap.extract.python.evaluate.classes import Classes
from groundkit.codemap.extract.python.evaluate.modules import Modules
from groundkit.codemap.extract.python.evaluate.names import Names
from groundkit.codemap.extract.python.evaluate.state import BUILTINS, How, Scope

__all__ = ["BUILTINS", "Evaluator", "How", "Scope"]


class Evaluator(Modules, Names, Bindings, Attributes, Classes):
    """Static evaluation over one state of the project, shared by the files resolved in a run:
    ``start(path)`` before resolving each, ``forget_body(path)`` after."""
