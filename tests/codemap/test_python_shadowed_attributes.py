"""An instance's own attribute hides what its class binds under that name on the instances that
have it: set on some instances only (cachetools' ``Cache.__init__`` sets ``self.getsizeof``
only when one is given), a call through it may run either, so neither is certain; set on every
instance by ``__init__``, the stored one is certain and the class's is not. A caching
descriptor (mako's ``memoized_property``) stores into the instance's ``__dict__``, so a read of
an object the same function read before never runs its ``__get__`` again."""

from __future__ import annotations

from pathlib import Path

from map_helpers import Repo
from test_incremental import fresh, snapshot

CACHE = """
class Cache:
    def __init__(self, maxsize, getsizeof=None):
        if getsizeof:
            self.getsizeof = getsizeof
        self.maxsize = maxsize

    @staticmethod
    def getsizeof(value):
        return 1

def weigh(value):
    return len(value)

def defaults():
    cache = Cache(1)
    return cache.getsizeof(None)

def sized():
    return Cache(3, weigh).maxsize
"""

MEMOIZED = """
class memoized_property:
    def __init__(self, fget):
        self.fget = fget
        self.__name__ = fget.__name__

    def __get__(self, obj, cls):
        if obj is None:
            return self
        obj.__dict__[self.__name__] = result = self.fget(obj)
        return result

class Template:
    @memoized_property
    def cache(self):
        return 1

    def warm(self):
        return self.cache

def install(template):
    return template.cache

def again():
    t = Template()
    install(t)
    return t.cache

def after_a_method():
    t = Template()
    t.warm()
    return t.cache

def once(t, other):
    other.cache
    t.warm
    return t.cache

once(Template(), Template())
"""


def test_a_callback_set_on_some_instances_only_is_no_certain_target_nor_the_method_it_hides(
    repo: Repo,
) -> None:
    repo.write({"m.py": CACHE}).build()
    certain, drawn = repo.certain("calls"), repo.pairs("calls")
    assert ("m.defaults", "m.weigh") in drawn - certain
    assert ("m.defaults", "m.Cache.getsizeof") in drawn - certain


def test_a_callback_every_init_sets_is_certain_and_the_method_it_hides_is_not(
    repo: Repo,
) -> None:
    every = CACHE.replace(
        "        if getsizeof:\n            self.getsizeof", "        self.getsizeof"
    )
    repo.write({"m.py": every}).build()
    certain, drawn = repo.certain("calls"), repo.pairs("calls")
    assert ("m.defaults", "m.weigh") in certain
    assert ("m.defaults", "m.Cache.getsizeof") in drawn - certain


def test_a_callback_set_on_some_instances_over_a_class_none_stays_certain(repo: Repo) -> None:
    # (where the class holds None, a call through the attribute runs what an instance was given)
    plain = CACHE.replace(
        "    @staticmethod\n    def getsizeof(value):\n        return 1\n", "    getsizeof = None\n"
    )
    repo.write({"m.py": plain}).build()
    assert ("m.defaults", "m.weigh") in repo.certain("calls")


def test_a_caching_descriptor_read_again_in_one_function_runs_its_get_on_some_runs_only(
    repo: Repo,
) -> None:
    repo.write({"m.py": MEMOIZED}).build()
    certain, drawn = repo.certain("calls"), repo.pairs("calls")
    get = "m.memoized_property.__get__"
    assert ("m.install", get) in certain  # read once there
    assert ("m.Template.warm", get) in certain
    assert ("m.once", get) in certain  # another object, and another attribute, read first
    assert ("m.again", get) in drawn - certain  # install(t) read it first
    assert ("m.after_a_method", get) in drawn - certain  # t.warm() read it first


def test_an_edit_to_a_function_reading_a_shadowed_attribute_equals_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    start = (
        "from m import Cache, Template, install\n"
        "def later():\n"
        "    t = Template()\n"
        "    cache = Cache(2)\n"
    )
    repo.write({"m.py": CACHE + MEMOIZED, "other.py": start}).build()
    edited = start + "    install(t)\n    t.cache\n    cache.getsizeof(None)\n"
    repo.write({"other.py": edited}).build()
    certain, drawn = repo.certain("calls"), repo.pairs("calls")
    assert ("other.later", "m.memoized_property.__get__") in drawn - certain
    assert ("other.later", "m.weigh") in drawn - certain
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
