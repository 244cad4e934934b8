"""A method replaced on the instances some code hands out (kombu's ``Resource.acquire`` sets
``R.release = release`` on each connection it gives) shadows the class's method on those
instances only: a call on an instance copies of the replaced one reach draws the replacement,
a call on one made elsewhere the class's method, and the other target of each is partial."""

from __future__ import annotations

import textwrap
from pathlib import Path

from map_helpers import Repo
from test_incremental import fresh, snapshot

POOL = textwrap.dedent(
    """
    class Connection:
        def release(self):
            return "closed"

    class Pool:
        def __init__(self):
            self.free = [Connection()]

        def acquire(self):
            conn = self.free.pop()

            def release():
                self.free.append(conn)

            conn.release = release
            return conn

    def pooled():
        conn = Pool().acquire()
        conn.release()

    def direct():
        conn = Connection()
        return conn.release()

    pooled()
    direct()
    """
).lstrip("\n")


def test_a_method_replaced_on_pooled_instances_is_certain_only_where_they_are_read(
    repo: Repo,
) -> None:
    repo.write({"m.py": POOL}).build()
    certain, drawn = repo.certain("calls"), repo.pairs("calls")
    assert ("m.pooled", "m.Pool.acquire.release") in certain
    assert ("m.direct", "m.Connection.release") in certain
    # the other choice at each call is kept, as partial
    assert ("m.direct", "m.Pool.acquire.release") in drawn - certain
    assert ("m.pooled", "m.Connection.release") in drawn - certain


def test_a_method_a_test_replaces_on_its_own_instance_is_the_replacement_where_called(
    repo: Repo,
) -> None:
    repo.write(
        {
            "m.py": """
            class Connection:
                def release(self): pass
            def fake(): pass
            def run(conn):
                conn.release()
            def test():
                conn = Connection()
                conn.release = fake
                run(conn)
            def other():
                Connection().release()
            """
        }
    ).build()
    certain = repo.certain("calls")
    assert ("m.run", "m.fake") in certain
    assert ("m.run", "m.Connection.release") not in certain
    assert ("m.other", "m.Connection.release") in certain
    assert ("m.other", "m.fake") not in certain


def test_a_method_replaced_through_self_in_the_constructor_is_no_replaced_methods_concern(
    repo: Repo,
) -> None:
    # self is reached from callers by values, not copies: replaced.py leaves it alone, and as
    # only the instances made with ``fast`` get it, the call may run either (``shadowed.py``)
    repo.write(
        {
            "m.py": """
            class Connection:
                def __init__(self, fast):
                    if fast:
                        self.release = self.quick
                def release(self): pass
                def quick(self): pass
                def close(self):
                    self.release()
            Connection(True).close()
            """
        }
    ).build()
    certain, drawn = repo.certain("calls"), repo.pairs("calls")
    assert ("m.Connection.close", "m.Connection.quick") in drawn - certain
    assert ("m.Connection.close", "m.Connection.release") in drawn - certain


def test_an_edit_reading_a_replaced_method_solves_the_whole_program_and_equals_a_fresh_map(
    repo: Repo, tmp_path: Path
) -> None:
    # which instances the replacement reaches is told by copy edges a continuation lacks
    repo.write({"m.py": POOL, "other.py": "def later():\n    pass\n"}).build()
    edited = "from m import Pool\ndef later():\n    Pool().acquire().release()\n"
    report = repo.write({"other.py": edited}).build()
    assert report.solves == (
        "python: the edit reads or sets a method replaced on instances",
        "python: whole program",
    )
    assert ("other.later", "m.Pool.acquire.release") in repo.certain("calls")
    repo.close()
    assert snapshot(repo.index_dir) == fresh(repo, tmp_path)
