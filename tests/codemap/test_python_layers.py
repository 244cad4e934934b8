"""Each layer of the Python extractor at its own boundary, as snapshots: the facts ``parse_python``
makes of a snippet (scopes, sites, the value-flow program), and what the solver finds at each
site of a small program. A change to either shows here as a readable diff, before any map."""

from __future__ import annotations

import textwrap

from groundkit.codemap.extract.base import SourceFile
from groundkit.codemap.extract.python import PythonExtractor
from groundkit.codemap.extract.python.layout import Layout
from groundkit.codemap.extract.python.parse import parse_python
from groundkit.codemap.extract.python.parse.facts import Facts, SiteKind
from groundkit.codemap.extract.python.values.certainty import choices
from groundkit.codemap.extract.python.values.objects import UNKNOWN_ID
from groundkit.codemap.extract.python.values.program import Program
from groundkit.codemap.extract.python.values.solver import solve


def facts_of(source: str) -> Facts:
    return parse_python("m.py", textwrap.dedent(source).lstrip())


def render_facts(facts: Facts) -> list[str]:
    lines = [
        f"scope {i} {s.qual or '<module>'} kind={s.kind} parent={s.parent}"
        for i, s in enumerate(facts.scopes)
    ]
    lines += [
        f"site {i} line={s.line} {SiteKind(s.kind).name} {s.name!r} scope={s.scope}"
        + (f" args={s.args}" if s.args else "")
        for i, s in enumerate(facts.sites)
    ]
    lines += [repr(op) for op in facts.ops]
    return lines


def solved(files: dict[str, str]) -> list[str]:
    """Each site's targets: ``path:line name -> target (how)``, ``partial`` where the callee
    is a run-time choice or may hold an unknown value."""
    parsed = [
        (path, parse_python(path, textwrap.dedent(text).lstrip())) for path, text in files.items()
    ]
    program = Program(parsed, Layout([p for p, _ in parsed]))
    flow = solve(program)
    chosen = choices(flow)
    out = []
    for (file, index), found in sorted(flow.found.items()):
        info = program.files[file]
        site = info.facts.sites[index]
        for target, (how, operand) in sorted(found.targets.items()):
            held = flow.engine.held(operand)
            uncertain = operand in chosen or UNKNOWN_ID in held
            mark = " partial" if uncertain else ""
            out.append(
                f"{info.path}:{site.line} {site.name} -> {program.dotted(target)} ({how}){mark}"
            )
    return out


def test_a_name_bound_twice_is_two_variables_and_a_call_reads_the_last_binding() -> None:
    facts = facts_of(
        """
        def old(): pass
        def new(): pass
        x = old
        x = new
        x()
        """
    )
    assert render_facts(facts) == [
        "scope 0 <module> kind=0 parent=-1",
        "scope 1 old kind=2 parent=0",
        "scope 2 new kind=2 parent=0",
        "site 0 line=5 CALL 'x' scope=0",
        "Const(dst=0, what=<ConstKind.LITERAL: 0>)",
        "Const(dst=1, what=<ConstKind.NONE: 1>)",
        "Const(dst=2, what=<ConstKind.UNKNOWN: 2>)",
        "Ret(scope=1, src=1)",  # old() ends without a return: None
        "Def(dst=3, scope=1)",
        "Ret(scope=2, src=1)",
        "Def(dst=4, scope=2)",
        "Call(dst=5, func=4, site=0)",
        "ModBind(name='old', src=3)",
        "ModBind(name='new', src=4)",
        "ModBind(name='x', src=4)",
    ]


def test_branches_meet_in_a_phi_and_a_condition_asks_for_truth() -> None:
    facts = facts_of(
        """
        def f(flag, a, b):
            if flag:
                g = a
            else:
                g = b
            return g()
        """
    )
    assert render_facts(facts) == [
        "scope 0 <module> kind=0 parent=-1",
        "scope 1 f kind=2 parent=0",
        "site 0 line=2 PROTOCOL '__bool__' scope=1",
        "site 1 line=6 CALL 'g' scope=1",
        "Const(dst=0, what=<ConstKind.LITERAL: 0>)",
        "Const(dst=1, what=<ConstKind.NONE: 1>)",
        "Const(dst=2, what=<ConstKind.UNKNOWN: 2>)",
        "ParamIn(dst=3, scope=1, index=0)",
        "ParamIn(dst=4, scope=1, index=1)",
        "ParamIn(dst=5, scope=1, index=2)",
        "BinOp(dst=6, left=3, right=-1, method='__bool__', site=0)",
        # (a parameter's flag: a call passing a literal decides the branch, parse/flags.py)
        "Tested(dst=7, src=3, test='truth', holds=True)",
        "Tested(dst=8, src=3, test='truth', holds=False)",
        "Phi(dst=9, srcs=(4, 5))",
        "Call(dst=10, func=9, site=1)",
        "Ret(scope=1, src=10)",
        "Def(dst=11, scope=1)",
        "ModBind(name='f', src=11)",
    ]


def test_the_solver_follows_a_function_through_a_parameter_and_a_return() -> None:
    assert solved(
        {
            "m.py": """
            def double(x): return x
            def apply(fn): return fn
            def run():
                apply(double)(2)
            """
        }
    ) == [
        "m.py:4  -> m.double (call)",  # the outer call: what apply returned
        "m.py:4 apply -> m.apply (call)",
    ]


def test_the_solver_marks_a_call_through_a_branch_as_a_choice() -> None:
    assert solved(
        {
            "m.py": """
            import os
            def a(): pass
            def b(): pass
            def run():
                f = a if os.environ.get("X") else b
                f()
            """
        }
    ) == [
        "m.py:6 f -> m.a (call) partial",
        "m.py:6 f -> m.b (call) partial",
    ]


def test_the_solver_runs_dunders_that_syntax_calls() -> None:
    assert solved(
        {
            "m.py": """
            class Bag:
                def __len__(self): return 0
                def __iter__(self): return iter([])
            def run():
                bag = Bag()
                if bag:
                    for item in bag:
                        pass
            """
        }
    ) == [
        "m.py:5 Bag -> m.Bag (constructor)",
        "m.py:6 __bool__ -> m.Bag.__len__ (protocol)",
        "m.py:7 __iter__ -> m.Bag.__iter__ (protocol)",
    ]


def test_a_files_facts_read_back_from_the_map_equal_the_parsers_and_share_one_empty_tuple() -> None:
    # The map keeps every file's facts decoded until it is drawn: an empty sequence decoded as
    # a list was a new 56-byte object each (155,000 of them on django), and a parsed record
    # must equal its decoded copy, or an edit's alignment sees every site as changed.
    extractor = PythonExtractor()
    source = SourceFile("m.py", "class A(B):\n    def f(self, x):\n        return g(x, k=1)\n")
    parsed = extractor.parse(source)
    stored = extractor.decode(*extractor.encode(parsed))
    assert stored.body == parsed.body
    empties = [s.keywords for s in stored.body.sites if not s.keywords]
    empties += [s.decorators for s in stored.body.scopes]
    assert empties == [()] * len(empties)
    assert len({id(e) for e in empties}) == 1
