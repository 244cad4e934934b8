"""A dunder that syntax or a built-in runs (a truth test, an operator, a subscript, a loop) is a
certain edge only when it runs on every value that may reach its operand there; a value set
merged through a shared return value, container or ``x or {}`` makes it partial (and the site
unresolved), never certain. The shapes are those found drawn wrongly in requests and starlette."""

from __future__ import annotations

from map_helpers import Repo, build, calls

from groundkit.codemap.model import EdgeFlag


def test_a_truth_test_on_a_value_merged_through_a_shared_return_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Settings:
                    def __init__(self, data): self.data = data
                    def __len__(self): return len(self.data)
                def merge(request, session, factory=dict):
                    if request is None:
                        return session
                    return factory(request)
                def prepare(auth):
                    auth = merge(auth, None)
                    if auth:
                        return 1
                headers = merge({"a": "1"}, None, factory=Settings)
                prepare({"user": "pass"})
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.prepare", "m.Settings.__len__").flags


def test_a_comparison_on_a_slot_another_call_filled_with_a_class_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Route:
                    def __eq__(self, other): return other is self
                def message(value):
                    return {"type": value}
                def handle(scope):
                    if scope["type"] == "lifespan":
                        return 1
                routes = message(Route())
                handle(message("http"))
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.handle", "m.Route.__eq__").flags


def test_or_default_then_a_truth_test_is_partial_and_counts_as_unresolved(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Hooks:
                    def __len__(self): return 1
                def prepare(hooks=None):
                    hooks = hooks or {}
                    if hooks:
                        return 1
                prepare({"response": []})
                prepare(Hooks())
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.prepare", "m.Hooks.__len__").flags
    assert repo.report is not None
    assert repo.report.unresolved_calls == 2


def test_a_loop_over_a_value_one_call_made_a_list_and_another_a_class_is_partial(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Batch:
                    def __iter__(self): return iter([])
                def pick(first, second):
                    return first if isinstance(first, list) else second
                def count(rows):
                    for _ in rows:
                        pass
                batch = pick(None, Batch())
                count(pick([1], None))
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.count", "m.Batch.__iter__").flags


def test_a_choice_between_parameters_by_a_flag_gives_each_call_its_own_arguments(
    repo: Repo,
) -> None:
    # (each side of ``a if flag else b`` is a return of its own, parse/flags.py: a return
    # of a parameter gives back what the call passed, so the Batch never reaches count)
    build(
        repo,
        {
            "m.py": """
                class Batch:
                    def __iter__(self): return iter([])
                def pick(first, second):
                    return first if first is not None else second
                def count(rows):
                    for _ in rows:
                        pass
                batch = pick(None, Batch())
                count(pick([1], None))
            """
        },
    )
    assert ("m.count", "m.Batch.__iter__") not in repo.pairs("calls")


def test_a_dunder_every_value_of_the_operand_finds_stays_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Stack:
                    def __len__(self): return 1
                class Queue:
                    def __len__(self): return 0
                def empty(box):
                    if box:
                        return False
                    return len(box) == 0
                empty(Stack())
                empty(Queue())
            """
        },
    )
    for target in ("m.Stack.__len__", "m.Queue.__len__"):
        assert EdgeFlag.PARTIAL not in calls(repo, "m.empty", target).flags
    assert repo.report is not None
    assert repo.report.unresolved_calls == 0


def test_a_truth_test_on_a_parameter_whose_none_default_some_call_keeps_is_partial(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Headers:
                    def __len__(self): return 0
                class Upload:
                    def __init__(self, headers=None):
                        self.headers = headers or Headers()
                def parse():
                    return Upload(headers=Headers())
                def blank():
                    return Upload()
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.Upload.__init__", "m.Headers.__len__").flags


def test_a_comparison_on_a_value_one_call_passes_as_none_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Token:
                    def __eq__(self, other): return other == "a"
                def matches(token, text):
                    return token == text
                matches(Token(), "a")
                matches(None, "a")
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.matches", "m.Token.__eq__").flags


def test_a_truth_test_on_a_parameter_every_call_fills_stays_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Headers:
                    def __len__(self): return 0
                def send(headers=None):
                    if headers:
                        return 1
                send(Headers())
                send(headers=Headers())
            """
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "m.send", "m.Headers.__len__").flags


def test_a_subscript_on_an_attribute_first_set_to_none_stays_certain(repo: Repo) -> None:
    # Subscripting None raises: where the subscript runs, the attribute is the table.
    build(
        repo,
        {
            "m.py": """
                class Table:
                    def __getitem__(self, key): return key
                class Cache:
                    def __init__(self):
                        self.table = None
                    def get(self, key):
                        if self.table is None:
                            self.table = Table()
                        return self.table[key]
                Cache().get("a")
            """
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "m.Cache.get", "m.Table.__getitem__").flags


def test_the_last_operand_of_or_is_not_asked_whether_it_is_true(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Fallback:
                    def __len__(self): return 0
                def pick(given):
                    return given or Fallback()
                def check(given):
                    if given or Fallback():
                        return 1
                pick({"a": 1})
                check({"a": 1})
            """
        },
    )
    assert ("m.pick", "m.Fallback.__len__") not in repo.pairs("calls")
    # `if given or Fallback():` asks Fallback() where given is false: always a Fallback there
    assert EdgeFlag.PARTIAL not in calls(repo, "m.check", "m.Fallback.__len__").flags


def test_an_attribute_set_through_object_setattr_runs_no_getattr_fallback(repo: Repo) -> None:
    # starlette's State: __init__ stores _state past its own __setattr__, and __setattr__,
    # __getattr__ and __delattr__ read self._state, which is found without __getattr__.
    build(
        repo,
        {
            "m.py": """
                class State:
                    def __init__(self, state=None):
                        super().__setattr__("_state", state or {})
                    def __setattr__(self, key, value):
                        self._state[key] = value
                    def __getattr__(self, key):
                        return self._state[key]
                class Frozen:
                    def __init__(self, rows):
                        object.__setattr__(self, "rows", rows)
                    def __getattr__(self, key):
                        return key
                    def count(self):
                        return len(self.rows)
                state = State()
                state.user = "x"
                print(state.user, Frozen([1]).count())
            """
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.State.__setattr__", "m.State.__getattr__") not in pairs
    assert ("m.State.__getattr__", "m.State.__getattr__") not in pairs
    assert ("m.Frozen.count", "m.Frozen.__getattr__") not in pairs


def test_an_attribute_stored_through_the_instance_dict_runs_no_getattr_fallback(
    repo: Repo,
) -> None:
    # tornado's OptionParser: __init__ stores its fields with self.__dict__["_options"] = {}
    # (its own __setattr__ is overridden); a read of self._options finds the field and never
    # reaches __getattr__. vars(self)[...] is the same dict.
    build(
        repo,
        {
            "m.py": """
                class Options:
                    def __init__(self):
                        self.__dict__["_values"] = {"port": 80}
                    def __setattr__(self, name, value):
                        self._values[name] = value
                    def __getattr__(self, name):
                        return self._values[name]
                    def names(self):
                        return sorted(self._values)
                class Plain:
                    def __init__(self, rows):
                        vars(self)["rows"] = rows
                    def __getattr__(self, key):
                        return key
                    def count(self):
                        return len(self.rows)
                    def other(self):
                        return self.missing
                print(Options().names(), Plain([1]).count(), Plain([]).other())
            """
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.Options.names", "m.Options.__getattr__") not in pairs
    assert ("m.Options.__setattr__", "m.Options.__getattr__") not in pairs
    assert ("m.Options.__getattr__", "m.Options.__getattr__") not in pairs
    assert ("m.Plain.count", "m.Plain.__getattr__") not in pairs
    # a name nothing stores still falls back to __getattr__
    assert ("m.Plain.other", "m.Plain.__getattr__") in repo.certain("calls")


def test_an_isinstance_test_leaves_out_the_classes_that_cannot_pass_it(repo: Repo) -> None:
    # arrow's Arrow.humanize: under `elif isinstance(other, dt_datetime)` other is a datetime,
    # never an Arrow. An abstract class (Iterable) asks its own test, so it leaves out nothing.
    build(
        repo,
        {
            "m.py": """
                from collections.abc import Iterable
                from datetime import datetime
                class Moment:
                    def astimezone(self):
                        return self
                class Rows:
                    def __iter__(self):
                        return iter([])
                    def first(self):
                        return 1
                class Base:
                    def name(self):
                        return "b"
                class Child(Base):
                    def name(self):
                        return "c"
                class Other:
                    def name(self):
                        return "o"
                def since(other):
                    if isinstance(other, Moment):
                        return 0
                    elif isinstance(other, datetime):
                        return other.astimezone()
                def walk(items):
                    if isinstance(items, Iterable):
                        return items.first()
                def named(x):
                    if isinstance(x, Base) and x:
                        return x.name()
                since(Moment())
                since(datetime.now())
                walk(Rows())
                named(Child())
                named(Other())
            """
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.since", "m.Moment.astimezone") not in pairs
    assert ("m.walk", "m.Rows.first") in repo.certain("calls")
    assert ("m.named", "m.Child.name") in pairs
    assert ("m.named", "m.Other.name") not in pairs


def test_an_isinstance_test_leaves_out_nothing_where_a_class_has_its_own_instance_check(
    repo: Repo,
) -> None:
    # django's EmptyQuerySet: its metaclass's __instancecheck__ passes querysets, which do not
    # derive from it.
    build(
        repo,
        {
            "m.py": """
                class Check(type):
                    def __instancecheck__(cls, obj):
                        return True
                class Empty(metaclass=Check):
                    pass
                class Rows:
                    def first(self):
                        return 1
                def run(x):
                    if isinstance(x, Empty):
                        return x.first()
                run(Rows())
            """
        },
    )
    assert ("m.run", "m.Rows.first") in repo.pairs("calls")


def test_a_parameter_returned_under_an_isinstance_test_is_still_each_call_s_own(
    repo: Repo,
) -> None:
    # `return x` under `if isinstance(x, Base):` still returns the parameter: each call gets
    # back what it passed, not every caller's argument.
    build(
        repo,
        {
            "m.py": """
                class Base:
                    def name(self):
                        return "b"
                class Child(Base):
                    def name(self):
                        return "c"
                def checked(x):
                    if isinstance(x, Base):
                        return x
                    raise TypeError(x)
                def first():
                    return checked(Base()).name()
                def second():
                    return checked(Child()).name()
                first()
                second()
            """
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.first", "m.Base.name") in pairs
    assert ("m.first", "m.Child.name") not in pairs
    assert ("m.second", "m.Child.name") in pairs


def test_a_truth_test_on_what_may_fall_off_a_function_s_end_is_partial(repo: Repo) -> None:
    # find() returns None when no row matches: `if found:` runs Hit.__len__ on some runs only.
    # first() never ends but by its return (a `while True` without break): stays certain.
    build(
        repo,
        {
            "m.py": """
                class Hit:
                    def __len__(self): return 1
                def find(rows):
                    for row in rows:
                        if row:
                            return Hit()
                def first(rows):
                    while True:
                        if rows:
                            return Hit()
                def check(rows):
                    found = find(rows)
                    if found:
                        return 1
                def check_first(rows):
                    if first(rows):
                        return 1
                check([0, 1])
                check_first([1])
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.check", "m.Hit.__len__").flags
    assert EdgeFlag.PARTIAL not in calls(repo, "m.check_first", "m.Hit.__len__").flags


def test_a_local_shown_not_none_by_its_if_runs_the_dunder_for_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Problem:
                    def __str__(self): return "problem"
                def describe(error=None):
                    if error is not None:
                        return str(error)
                    return "fine"
                def check(error=None):
                    if error is None:
                        return "fine"
                    return str(error)
                def loose(error=None):
                    return str(error)
                for f in (describe, check, loose):
                    f(Problem())
                    f()
            """
        },
    )
    for guarded in ("m.describe", "m.check"):
        assert EdgeFlag.PARTIAL not in calls(repo, guarded, "m.Problem.__str__").flags
    assert EdgeFlag.PARTIAL in calls(repo, "m.loose", "m.Problem.__str__").flags


def test_a_parameter_returned_after_its_none_test_still_gives_each_call_its_own(
    repo: Repo,
) -> None:
    # requests' merge_setting: `if x is None: return y` then `return x`; the narrowed x is
    # still the parameter, so each call gets back what it passed, not every call's value.
    build(
        repo,
        {
            "m.py": """
                class A:
                    def run(self): return 1
                class B:
                    def run(self): return 2
                def pick(given, fallback=None):
                    if given is None:
                        return fallback
                    return given
                def use_a():
                    return pick(A()).run()
                def use_b():
                    return pick(B()).run()
            """
        },
    )
    assert ("m.use_a", "m.B.run") not in repo.pairs("calls")
    assert ("m.use_a", "m.A.run") in repo.pairs("calls")


def test_a_truth_test_on_what_dict_get_gives_without_a_default_is_partial(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Hook:
                    def __len__(self): return 1
                HOOKS = {"save": Hook()}
                def run(name):
                    hook = HOOKS.get(name)
                    if hook:
                        return 1
                def run_or_default(name):
                    hook = HOOKS.get(name, Hook())
                    if hook:
                        return 1
                run("save")
                run_or_default("load")
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.run", "m.Hook.__len__").flags
    assert EdgeFlag.PARTIAL not in calls(repo, "m.run_or_default", "m.Hook.__len__").flags


def test_an_edge_certain_at_one_of_its_sites_shows_that_site(repo: Repo) -> None:
    # starlette's CORSMiddleware.__call__ -> Response.__call__: partial at `await self.app(...)`
    # (any app may be there), certain at `await response(...)` further down. The edge is
    # certain, so the place it quotes is where it is.
    build(
        repo,
        {
            "m.py": """
                import json
                class Response:
                    async def __call__(self, scope): return scope
                class Cors:
                    def __init__(self, app): self.app = app
                    async def __call__(self, scope):
                        if scope:
                            await self.app(scope)
                            return
                        response = Response()
                        await response(scope)
                Cors(Response())
                Cors(json.loads("{}"))
            """
        },
    )
    edge = calls(repo, "m.Cors.__call__", "m.Response.__call__")
    assert (EdgeFlag.PARTIAL in edge.flags, edge.sites) == (False, 2)
    assert (edge.location.line, edge.quote) == (11, "await response(scope)")


_FACTORY = """
    class Key:
        def __init__(self, name=None):
            self.name = name
        @classmethod
        def load(cls, name):
            key = cls(name=name)
            return key
        def sign(self):
            return False
    class RSAKey(Key):
        def sign(self):
            return True
    class ECKey(Key):
        def sign(self):
            return self.name
"""


def test_a_classmethod_returning_cls_gives_each_call_an_instance_of_the_class_it_names(
    repo: Repo,
) -> None:
    # paramiko's PKey.from_private_key_file: RSAKey.from_...(...) is an RSAKey, not any key.
    build(
        repo,
        {
            "m.py": _FACTORY
            + """
    class Loader(RSAKey):
        @classmethod
        def load(cls, name):
            return super().load(name)
    def rsa():
        return RSAKey.load("a").sign()
    def ec():
        return ECKey().load("b").sign()
    def loader():
        return Loader.load("c").sign()
"""
        },
    )
    certain = repo.certain("calls")
    assert ("m.rsa", "m.RSAKey.sign") in certain
    assert ("m.ec", "m.ECKey.sign") in certain
    assert ("m.Key.load", "m.Key.__init__") in certain
    pairs = repo.pairs("calls")
    assert ("m.rsa", "m.ECKey.sign") not in pairs
    assert ("m.ec", "m.RSAKey.sign") not in pairs
    # (super().load passes the cls of Loader.load, which the map holds as Loader's cone too:
    # that call gives an instance of the cone, test below)
    assert ("m.loader", "m.RSAKey.sign") in pairs


def test_a_classmethod_returning_cls_reached_through_super_gives_an_instance_of_the_cone(
    repo: Repo,
) -> None:
    # RSAKey.load overrides Key.load and passes its own cls on: super().load(...) makes an
    # RSAKey (or a subclass's instance), not the instance of every class Key.load is sent.
    build(
        repo,
        {
            "m.py": _FACTORY.replace(
                "class RSAKey(Key):\n",
                "class RSAKey(Key):\n"
                "        @classmethod\n"
                "        def load(cls, name):\n"
                "            return super().load(name)\n",
            )
            + """
    def rsa():
        return RSAKey.load("a").sign()
    def ec():
        return ECKey.load("b").sign()
"""
        },
    )
    certain, pairs = repo.certain("calls"), repo.pairs("calls")
    assert ("m.rsa", "m.RSAKey.sign") in certain
    assert ("m.ec", "m.ECKey.sign") in certain
    assert ("m.rsa", "m.ECKey.sign") not in pairs
    assert ("m.rsa", "m.Key.sign") not in pairs


def test_a_classmethod_returning_cls_and_something_else_gives_both_as_a_choice(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": _FACTORY.replace(
                "            return key\n",
                "            if name:\n                return key\n            return Plain()\n",
            )
            + """
    class Plain:
        def sign(self):
            return None
    def rsa():
        return RSAKey.load("a").sign()
    def ec():
        return ECKey.load("b").sign()
"""
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.rsa", "m.ECKey.sign") not in pairs
    assert EdgeFlag.PARTIAL in calls(repo, "m.rsa", "m.RSAKey.sign").flags
    assert EdgeFlag.PARTIAL in calls(repo, "m.rsa", "m.Plain.sign").flags


def test_a_classmethod_returning_cls_keeps_every_class_where_a_new_along_the_mro_may_decide(
    repo: Repo,
) -> None:
    new = "class Key:\n        def __new__(cls, *a, **k):\n            return object.__new__(cls)\n"
    build(
        repo,
        {
            "m.py": _FACTORY.replace("class Key:\n", new)
            + """
    def rsa():
        return RSAKey.load("a").sign()
    def ec():
        return ECKey.load("b").sign()
"""
        },
    )
    assert ("m.rsa", "m.ECKey.sign") in repo.pairs("calls")  # (as before: the merged return)


def test_a_classmethod_returning_cls_called_on_a_class_known_by_its_annotation_gives_its_cone(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": _FACTORY
            + """
    def rsa():
        return RSAKey.load("a").sign()
    def any_key(kind: type[Key]):
        return kind.load("b").sign()
    def each(key: Key):
        return key.load("c").sign()
"""
        },
    )
    pairs = repo.pairs("calls")
    assert ("m.rsa", "m.ECKey.sign") not in pairs
    for sign in ("m.Key.sign", "m.RSAKey.sign", "m.ECKey.sign"):
        assert ("m.each", sign) in pairs, sign


def test_a_classmethod_returning_cls_on_a_cone_with_a_new_keeps_every_class(repo: Repo) -> None:
    # A __new__ of the repository in the cone may return anything: the merged return stays.
    build(
        repo,
        {
            "m.py": _FACTORY.replace(
                "class RSAKey(Key):\n",
                "class RSAKey(Key):\n"
                "        @classmethod\n"
                "        def load(cls, name):\n"
                "            return super().load(name)\n",
            )
            + """
    class OddKey(RSAKey):
        def __new__(cls, *args, **kwargs):
            return object.__new__(cls)
    def rsa():
        return RSAKey.load("a").sign()
    def ec():
        return ECKey.load("b").sign()
"""
        },
    )
    assert ("m.rsa", "m.ECKey.sign") in repo.pairs("calls")  # (as before: the merged return)


# django's AppDirectoriesFinder shape: a class attribute set through a function (issue 34).
_FINDER = """
class Desc:
    def __get__(self, o, t): return len
class Finder:
    storage = None
    def run(self): return self.storage("x")
def configure(v): setattr(Finder, "storage", v)
"""


def test_a_descriptor_among_other_values_of_a_class_attribute_runs_its_get_partially(
    repo: Repo,
) -> None:
    build(repo, {"m.py": _FINDER + "configure(Desc()); configure(str); Finder().run()\n"})
    assert EdgeFlag.PARTIAL in calls(repo, "m.Finder.run", "m.Desc.__get__").flags


def test_a_descriptor_that_is_the_only_value_of_a_class_attribute_runs_its_get_for_certain(
    repo: Repo,
) -> None:
    build(repo, {"m.py": _FINDER + "configure(Desc()); Finder().run()\n"})
    assert EdgeFlag.PARTIAL not in calls(repo, "m.Finder.run", "m.Desc.__get__").flags


def test_a_descriptor_on_one_of_the_classes_a_receiver_holds_runs_its_get_partially(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Desc:
                    def __get__(self, o, t): return 1
                class Lazy:
                    value = Desc()
                class Plain:
                    value = 2
                def read(box): return box.value
                read(Lazy())
                read(Plain())
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.read", "m.Desc.__get__").flags


def test_a_descriptor_every_class_a_receiver_holds_shares_runs_its_get_for_certain(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Desc:
                    def __get__(self, o, t): return 1
                class Base:
                    value = Desc()
                class Left(Base): pass
                class Right(Base): pass
                def read(box): return box.value
                read(Left())
                read(Right())
            """
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "m.read", "m.Desc.__get__").flags


def test_a_descriptor_an_instance_attribute_may_shadow_runs_its_get_partially(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Desc:
                    def __get__(self, o, t): return 1
                class Box:
                    value = Desc()
                    def fill(self): self.value = 2
                    def read(self): return self.value
                box = Box()
                box.fill()
                box.read()
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.Box.read", "m.Desc.__get__").flags


def test_a_property_among_other_values_of_a_class_attribute_runs_its_getter_partially(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": _FINDER.replace("class Desc", "def getter(self): return len\nclass Desc")
            + "configure(property(getter)); configure(str); Finder().run()\n"
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.Finder.run", "m.getter").flags


def test_a_property_on_one_of_the_classes_a_receiver_holds_runs_its_getter_partially(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Lazy:
                    @property
                    def value(self): return 1
                class Plain:
                    value = 2
                def read(box): return box.value
                read(Lazy())
                read(Plain())
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.read", "m.Lazy.value").flags


def test_a_property_in_a_class_body_read_on_its_instance_runs_its_getter_for_certain(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Box:
                    def __init__(self): self.value = 2
                    @property
                    def value(self): return self._value
                    @value.setter
                    def value(self, v): self._value = v
                    def read(self): return self.value
                class Small(Box): pass
                Box().read()
                Small().read()
            """
        },
    )
    assert EdgeFlag.PARTIAL not in calls(repo, "m.Box.read", "m.Box.value").flags
    assert EdgeFlag.PARTIAL not in calls(repo, "m.Box.__init__", "m.Box.value").flags


def test_a_property_on_one_of_the_classes_a_receiver_holds_runs_its_setter_partially(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                class Lazy:
                    @property
                    def value(self): return 1
                    @value.setter
                    def value(self, v): pass
                class Plain:
                    value = 2
                def fill(box): box.value = 3
                fill(Lazy())
                fill(Plain())
            """
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.fill", "m.Lazy.value").flags
