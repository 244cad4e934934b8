"""React's hooks call the functions they are given, known by the ``react`` import they are
bound to (``library.PACKAGE_CALLBACKS``), never by their name alone."""

from __future__ import annotations

from map_helpers import Repo, build


def test_functions_handed_to_reacts_hooks_are_called_by_the_component(repo: Repo) -> None:
    build(
        repo,
        {
            "Page.jsx": """
                import React, { useEffect, useMemo, useReducer } from "react";
                import * as R from "react";
                function track() {}
                function compute() {}
                function reducer(s, a) { return s; }
                function init(n) { return n; }
                function measure() {}
                export function Page() {
                  useEffect(() => { track(); }, []);
                  const v = useMemo(compute, []);
                  const [n] = useReducer(reducer, 0, init);
                  React.useLayoutEffect(measure);
                  R.useState(init);
                  return <p>{v}{n}</p>;
                }
            """
        },
    )
    assert repo.certain("calls") == {
        ("Page.Page", "Page.Page.<arrow>"),
        ("Page.Page.<arrow>", "Page.track"),
        ("Page.Page", "Page.compute"),
        ("Page.Page", "Page.reducer"),
        ("Page.Page", "Page.init"),
        ("Page.Page", "Page.measure"),
    }


def test_a_function_of_the_repository_named_like_a_hook_does_not_call_its_argument(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "hooks.js": "export function useEffect(f) { return f; }\n",
            "Page.jsx": """
                import { useEffect } from "./hooks";
                function track() {}
                export function Page() {
                  useEffect(track);
                  return null;
                }
            """,
        },
    )
    assert repo.pairs("calls") == {("Page.Page", "hooks.useEffect")}


def test_calling_what_use_callback_gives_back_calls_the_function_it_was_given(repo: Repo) -> None:
    # useCallback calls nothing itself: it hands its function back, kept across renders.
    build(
        repo,
        {
            "Form.jsx": """
                import { useCallback } from "react";
                function save() {}
                export function Form() {
                  const onSubmit = useCallback(() => { save(); }, []);
                  const onReset = useCallback(save, []);
                  onSubmit();
                  onReset();
                  return null;
                }
            """
        },
    )
    assert repo.certain("calls") == {
        ("Form.Form", "Form.Form.<arrow>"),
        ("Form.Form.<arrow>", "Form.save"),
        ("Form.Form", "Form.save"),
    }
