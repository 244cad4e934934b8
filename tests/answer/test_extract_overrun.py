"""A passage the chunk boundary cut inside its example is read on to the example's end.

The documents are sized so that the chunker (1,000 characters) ends a chunk inside, or right
before, the code block its last sentence introduces; the answer is made as `grk answer` makes it
with AI off (BM25 alone: no model is needed).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from groundkit import Collection
from groundkit.answer.overrun import read_back, read_on
from groundkit.answer.report import AIState, AIStatus
from groundkit.answer.service import answer_question
from groundkit.types import Chunk

OFF = AIStatus(AIState.DISABLED)

BROWSERS = (
    "Browsers send a preflight request before any request that is not simple, and the"
    " middleware answers it for every route of the application; it never reaches an endpoint."
    " Responses to simple requests get the headers added on the way out, error responses"
    " included, so a browser on another origin can read them.\n\n"
)

CORS_MD = (
    "# Middleware\n\n## CORSMiddleware\n\n"
    "Adds appropriate CORS headers to outgoing responses in order to allow cross-origin requests"
    " from browsers. The default parameters used by the CORSMiddleware implementation are"
    " restrictive by default, so you'll need to explicitly enable particular origins, methods,"
    " or headers, in order for browsers to be permitted to use them in a Cross-Domain context.\n\n"
    + BROWSERS
    + "To add CORS middleware to an application, pass it to the application's middleware list:"
    "\n\n```python\n"
    "from starlette.applications import Starlette\n"
    "from starlette.middleware import Middleware\n"
    "from starlette.middleware.cors import CORSMiddleware\n\n"
    "middleware = [Middleware(CORSMiddleware, allow_origins=['*'])]\n"
    "app = Starlette(routes=routes, middleware=middleware)\n"
    "```\n\n"
    "The following arguments are supported, each with a default that refuses what it does not"
    " name.\n"
)

# The same page in reStructuredText, the prose long enough that the chunk ends right after the
# sentence that introduces the literal block: the block is all in the next chunk.
VERIFY_RST = (
    "SSL Cert Verification\n---------------------\n\n"
    + BROWSERS * 2
    + "Requests verifies SSL certificates for HTTPS requests, just like a web browser, and a"
    " certificate it cannot verify fails the request with an SSLError before anything is sent."
    "\n\nRequests can also ignore verifying the SSL certificate if you set ``verify`` to False::"
    "\n\n    >>> requests.get('https://example.org', verify=False)\n    <Response [200]>\n\n"
    + BROWSERS
    * 2
)


def _answer(
    open_col: Callable[..., Collection], tmp_path: Path, name: str, text: str
) -> tuple[Collection, list[Chunk]]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    collection = open_col()
    collection.ingest([tmp_path])
    return collection, collection.chunks()


def _cited_with(collection: Collection, question: str, needle: str) -> list[str]:
    report = answer_question(collection, question, OFF)
    assert report.extracted is not None
    stored = {d.document_id: d.text for d in collection.documents()}
    for c in report.extracted.citations:  # each cut from the stored document at its offsets
        assert stored[c.document_id][c.start : c.end] == c.cited_text
    assert report.excerpt is not None
    return [c.cited_text for c in report.extracted.citations if needle in c.cited_text]


def test_an_example_the_chunk_boundary_cuts_is_read_on_to_its_end_from_the_stored_document(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection, chunks = _answer(open_col, tmp_path, "middleware.md", CORS_MD)
    first = chunks[0].text
    assert "CORSMiddleware\n" in first  # the chunk ends inside the example
    assert "allow_origins=['*']" not in first
    (cited,) = _cited_with(collection, "how do I add CORS middleware", "To add CORS middleware")
    assert cited.endswith("app = Starlette(routes=routes, middleware=middleware)\n```")


def test_a_double_colon_ending_a_chunk_brings_the_literal_block_of_the_next_one(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection, chunks = _answer(open_col, tmp_path, "advanced.rst", VERIFY_RST)
    ends = [c for c in chunks if c.text.rstrip().endswith("to False::")]
    assert ends, "the document must put the chunk boundary right after the '::'"
    (cited,) = _cited_with(collection, "how do I disable SSL certificate verification", "::")
    assert "verify=False" in cited


def _entry(name: str, signature: str, description: str, example: str) -> str:
    return f"**{name}**`{signature}`\n        source\n\n{description}\n\n{example}\n"


# An API reference as underscore's page reads once ingested: each entry a bold name over its
# signature, a "source" link, its description and an example. The chunk holding "partition" and
# "compact" ends on the title of "first": the next chunk begins with first's description.
API_MD = "\n".join(
    [
        "# Arrays\n\nThe array functions of the library, each with an example that shows what it"
        " returns for a small input, in the order the reference lists them, with the aliases each"
        " function is also known by.\n",
        _entry(
            "partition",
            "_.partition(list, predicate)",
            "Splits the **list** into two arrays: one whose elements all satisfy **predicate** and"
            " one whose elements all do not satisfy it. The predicate is transformed through the"
            " iteratee to allow shorthand syntaxes, so a property name or an object of properties"
            " works as well as a function does, and the two arrays keep the order the elements"
            " had in the list they came from.",
            "_.partition([0, 1, 2, 3, 4, 5], isOdd);\n=> [[1, 3, 5], [0, 2, 4]]",
        ),
        _entry(
            "compact",
            "_.compact(list)",
            "Returns a copy of the **list** with all falsy values removed. In JavaScript, false,"
            " null, 0, the empty string, undefined and NaN are all falsy.",
            "_.compact([0, 1, false, 2, '', 3]);\n=> [1, 2, 3]",
        ),
        _entry(
            "first",
            "_.first(array, [n])",
            "Returns the leading element of an **array**. Passing **n** will return the leading"
            " **n** elements of the array.",
            "_.first([5, 4, 3, 2, 1]);\n=> 5",
        ),
    ]
)


def test_a_passage_that_begins_with_an_api_entry_description_is_read_under_the_entry_name(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection, chunks = _answer(open_col, tmp_path, "index.md", API_MD)
    assert chunks[1].text.startswith("Returns the leading element")  # its name ends chunk 0
    report = answer_question(collection, "how do I get the leading element of an array", OFF)
    assert report.extracted is not None
    cited = [c.cited_text for c in report.extracted.citations]
    at = next(i for i, c in enumerate(cited) if c.startswith("Returns the leading element"))
    assert cited[at - 1] == "**first**`_.first(array, [n])`"  # cited before it, as its lead
    stored = collection.documents()[0].text
    for c in report.extracted.citations:
        assert stored[c.start : c.end] == c.cited_text


def test_a_passage_cut_inside_prose_or_before_prose_is_read_as_its_chunk_has_it() -> None:
    document = (
        "Set ``verify`` to False to skip the check. It is on by default.\n\n"
        "When streaming a download, the above is the preferred way.\n"
    )
    cut = document.index("It is on")  # inside a paragraph of prose, before another
    assert read_on(document, 0, cut) == cut
    assert read_on(document, 0, document.index("\n\n")) == document.index("\n\n")
    assert read_back(document, cut, len(document)) == cut  # no heading above it
