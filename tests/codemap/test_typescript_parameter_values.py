"""Values a parameter is handed when it is destructured or a rest, a promise's callback is
given, an array named before ``Promise.all`` and a setter written through ``super``."""

from __future__ import annotations

from map_helpers import Repo, build


def test_array_rest_and_defaulted_object_parameters_hold_what_callers_give(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                function first([head]) { head(); }
                function rest(...fns) { fns[0](); }
                function options({ cb } = { cb: one }) { cb(); }
                export function run() { first([one]); rest(one); options({ cb: one }); }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.first", "main.one") in certain
    assert ("main.rest", "main.one") in certain
    assert ("main.options", "main.one") in certain


def test_a_then_callback_is_given_what_the_async_functions_call_returns(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                async function fetcher() { return one; }
                export function run() { return fetcher().then(f => f()); }
            """,
        },
    )
    assert ("main.run.<arrow>", "main.one") in repo.certain("calls")


def test_promise_all_of_a_named_array_gives_each_items_value_awaited(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                async function fetcher() { return one; }
                export async function run() {
                  const ps = [fetcher()];
                  const [a] = await Promise.all(ps);
                  a();
                }
            """,
        },
    )
    assert ("main.run", "main.one") in repo.certain("calls")


def test_a_member_written_through_super_runs_the_base_classs_setter(repo: Repo) -> None:
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                class A { set v(x) { one(); } }
                class B extends A {
                  constructor() { super(); super.v = 3; }
                  static make() { super.v = 4; }
                }
                export function run() { return new B(); }
            """,
        },
    )
    assert ("main.B.constructor", "main.A.v") in repo.certain("calls")
    # a static method's super is the class A, whose own (static) v is not this setter
    assert ("main.B.make", "main.A.v") not in repo.pairs("calls")


def test_a_patterned_parameter_left_out_holds_its_defaults_member_or_element(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "main.js": """
                function one() { return 1; }
                function two() { return 2; }
                function options({ cb } = { cb: one }) { cb(); }
                function first([head] = [two]) { head(); }
                export function run() { options(); first(); }
            """,
        },
    )
    certain = repo.certain("calls")
    assert ("main.options", "main.one") in certain
    assert ("main.first", "main.two") in certain
