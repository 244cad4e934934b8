"""A passage's units sit at exact offsets, whatever the text: what is cited is cut from it."""

from __future__ import annotations

import itertools

from hypothesis import example, given, settings
from hypothesis import strategies as st

from groundkit.answer.blocks import blocks
from groundkit.answer.units import units

PIECES = st.sampled_from(
    [
        "Set ``verify`` to False::\n\n    >>> get(url, verify=False)\n\n",
        "Title\n=====\n\n",
        "## Heading\n\n",
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
        "For example:\n\n```python\nclient = Client(timeout=5)\n```\n\n",
        "This one refers back. The above too.\n",
        "* a list item that says something.\n",
        ".. _label:\n\n.. note:: A note that matters.\n\n",
        "import os\nfrom x import y\n\n",
        "**name**`_.name(a, b)`\n        source\n\nDoes a thing to a list.\n\n",
        "## 1.2.0 (May 1, 2024)\n\n* Fixes a bug.\n\n",
        "Plain prose, hard wrapped\nover two lines.\n\n",
        "\n",
        " ",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join), st.booleans())
def test_every_unit_and_block_is_an_exact_trimmed_slice_in_reading_order(
    text: str, release: bool
) -> None:
    found = units(text, release=release)
    for u in found:
        quote = text[u.start : u.end]
        assert quote
        assert quote == quote.strip()
        assert u.start <= u.core[0] < u.core[1] <= u.end
        if u.lead is not None:
            assert u.lead[1] <= u.start
    # in reading order by the sentence each is weighed by (a unit that refers back is weighed on
    # what it refers to as well, so its core may start before the unit before it)
    assert [u.core[1] for u in found] == sorted(u.core[1] for u in found)
    parts = blocks(text)
    assert all(a.end <= b.start for a, b in itertools.pairwise(parts))


ODD = st.sampled_from(
    ["::", "::\n", "\n\n", "    x = 1\n", "```\n", "# H\n", "Title\n", "=====\n", "---\n",
     ". ", "...", "This.", "The above:", "For example:", ":\n", "| a |\n", "|---|\n", ">>> f()\n",
     "**n**`_.f(a)`\n", "* ", "import os\n", ".. _l:\n", ".. code-block:: python\n", " ",
     "\t", "word ", "\r\n", "## 1.0 (May 1, 2024)\n", "like this", "\u00a0"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(ODD, max_size=20).map("".join), st.text(max_size=200)), st.booleans())
# A code block's later piece began at its line's indentation (found by this test).
@example("```\n::\n" + "\n" * 10 + "    x = 1\n", False)
def test_any_passage_is_read_into_exact_slices_however_odd_its_parts(
    text: str, release: bool
) -> None:
    # Empty sentences, code alone, headings alone, a directive that ends the passage.
    for u in units(text, release=release):
        assert text[u.start : u.end] == text[u.start : u.end].strip() != ""
    for b in blocks(text):
        assert 0 <= b.start < b.end <= len(text)


def test_a_code_directive_that_ends_its_passage_is_a_block_of_its_own_line() -> None:
    text = "Run it like this.\n\n.. code-block:: python\n"
    assert [(b.kind, text[b.start : b.end]) for b in blocks(text)][-1] == (
        "code",
        ".. code-block:: python",
    )
    unindented = "Intro.\n\n.. code-block:: python\nNot its body.\n"
    assert [unindented[b.start : b.end] for b in blocks(unindented)][-1] == "Not its body."


def test_an_underlined_title_is_a_heading_and_its_underline_a_rule() -> None:
    text = "Session Objects\n---------------\n\nThe Session object persists cookies.\n"
    assert [(b.kind, text[b.start : b.end]) for b in blocks(text)] == [
        ("heading", "Session Objects"),
        ("rule", "---------------"),
        ("prose", "The Session object persists cookies."),
    ]


def test_a_title_underlined_with_tildes_is_a_heading_not_a_code_fence() -> None:
    # reStructuredText underlines a third-level title with ``~``, which is also how Markdown
    # opens a fence: read as a fence, the underline swallowed the section as code.
    text = (
        "Application Context\n~~~~~~~~~~~~~~~~~~~\n\n"
        "Commands added using the app's cli are run with a context.\n"
    )
    assert [(b.kind, text[b.start : b.end]) for b in blocks(text)] == [
        ("heading", "Application Context"),
        ("rule", "~~~~~~~~~~~~~~~~~~~"),
        ("prose", "Commands added using the app's cli are run with a context."),
    ]


def test_a_sentence_saying_this_after_another_under_a_heading_refers_to_that_sentence() -> None:
    text = (
        "Logging\n=======\n\n"
        "Messages about your application are logged with app.logger. This\n"
        "logger can also be used to log your own messages.\n"
    )
    said = [text[u.start : u.end] for u in units(text)]
    assert said[-1] == (
        "Messages about your application are logged with app.logger. This\n"
        "logger can also be used to log your own messages."
    )


def test_a_list_item_that_is_only_a_link_is_never_a_unit() -> None:
    # A table of contents names the section that answers, never the answer.
    text = (
        "- [Whenever I access my route, it sends back a 404](#whenever-i-access-my-route)\n"
        "- The default status for any response is 404.\n"
    )
    said = [text[u.start : u.end] for u in units(text)]
    assert said == ["- The default status for any response is 404."]


def test_a_sentence_referring_back_under_a_heading_never_reaches_above_the_heading() -> None:
    # Found by the property test above: "The above" took the code before the version heading,
    # so the heading cited before the unit sat inside it.
    text = (
        "Set ``verify`` to False::\n\n    >>> get(url, verify=False)\n\n"
        "## 1.2.0 (May 1, 2024)\n\n* Fixes a bug.\n\nThis one refers back. The above too.\n"
    )
    for u in units(text, release=True):
        assert u.lead is None or u.lead[1] <= u.start


def test_a_short_list_item_is_one_unit_with_all_its_sentences() -> None:
    # A bullet is one point: its second sentence says what its first means ("no longer
    # supported" is answered by "requires 3.10"), and one without the other is half of it.
    text = (
        "## Breaking changes\n\n"
        "- Python 3.9 is no longer supported. tidepool 3.2 requires Python 3.10 or newer.\n"
        "- The default timeout dropped to 10 seconds.\n"
    )
    said = [text[u.start : u.end] for u in units(text)]
    assert said == [
        "- Python 3.9 is no longer supported. tidepool 3.2 requires Python 3.10 or newer.",
        "- The default timeout dropped to 10 seconds.",
    ]


def test_a_long_list_item_is_still_read_sentence_by_sentence() -> None:
    long = "- " + " ".join(f"Sentence {i} says one more thing about the option." for i in range(9))
    found = units(long + "\n")
    assert len(found) == 9


def test_a_title_with_an_aside_in_brackets_names_no_code_so_leads_nothing() -> None:
    text = (
        "CHAT 2 - 9 February 2026, 16:40 - agent: Marek P. (with chat assistant)\n"
        "==============================================================\n\n"
        "[16:40] Customer: I want a refund for my kettle.\n\n"
        "Client.stream(url)\n------------------\n\nStreams the response body.\n"
    )
    leads = [u.lead and text[u.lead[0] : u.lead[1]] for u in units(text)]
    assert leads == [None, "Client.stream(url)"]


def test_a_sentence_saying_as_an_example_comes_with_the_sentence_it_gives_an_example_of() -> None:
    text = (
        "Passing Parameters In URLs\n--------------------------\n\n"
        "You often want to send some sort of data in the URL's query string. Requests lets you"
        " give them as a dictionary, using the ``params`` keyword argument. As an example, to"
        " pass ``key1=value1`` you would use the following code::\n\n"
        "    >>> r = requests.get('https://httpbin.org/get', params={'key1': 'value1'})\n"
    )
    (example,) = [u for u in units(text) if u.brings_code]
    assert text[example.start : example.end].startswith("Requests lets you give them")
    # weighed by meaning on what it gives an example of, too
    assert text[example.core[0] : example.core[1]].startswith("Requests lets you give them")


def test_a_company_name_ending_in_ltd_does_not_end_its_sentence() -> None:
    text = (
        "Tarnwick Holdings Ltd. \u2014 Facilities team\n"
        "The fire warden is Odile Brandt. Drills are held each quarter.\n"
    )
    said = [text[u.start : u.end] for u in units(text)]
    assert said == [
        "Tarnwick Holdings Ltd. \u2014 Facilities team\nThe fire warden is Odile Brandt.",
        "Drills are held each quarter.",
    ]


def test_latin_abbreviations_titles_numbers_and_initials_run_on_into_their_sentence() -> None:
    text = (
        "Pick a short name, e.g. the project's own. Ask Dr. Okafor about item No. 5 first.\n"
        "The map was drawn by J. R. R. Tolkien for the U.S. edition, maps etc. included.\n"
    )
    said = [text[u.start : u.end] for u in units(text)]
    assert said == [
        "Pick a short name, e.g. the project's own.",
        "Ask Dr. Okafor about item No. 5 first.",
        "The map was drawn by J. R. R. Tolkien for the U.S. edition, maps etc. included.",
    ]


def test_an_abbreviation_or_initial_before_a_capitalised_new_sentence_still_ends_it() -> None:
    text = "The mill was sold to Hexley Ltd. The sale closed in May. Take vitamin C. It helps.\n"
    said = [text[u.start : u.end] for u in units(text)]
    assert said == [
        "The mill was sold to Hexley Ltd.",
        "The sale closed in May.",
        "Take vitamin C.",
        "It helps.",
    ]


def test_an_abbreviation_closing_a_bracket_runs_on_when_the_sentence_goes_on() -> None:
    text = (
        "Errors from a queue (RQ, Celery, etc.) are caught the same way. It uses a bundle"
        " (a.k.a. CA bundle) of roots. Ask the agent, Marek P. (with chat assistant), first.\n"
    )
    said = [text[u.start : u.end] for u in units(text)]
    assert said == [
        "Errors from a queue (RQ, Celery, etc.) are caught the same way.",
        "It uses a bundle (a.k.a. CA bundle) of roots.",
        "Ask the agent, Marek P. (with chat assistant), first.",
    ]


def test_a_sentence_reaching_back_past_its_api_heading_holds_the_heading_inside() -> None:
    # Found by the property above: "The above" in a bullet under `_.name(a, b)` reaches back to
    # the code before that heading, so the heading is inside the unit and cannot be cited first.
    text = (
        "Set ``verify`` to False::\n\n    >>> get(url, verify=False)\n\n**name**`_.name(a, b)`\n"
        "        source\n\nDoes a thing to a list.\n\n* a list item that says something.\n"
        "This one refers back. The above too.\n"
    )
    for unit in units(text, release=False):
        assert unit.lead is None or unit.lead[1] <= unit.start
