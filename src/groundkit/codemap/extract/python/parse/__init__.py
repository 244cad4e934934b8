"""One Python file to facts, with the standard library's ``ast``: no other file is looked at.

The facts are plain JSON (lists, dicts, strings, ints), read back from the map for files that did
not change. Their shapes (``bindings.py`` says what a binding's value is made of):

interface (what other modules may consult)
    ``names``   module-level bindings: name -> [value, ...] (every assignment seen)
    ``stars``   ``from m import *`` sources: [[module, level], ...]
    ``all``     ``__all__`` when it is a literal list of strings, else null
    ``classes`` qualname -> {``bases``: [ref, ...], ``names``: class-body bindings,
                ``attrs``: instance attributes (``self.x = ...``, annotated fields)}
    ``funcs``   qualname -> [kind, decorator names, return values]
body (what only this file's resolution needs)
    ``scopes``  [qualname, kind, parent, line, end_line, def line] per scope; 0 is the module.
                Kinds: module, class, function, method, and lambda/comp (not nodes: their calls
                belong to the enclosing scope, their parameters still shadow)
    ``bind``    scope index (as a string) -> function-scope bindings
    ``global``  scope index -> names declared ``global`` there
    ``calls``   [scope, ref or null, line, col, end_line, end_col, how, target, args, why]
                how "c" a call, "d" a decorator (target: the decorated scope), "a"/"s" an
                attribute read/written (an edge only to a property); args summarised for
                names that may be routes or HTTP clients; why, when ref is null: "lit" (a method
                of a literal) or "dyn" (no static name)
    ``imports`` [scope, module, level, name or null, asname or null, line, col, end_line,
                end_col, flags]
    ``lists``   module-level lists (Django urlconfs): name -> parts, each ["sites", [call-site
                index, ...]] (a literal list's calls), ["ref", ref] (another list added to it)
                or ["import", [name]] (the imported list that ``name +=`` extends)
    ``lines``   line number (as a string) -> the line as written, for evidence
"""

from __future__ import annotations

import ast

from groundkit.codemap.extract.base import FileFacts, Unparsable
from groundkit.codemap.extract.python.parse.expressions import INTERESTING
from groundkit.codemap.extract.python.parse.visitor import Visitor

__all__ = ["INTERESTING", "parse_python"]


def parse_python(path: str, text: str) -> FileFacts:
    try:
        tree = ast.parse(text, filename=path, type_comments=False)
    except SyntaxError as exc:
        raise Unparsable(f"syntax error at line {exc.lineno}") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes; absurd nesting
        raise Unparsable(f"cannot be parsed ({type(exc).__name__})") from None
    visitor = Visitor(text)
    try:
        visitor.run(tree)
    except RecursionError:
        raise Unparsable("nested too deeply to analyse") from None
    return visitor.facts()
