"""A function's return chosen by a parameter's flag (``if fold:``, ``x if quick else y``,
``if mode == "r":``, ``if flag is None:``): a call passing a literal (or leaving a literal
default in place) gets only the returns its literal may reach; anything else gets them all."""

from __future__ import annotations

import textwrap
from pathlib import Path

from map_helpers import Repo, build
from test_incremental import fresh, snapshot

from groundkit.codemap.extract.python.parse import facts, parse_python


def ops_of(source: str) -> list[facts.Op]:
    return list(parse_python("m.py", textwrap.dedent(source).lstrip()).ops)


# -- the facts: each test of a flag, each return under one, each literal passed ----------------
def test_a_return_under_a_parameters_truth_test_is_guarded_by_the_tests_copy() -> None:
    ops = ops_of(
        """
        def enfold(dt, fold=1):
            if fold:
                return A()
            return B()
        """
    )
    tested = [op for op in ops if isinstance(op, facts.Tested)]
    assert [(op.test, op.holds) for op in tested] == [("truth", True), ("truth", False)]
    guards = [op.guard for op in ops if isinstance(op, facts.Ret)]
    assert guards == [op.dst for op in tested]


def test_a_return_under_two_parameters_flags_keeps_the_second_in_its_flags() -> None:
    ops = ops_of(
        """
        def opener(mode="r", into=None):
            if into is None:
                if mode == "r":
                    return Reader()
            return into
        """
    )
    tests = {op.dst: (op.test, op.holds) for op in ops if isinstance(op, facts.Tested)}
    first = next(op for op in ops if isinstance(op, facts.Ret))
    assert tests[first.guard] == ("is:None", True)  # (``into`` sorts before ``mode``)
    assert [tests[copy] for copy in first.flags] == [("eq:'r'", True)]


def test_a_conditional_return_on_a_flag_is_one_return_per_side() -> None:
    ops = ops_of(
        """
        def choose(quick):
            return fast if quick else safe
        """
    )
    rets = [op for op in ops if isinstance(op, facts.Ret)]
    tests = {op.dst: (op.test, op.holds) for op in ops if isinstance(op, facts.Tested)}
    assert [tests[ret.guard] for ret in rets] == [("truth", True), ("truth", False)]


def test_comparisons_of_a_parameter_with_a_literal_are_flag_tests() -> None:
    ops = ops_of(
        """
        def f(mode, flag, strict):
            if mode == "r":
                return 1
            if None is not flag:
                return 2
            if not strict is False:
                return 3
            return 4
        """
    )
    assert [(op.test, op.holds) for op in ops if isinstance(op, facts.Tested)] == [
        ("eq:'r'", True),
        ("eq:'r'", False),
        ("is:None", False),
        ("is:None", True),
        ("is:False", False),
        ("is:False", True),
    ]


def test_a_test_of_a_local_or_of_a_parameter_bound_again_is_no_flag_test() -> None:
    ops = ops_of(
        """
        def f(flag, other):
            other = bool(other)
            mine = g()
            if mine:
                return 1
            if other:
                return 2
            return 3
        """
    )
    assert not [op for op in ops if isinstance(op, facts.Tested)]
    assert all(op.guard == -1 for op in ops if isinstance(op, facts.Ret))


def test_a_bool_or_int_passed_or_written_as_a_default_has_a_variable_that_says_which() -> None:
    ops = ops_of(
        """
        def f(fold=1, quick=True):
            pass

        f(0, quick=False)
        f(1)
        """
    )
    written = [op.written for op in ops if isinstance(op, facts.Const) and op.written]
    assert written == ["1", "True", "0", "False"]  # (one variable each: ``1`` again is the first)


# -- the calls ------------------------------------------------------------------------------------
_ENFOLD = """
    from datetime import datetime

    class WithFold(datetime):
        @property
        def fold(self):
            return 1

        def shift(self):
            pass

    def enfold(dt, fold=1):
        if getattr(dt, "fold", 0) == fold:
            return dt
        args = dt.timetuple()[:6]
        if fold:
            return WithFold(*args)
        return datetime(*args)
"""


def test_a_call_whose_literal_flag_rules_a_branch_out_gets_none_of_its_returns(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": _ENFOLD
            + """
    def plain():
        enfold(datetime(2020, 1, 19), fold=0).shift()

    def folded():
        enfold(datetime(2020, 1, 19)).shift()
"""
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.plain", "m.WithFold.shift") not in pairs
    assert ("m.folded", "m.WithFold.shift") in pairs


def test_a_flag_that_is_not_a_literal_gets_every_return(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": _ENFOLD
            + """
    def passed_on(fold):
        enfold(datetime(2020, 1, 19), fold=fold).shift()

    def spread(options):
        enfold(datetime(2020, 1, 19), **options).shift()

    passed_on(0)
    spread({"fold": 0})
"""
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.passed_on", "m.WithFold.shift") in pairs
    assert ("m.spread", "m.WithFold.shift") in pairs


def test_a_literal_flag_picks_the_function_a_conditional_return_gives_for_certain(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                def fast():
                    pass

                def safe():
                    pass

                def choose(quick):
                    return fast if quick else safe

                def run():
                    choose(True)()

                def careful():
                    choose(0)()

                def unsure(quick):
                    choose(quick)()
            """
        },
    )
    certain, pairs = repo.certain("calls"), repo.pairs("calls")
    assert ("m.run", "m.fast") in certain
    assert ("m.run", "m.safe") not in pairs
    assert ("m.careful", "m.safe") in certain
    assert ("m.careful", "m.fast") not in pairs
    assert ("m.unsure", "m.fast") in pairs - certain
    assert ("m.unsure", "m.safe") in pairs - certain


def test_a_string_or_none_flag_is_decided_by_the_literal_passed(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Reader:
                    def go(self):
                        pass

                class Writer:
                    def go(self):
                        pass

                def opener(mode="r", into=None):
                    if into is None:
                        if mode == "r":
                            return Reader()
                        return Writer()
                    return into

                def read():
                    opener().go()

                def write():
                    opener("w").go()
            """
        },
    )
    certain, pairs = repo.certain("calls"), repo.pairs("calls")
    assert ("m.read", "m.Reader.go") in certain
    assert ("m.read", "m.Writer.go") not in pairs
    assert ("m.write", "m.Writer.go") in certain
    assert ("m.write", "m.Reader.go") not in pairs


def test_an_edit_changing_the_string_a_flag_is_compared_with_equals_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    # (renaming the string's value, as an edit of a string nothing reads is taken on, would
    # keep the return the old string chose)
    build(
        repo,
        {
            "lib.py": """
                class Reader:
                    def go(self):
                        pass

                class Writer:
                    def go(self):
                        pass

                def opener(mode):
                    if mode == "r":
                        return Reader()
                    return Writer()
            """,
            "app.py": """
                from lib import opener

                def run():
                    opener("r").go()
            """,
        },
    )
    assert ("app.run", "lib.Reader.go") in repo.certain("calls")
    edited = (repo.root / "app.py").read_text().replace('opener("r")', 'opener("w")')
    report = repo.write({"app.py": edited}).build()
    assert "continued" not in " ".join(report.solves)
    assert ("app.run", "lib.Writer.go") in repo.certain("calls")
    assert ("app.run", "lib.Reader.go") not in repo.pairs("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_an_edit_flipping_a_literal_flag_equals_a_fresh_map(repo: Repo, tmp_path: Path) -> None:
    build(
        repo,
        {
            "lib.py": """
                def fast():
                    pass

                def safe():
                    pass

                def choose(quick=False):
                    return fast if quick else safe
            """,
            "app.py": """
                from lib import choose

                def run():
                    choose(True)()
                    choose(quick=False)
            """,
        },
    )
    assert ("app.run", "lib.fast") in repo.certain("calls")
    edited = (repo.root / "app.py").read_text().replace("choose(True)", "choose(False)")
    repo.write({"app.py": edited}).build()
    assert ("app.run", "lib.safe") in repo.certain("calls")
    assert ("app.run", "lib.fast") not in repo.pairs("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
