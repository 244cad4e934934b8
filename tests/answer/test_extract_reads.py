"""The extract gives what answers, with what it needs to be read (issue 35).

Each case is a document as projects write them (reStructuredText, Markdown, release notes) and a
question a reader asks; the extract is made as `grk answer` makes it with AI off, BM25 alone (no
embedder: the tests need no model), through ``validate_answer``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from answer_helpers import bundle_for

from groundkit import Collection
from groundkit.answer.contract import Answer, validate_answer
from groundkit.answer.evidence import Origins
from groundkit.answer.extractive import Extractive

VERIFY_RST = """SSL Cert Verification
---------------------

Requests verifies SSL certificates for HTTPS requests, just like a web browser.

Requests can also ignore verifying the SSL certificate if you set ``verify`` to False::

    >>> requests.get('https://example.org', verify=False)
    <Response [200]>

Note that when ``verify`` is set to ``False``, requests will accept any TLS certificate.
"""

CORS_MD = """# Middleware

## CORSMiddleware

| Option | Default |
|--------|---------|
| `allow_origins` | `()` |

```python
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
```

To add CORS middleware to an application, wrap it like this:

```python
middleware = [Middleware(CORSMiddleware, allow_origins=['*'])]
app = Starlette(routes=routes, middleware=middleware)
```
"""

NOTES_MD = """# Release notes

## 0.21.0 (May 5, 2022)

* Fixes to CORS middleware when adding CORS headers to error responses.
* Adds `allow_private_network` to the CORS middleware.
"""

ABOVE_MD = """The above is the recommended way to add CORS headers to every response.

Responses get CORS headers from the middleware.
This keeps error responses readable from a browser on another origin.
"""


KEYS_MD = """# Application

## app.keys=

  Set signed cookie keys.

## app.proxy

  When true, proxy header fields will be trusted by the application server.
"""


def _extract(collection: Collection, question: str) -> Answer:
    bundle = bundle_for(collection, question)
    raw = Extractive().compose(question, bundle, embedder=None, min_quote_chars=16)
    return validate_answer(raw, bundle, Origins(collection.show), question=question)


def _ingest(open_col: Callable[..., Collection], tmp_path: Path, **files: str) -> Collection:
    for name, text in files.items():  # release_notes_md: release-notes.md
        stem, suffix = name.rsplit("_", 1)
        (tmp_path / f"{stem.replace('_', '-')}.{suffix}").write_text(text, encoding="utf-8")
    collection = open_col()
    collection.ingest([tmp_path])
    return collection


def _cited(answer: Answer) -> list[str]:
    return [c.cited_text for c in answer.citations]


def test_a_sentence_ending_in_a_double_colon_comes_with_the_code_block_it_introduces(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, advanced_rst=VERIFY_RST)
    answer = _extract(collection, "how do I disable SSL certificate verification")
    with_code = [t for t in _cited(answer) if "verify=False" in t]
    assert with_code, _cited(answer)
    assert with_code[0].startswith("Requests can also ignore verifying")
    # Cut from the stored text at offsets, as every quote is.
    stored = collection.show(answer.citations[0].chunk_id).text  # type: ignore[attr-defined]
    assert with_code[0] in stored


def test_underlines_headings_tables_and_imports_never_answer_a_how_to_question(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, advanced_rst=VERIFY_RST, middleware_md=CORS_MD)
    for question in ("how do I add CORS middleware", "how do I set verify for SSL"):
        cited = _cited(_extract(collection, question))
        assert not [t for t in cited if t.startswith(("#", "SSL Cert", "---", "|"))], cited
        assert not [t for t in cited if t.lstrip("`python\n").startswith("from ")], cited


def test_a_markdown_sentence_saying_like_this_brings_its_fenced_example(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, middleware_md=CORS_MD)
    cited = _cited(_extract(collection, "how do I add CORS middleware"))
    assert any(t.startswith("To add CORS") and "allow_origins=['*']" in t for t in cited), cited


def test_release_notes_answer_when_something_changed_and_never_how_to_do_it(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, middleware_md=CORS_MD, release_notes_md=NOTES_MD)
    how = _cited(_extract(collection, "how do I add CORS middleware"))
    assert not [t for t in how if "Fixes to CORS" in t or "allow_private_network" in t], how
    when = _extract(collection, "when did the CORS middleware get allow_private_network")
    texts = _cited(when)
    bullet = next(i for i, t in enumerate(texts) if "allow_private_network" in t)
    assert bullet > 0
    assert texts[bullet - 1] == "## 0.21.0 (May 5, 2022)"


def test_a_sentence_referring_back_comes_with_what_it_refers_to_and_never_alone(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, cors_md=ABOVE_MD)
    cited = _cited(_extract(collection, "why do error responses keep CORS headers readable"))
    assert not [t for t in cited if t.startswith("The above")], cited  # nothing is above it
    keeps = [t for t in cited if "This keeps error responses" in t]
    assert keeps, cited
    assert keeps[0].startswith("Responses get CORS headers"), cited


def test_between_alike_sentences_the_one_of_the_higher_ranked_passage_comes_first(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    plain = "Failed requests are retried up to three times by the adapter."
    louder = "Failed requests are retried up to three times, retried by the adapter."
    collection = _ingest(
        open_col,
        tmp_path,
        retries_md=f"# Retried failed requests\n\n{plain}\n",
        adapters_md=f"# Adapters\n\n{louder}\n",
        prefix_md="# Mounting\n\nAdapters are mounted on a prefix of the URL for requests.\n",
    )
    question = "are failed requests retried"
    bundle = bundle_for(collection, question)
    assert [p.source for p in bundle.passages[:2]] == ["retries.md", "adapters.md"]
    answer = Extractive(sentences=1).compose(question, bundle, embedder=None, min_quote_chars=16)
    assert plain in answer
    assert louder not in answer


def test_a_unit_holding_a_chosen_sentence_takes_its_place() -> None:
    from groundkit.answer.extract import Sentence, choose

    said = Sentence(1, 0, 40, "Path parameters are a dictionary.", (0, 0, 0, 0))
    with_example = Sentence(
        1, 0, 90, "Path parameters are a dictionary.\n\nFor example: request.path_params['id']"
    )
    other = Sentence(2, 0, 30, "Query parameters are a multi-dict.", (0, 1, 0, 0))
    chosen = choose([said, other, with_example], 2)
    assert chosen == [with_example, other]


def test_an_api_name_too_short_to_quote_alone_is_quoted_with_the_sentence_it_heads(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, api_md=KEYS_MD)
    answer = _extract(collection, "how do I sign cookies")
    named = [t for t in _cited(answer) if "Set signed cookie keys." in t]
    assert named, _cited(answer)
    assert named[0] == "## app.keys=\n\n  Set signed cookie keys."


TYPE_MD = """# Response

### response.type=

  Set response `Content-Type` via mime string or file extension.

```js
ctx.type = 'text/plain; charset=utf-8';
ctx.type = 'image/png';
```

### response.length=

  Set response Content-Length to the given value.
"""

LONG_RST = (
    """Settings
========

Configure the application like this::

"""
    + "".join(f"    option_{n} = {n}\n" for n in range(1, 16))
    + """    retention_days = 30

Nothing else is read.
"""
)


def test_a_statement_right_above_an_example_brings_it_though_it_does_not_announce_it(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, response_md=TYPE_MD)
    cited = _cited(_extract(collection, "how do I set the content type of the response"))
    with_code = [t for t in cited if "ctx.type = 'image/png'" in t]
    assert with_code, cited
    assert "Set response `Content-Type` via" in with_code[0], cited


def test_the_pieces_of_a_long_code_block_after_the_one_a_sentence_brings_are_still_offered(
    open_col: Callable[..., Collection], tmp_path: Path
) -> None:
    collection = _ingest(open_col, tmp_path, settings_rst=LONG_RST)
    cited = _cited(_extract(collection, "how do I set the retention days"))
    assert any("retention_days = 30" in t for t in cited), cited
