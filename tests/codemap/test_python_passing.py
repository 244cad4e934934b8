"""A function that gives back its own parameter through calls that give it back (a decorator
handing the function to a registering call, then returning it) gives each call its own
argument, not every function any call passed (jsonschema's ``_checks_drafts``); one handing it
to a call that may return something else keeps every value, as before."""

from __future__ import annotations

from map_helpers import Repo, build

CHECKERS = """
    class FormatChecker:
        def __init__(self):
            self.checkers = {}

        def checks(self, name):
            def _checks(func):
                self.checkers[name] = func
                return func

            return _checks


    checkers = {"draft3": FormatChecker(), "draft7": FormatChecker()}


    def checks_drafts(draft3=None, draft7=None):
        def wrap(func):
            if draft3:
                func = HANDED
            if draft7:
                func = checkers["draft7"].checks(draft7)(func)
            return func

        return wrap


    @checks_drafts(draft3="date-time", draft7="date-time")
    def is_datetime(instance):
        return isinstance(instance, str)


    @checks_drafts(draft7="time")
    def is_time(instance):
        return is_datetime("1970-01-01T" + instance)


    @checks_drafts(draft3="date")
    def is_date(instance):
        return True


    is_time("00:00")
    is_date("2000-01-01")
"""


def test_a_decorator_returning_its_function_through_a_registering_call_keeps_each_name_its_own(
    repo: Repo,
) -> None:
    build(repo, {"m.py": CHECKERS.replace("HANDED", 'checkers["draft3"].checks(draft3)(func)')})
    assert ("m.is_time", "m.is_datetime") in repo.certain("calls")
    assert {("m", "m.is_time"), ("m", "m.is_date")} <= repo.certain("calls")
    drawn = repo.pairs("calls")
    assert ("m.is_time", "m.is_time") not in drawn
    assert ("m.is_time", "m.is_date") not in drawn


def test_a_decorator_handing_its_function_to_a_call_that_wraps_it_keeps_every_function(
    repo: Repo,
) -> None:
    # (``logged`` returns a wrapper, not what it is given: wrap gives back either)
    wrapped = CHECKERS.replace("HANDED", "logged(func)") + (
        "\n    def logged(func):\n        def inner(*args):\n            return func(*args)\n"
        "        return inner\n"
    )
    build(repo, {"m.py": wrapped})
    drawn = repo.pairs("calls")
    assert ("m.is_time", "m.logged.inner") in drawn
    assert ("m.is_time", "m.is_time") in drawn


def test_a_decorator_handing_its_function_to_an_outside_call_is_no_certain_identity(
    repo: Repo,
) -> None:
    build(
        repo, {"m.py": "    import registry\n" + CHECKERS.replace("HANDED", "registry.add(func)")}
    )
    assert ("m.is_time", "m.is_datetime") not in repo.certain("calls")


def test_a_decorator_handing_its_function_to_an_instance_it_makes_draws_no_call_of_it(
    repo: Repo,
) -> None:
    # anyio's ``cache``: ``_LRUCacheWrapper(...)(func)`` is known before solving to call an
    # instance (its ``__call__`` returns a wrapper), so ``cache`` is kept out of the rule
    source = """
        class Cached:
            def __init__(self, size):
                self.size = size

            def __call__(self, func):
                def wrapper(*args):
                    return func(*args)

                return wrapper


        def cache(func):
            return Cached(None)(func)


        @cache
        def load(x):
            return x


        load(1)
    """
    build(repo, {"m.py": source})
    assert ("m", "m.Cached.__call__.wrapper") in repo.certain("calls")
    assert ("m", "m.load") not in repo.pairs("calls")
