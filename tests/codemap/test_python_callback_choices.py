"""A function that is a run-time choice where it is handed over stays a choice when a library
function calls it (``map``, ``sorted(key=)``, ``list.sort(key=)``) or when it is wrapped
(``staticmethod``, ``functools.partial``) and called later: its targets are drawn partial, as a
direct call of the same variable draws them, never certain. The shapes are those precision
draw 12 found drawn certain and wrong in toolz (a curry's shared partial, compose behind a
staticmethod)."""

from __future__ import annotations

from map_helpers import Repo, build, calls

from groundkit.codemap.model import EdgeFlag


def test_a_choice_of_function_mapped_by_a_builtin_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def inc(x): return x + 1
                def square(x): return x * x
                def pick(flag):
                    if flag:
                        return inc
                    return square
                def run(flag):
                    func = pick(flag)
                    return list(map(func, [1, 2]))
                run(True)
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.inc").flags
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.square").flags


def test_a_choice_of_key_function_given_to_sorted_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def by_name(x): return str(x)
                def by_size(x): return x
                def run(flag, items):
                    key = by_name if flag else by_size
                    return sorted(items, key=key)
                run(True, [3, 1])
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.by_name").flags


def test_one_known_function_mapped_by_a_builtin_stays_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def inc(x): return x + 1
                def run():
                    return list(map(inc, [1, 2]))
                run()
            """
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "m.run", "m.inc").flags


def test_a_choice_of_function_behind_a_staticmethod_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def inc(x): return x + 1
                def neg(x): return -x
                def pick(flag):
                    if flag:
                        return inc
                    return neg
                def run(flag):
                    chosen = pick(flag)
                    class Holder:
                        apply = staticmethod(chosen)
                    return Holder.apply(2)
                run(True)
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.inc").flags
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.neg").flags


def test_a_staticmethod_of_a_callable_instance_calls_its_call_method(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Chain:
                    def __call__(self, x): return x
                class Holder:
                    apply = staticmethod(Chain())
                def run():
                    return Holder.apply(2)
                run()
            """
        },
    )
    assert calls(repo, "m.run", "m.Chain.__call__")


def test_a_partial_of_a_choice_of_function_is_partial_when_called(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                from functools import partial
                def add(x, y): return x + y
                def mul(x, y): return x * y
                def pick(flag):
                    if flag:
                        return add
                    return mul
                def run(flag):
                    bound = partial(pick(flag), 2)
                    return bound(3)
                run(True)
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.add").flags


def test_a_choice_of_class_mapped_by_a_builtin_constructs_partially(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Small:
                    def __init__(self, x): self.x = x
                class Large:
                    def __init__(self, x): self.x = x
                def run(flag):
                    kind = Small if flag else Large
                    return list(map(kind, [1, 2]))
                run(True)
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.Small.__init__").flags
