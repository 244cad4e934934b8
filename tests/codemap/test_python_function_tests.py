"""A decorator that returns one wrapper or another by a test of the function it gets (starlette's
``requires``: ``is_async_callable(func)``, ``inspect.signature(func)``): each wrapper calls only
the functions that took its branch, and a decorated function is its own wrapper for certain."""

from __future__ import annotations

from map_helpers import Repo, build

_REQUIRES = """
    import inspect
    from app.utils import is_async_callable

    def requires(func):
        if "websocket" in inspect.signature(func).parameters:
            async def websocket_wrapper(websocket):
                await func(websocket)
            return websocket_wrapper
        elif is_async_callable(func):
            async def async_wrapper(request):
                return await func(request)
            return async_wrapper
        else:
            def sync_wrapper(request):
                return func(request)
            return sync_wrapper
"""

_VIEWS = """
    from app.auth import requires

    @requires
    async def feed(websocket):
        pass

    @requires
    async def home(request):
        pass

    @requires
    def page(request):
        pass

    async def run():
        await feed("w")
        await home("r")
        page("r")
"""


def test_each_wrapper_chosen_by_a_test_of_the_function_calls_only_the_functions_it_wraps(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app/__init__.py": "",
            "app/utils.py": "import inspect\nis_async_callable = inspect.iscoroutinefunction\n",
            "app/auth.py": _REQUIRES,
            "app/views.py": _VIEWS,
        },
    )
    certain = repo.certain("calls")
    wrapper = "app.auth.requires."
    for pair in (
        (wrapper + "websocket_wrapper", "app.views.feed"),
        (wrapper + "async_wrapper", "app.views.home"),
        (wrapper + "sync_wrapper", "app.views.page"),
        ("app.views.run", wrapper + "websocket_wrapper"),
        ("app.views.run", wrapper + "async_wrapper"),
        ("app.views.run", wrapper + "sync_wrapper"),
    ):
        assert pair in certain, pair
    pairs = repo.pairs("calls")
    for pair in (
        (wrapper + "websocket_wrapper", "app.views.home"),
        (wrapper + "websocket_wrapper", "app.views.page"),
        (wrapper + "async_wrapper", "app.views.feed"),  # (the first test took it)
        (wrapper + "async_wrapper", "app.views.page"),
        (wrapper + "sync_wrapper", "app.views.feed"),
        (wrapper + "sync_wrapper", "app.views.home"),
    ):
        assert pair not in pairs, pair


def test_a_value_the_test_cannot_be_read_on_reaches_every_wrapper_as_a_choice(
    repo: Repo,
) -> None:
    # An instance with __call__ (or a partial, or anything from outside) may give either
    # answer: both wrappers may be returned for it and may call it.
    build(
        repo,
        {
            "m.py": """
                import inspect

                def guard(func):
                    if not inspect.iscoroutinefunction(func):
                        def sync_wrapper():
                            return func()
                        return sync_wrapper
                    async def async_wrapper():
                        return await func()
                    return async_wrapper

                class Handler:
                    def __call__(self):
                        pass

                def plain():
                    pass

                handler = guard(Handler())
                view = guard(plain)

                def run_handler():
                    handler()

                def run_view():
                    view()
            """
        },
    )
    certain, pairs = repo.certain("calls"), repo.pairs("calls")
    assert ("m.run_handler", "m.guard.sync_wrapper") in pairs - certain
    assert ("m.run_handler", "m.guard.async_wrapper") in pairs - certain
    assert ("m.run_view", "m.guard.sync_wrapper") in certain
    assert ("m.run_view", "m.guard.async_wrapper") not in pairs
    assert ("m.guard.sync_wrapper", "m.Handler.__call__") in pairs
    assert ("m.guard.async_wrapper", "m.Handler.__call__") in pairs
    assert ("m.guard.sync_wrapper", "m.plain") in certain
    assert ("m.guard.async_wrapper", "m.plain") not in pairs


def test_a_wrapper_calls_what_a_parameter_is_bound_to_after_the_test(repo: Repo) -> None:
    # The wrapper reads the name when it runs: after ``func = other`` it calls ``other``, not
    # what passed the test.
    build(
        repo,
        {
            "m.py": """
                import inspect

                def guard(func, other):
                    if inspect.iscoroutinefunction(func):
                        async def async_wrapper():
                            return await func()
                        func = other
                        return async_wrapper
                    def sync_wrapper():
                        return func()
                    return sync_wrapper

                async def fetch():
                    pass

                def plain():
                    pass

                guard(fetch, plain)
                guard(plain, fetch)
            """
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.guard.async_wrapper", "m.plain") in pairs
    assert ("m.guard.sync_wrapper", "m.plain") in pairs


def test_a_wrapper_outside_the_tested_branches_calls_every_function_for_certain(
    repo: Repo,
) -> None:
    # Only a function defined in a branch sees what passed its test; one defined before the
    # test, or in a branch on something else (starlette's ``if type_ == "websocket"``), sees
    # the parameter itself: every function, with no choice among them.
    build(
        repo,
        {
            "m.py": """
                import inspect

                def guard(func, kind):
                    def logged():
                        return func()
                    if kind == "ws":
                        def socket_wrapper():
                            return func()
                        return socket_wrapper
                    elif inspect.iscoroutinefunction(func):
                        return logged
                    else:
                        return logged

                async def fetch():
                    pass

                def plain():
                    pass

                guard(fetch, "ws")
                guard(plain, "http")
            """
        },
    )
    certain = repo.certain("calls")
    for wrapper in ("m.guard.logged", "m.guard.socket_wrapper"):
        assert (wrapper, "m.fetch") in certain, wrapper
        assert (wrapper, "m.plain") in certain, wrapper
