"""A call run only under a test of one parameter's flag (``if do_eof:``, ``if lock is None:``)
is drawn certain for a value another argument holds only where some call that may take the
branch passes that value: one only calls failing the flag pass is partial (issue 34 point 1:
h11's ``_run_reader_iter``, cachetools' ``cached``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from map_helpers import Repo, build
from test_incremental import fresh, snapshot

from groundkit.codemap.extract.python.parse import facts, parse_python


def parsed(source: str) -> facts.Facts:
    return parse_python("m.py", textwrap.dedent(source).lstrip())


# -- the facts: the flags in force at each site --------------------------------------------------
def test_a_call_under_a_parameters_flag_is_kept_with_the_tests_copy() -> None:
    found = parsed(
        """
        def run(reader, do_eof):
            reader.read()
            if do_eof:
                reader.read_eof()
        """
    )
    tested = {op.dst: (op.test, op.holds) for op in found.ops if isinstance(op, facts.Tested)}
    names = {index: site.name for index, site in enumerate(found.sites)}
    flagged = {names[site]: [tested[copy] for copy in copies] for site, copies in found.flagged}
    assert flagged == {"read_eof": [("truth", True)]}


def test_a_call_after_an_if_on_an_enclosing_parameter_that_returns_is_kept_with_the_else() -> None:
    found = parsed(
        """
        def cached(cache, lock=None):
            def decorator(func):
                if lock is None:
                    return unlocked(func, cache)
                return locked(func, cache, lock)
            return decorator
        """
    )
    tested = {op.dst: (op.test, op.holds) for op in found.ops if isinstance(op, facts.Tested)}
    names = {index: site.name for index, site in enumerate(found.sites)}
    flagged = {names[site]: [tested[copy] for copy in copies] for site, copies in found.flagged}
    assert flagged == {"unlocked": [("is:None", True)], "locked": [("is:None", False)]}


def test_a_test_of_a_parameter_bound_again_or_of_a_local_flags_no_site() -> None:
    found = parsed(
        """
        def run(reader, flag):
            flag = bool(flag)
            mine = reader.ready()
            if flag:
                reader.go()
            if mine:
                reader.stop()
        """
    )
    assert found.flagged == ()


# -- the calls ------------------------------------------------------------------------------------
_READERS = """
    class LengthReader:
        def read_eof(self):
            raise ValueError("cut short")

    class EofReader:
        def read_eof(self):
            return "end"

    def run_reader(reader, do_eof):
        if do_eof:
            return reader.read_eof()

    def check(make, do_eof=False):
        return run_reader(make(), do_eof)
"""


def test_a_method_read_only_under_a_flag_set_with_another_class_is_partial(repo: Repo) -> None:
    build(
        repo,
        {"m.py": _READERS + "\n    check(LengthReader)\n    check(EofReader, do_eof=True)\n"},
    )
    certain = repo.certain("calls")
    assert ("m.run_reader", "m.EofReader.read_eof") in certain
    assert ("m.run_reader", "m.LengthReader.read_eof") not in certain
    assert ("m.run_reader", "m.LengthReader.read_eof") in repo.pairs("calls")


def test_a_method_read_under_a_flag_every_caller_sets_stays_certain(repo: Repo) -> None:
    build(
        repo,
        {"m.py": _READERS + "\n    check(LengthReader, True)\n    check(EofReader, do_eof=True)\n"},
    )
    certain = repo.certain("calls")
    assert ("m.run_reader", "m.EofReader.read_eof") in certain
    assert ("m.run_reader", "m.LengthReader.read_eof") in certain


def test_a_flag_no_literal_decides_leaves_every_method_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": _READERS
            + """
    import sys

    check(LengthReader, do_eof=len(sys.argv) > 1)
    check(EofReader, do_eof=True)
"""
        },
    )
    certain = repo.certain("calls")
    assert ("m.run_reader", "m.LengthReader.read_eof") in certain
    assert ("m.run_reader", "m.EofReader.read_eof") in certain


def test_a_flag_handed_on_through_star_args_still_decides(repo: Repo) -> None:
    # (h11 0.14.0's tests: ``_run_reader(*args)`` calls ``_run_reader_iter(*args)``)
    build(
        repo,
        {
            "m.py": """
                class ChunkedReader:
                    def read_eof(self):
                        raise ValueError("cut short")

                class Http10Reader:
                    def read_eof(self):
                        return "end"

                def _run_reader_iter(reader, do_eof):
                    if do_eof:
                        yield reader.read_eof()

                def _run_reader(*args):
                    return list(_run_reader_iter(*args))

                def t_body_reader(thunk, do_eof=False):
                    _run_reader(thunk(), do_eof)
                    _run_reader(thunk(), False)

                t_body_reader(ChunkedReader)
                t_body_reader(Http10Reader, do_eof=True)
            """
        },
    )
    certain = repo.certain("calls")
    assert ("m._run_reader_iter", "m.Http10Reader.read_eof") in certain
    assert ("m._run_reader_iter", "m.ChunkedReader.read_eof") not in certain


def test_a_method_of_what_a_function_passed_in_makes_stays_certain(repo: Repo) -> None:
    # (what calling the lambda gives is not followed back: it may be that class)
    build(
        repo,
        {
            "m.py": _READERS
            + "\n    check(LengthReader)\n    check(lambda: LengthReader(), do_eof=True)\n"
        },
    )
    assert ("m.run_reader", "m.LengthReader.read_eof") in repo.certain("calls")


_CACHED = """
    def _unlocked(func):
        def wrapper(*args):
            return func(*args)
        return wrapper

    def _locked(func, lock):
        def wrapper(*args):
            with lock:
                return func(*args)
        return wrapper

    def cached(lock=None):
        def decorator(func):
            if lock is None:
                return _unlocked(func)
            return _locked(func, lock)
        return decorator

    class Lock:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def square(n):
        return n * n

    def double(n):
        return n + n
"""


def test_a_function_handed_to_a_wrapper_the_closures_flag_never_picks_is_partial(
    repo: Repo,
) -> None:
    build(repo, {"m.py": _CACHED + "\n    cached(Lock())(square)(3)\n    cached()(double)(4)\n"})
    certain = repo.certain("calls")
    assert ("m._unlocked.wrapper", "m.double") in certain
    assert ("m._locked.wrapper", "m.square") in certain
    assert ("m._unlocked.wrapper", "m.square") not in certain
    assert ("m._locked.wrapper", "m.double") not in certain


def test_a_call_on_a_value_made_past_a_flag_no_caller_sets_stays_certain(repo: Repo) -> None:
    # (django's ``mail_managers(..., html_message=None)``: a caller from outside may pass it)
    build(
        repo,
        {
            "m.py": """
                class Message:
                    def attach(self, html):
                        pass

                def mail_managers(subject, html_message=None):
                    mail = Message()
                    if html_message:
                        mail.attach(html_message)

                mail_managers("hello")
            """
        },
    )
    assert ("m.mail_managers", "m.Message.attach") in repo.certain("calls")


def test_an_edit_setting_the_flag_in_another_file_equals_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    build(
        repo,
        {
            "lib.py": _READERS,
            "app.py": """
                from lib import EofReader, LengthReader, check

                check(LengthReader)
                check(EofReader, do_eof=True)
            """,
        },
    )
    assert ("lib.run_reader", "lib.LengthReader.read_eof") not in repo.certain("calls")
    edited = (
        (repo.root / "app.py")
        .read_text()
        .replace("check(LengthReader)", "check(LengthReader, True)")
    )
    repo.write({"app.py": edited}).build()
    assert ("lib.run_reader", "lib.LengthReader.read_eof") in repo.certain("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)


def test_an_edit_putting_a_call_under_an_enclosing_flag_equals_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    # (the edges it changes are drawn in another file than the one edited: a continuation,
    # which draws only the edited file again, must not take it on)
    build(
        repo,
        {
            "wrappers.py": """
                def unlocked(func):
                    def wrapper():
                        return func()
                    return wrapper
            """,
            "deco.py": """
                from wrappers import unlocked

                def cached(lock=None):
                    def decorator(func):
                        unlocked(func)
                        return func
                    return decorator

                def plain():
                    pass

                def guarded():
                    pass

                cached()(plain)
                cached(1)(guarded)
            """,
        },
    )
    assert ("wrappers.unlocked.wrapper", "deco.guarded") in repo.certain("calls")
    edited = (repo.root / "deco.py").read_text()
    edited = edited.replace(
        "        unlocked(func)", "        if lock is None:\n            unlocked(func)"
    )
    repo.write({"deco.py": edited}).build()
    assert ("wrappers.unlocked.wrapper", "deco.guarded") not in repo.certain("calls")
    assert ("wrappers.unlocked.wrapper", "deco.plain") in repo.certain("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
