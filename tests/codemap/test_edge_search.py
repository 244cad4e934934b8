"""Finding the edges a question is about (`grk answer --with-code`): BM25 over each edge's
evidence and end names, deterministic, and silent when nothing matches."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.search import bm25_scores, search_edges, tokens

SHOP = {
    "shop/__init__.py": "",
    "shop/store.py": """
        class DocumentStore:
            def put_document(self, doc):
                return self.write_row(doc)

            def write_row(self, row):
                return row
        """,
    "shop/api.py": """
        from shop.store import DocumentStore


        def ingest(doc):
            return DocumentStore().put_document(doc)


        def render_page(page):
            return format_html(page)


        def format_html(page):
            return page
        """,
}


def test_identifiers_are_split_as_people_say_them_and_words_folded_to_a_stem() -> None:
    assert tokens("DocumentStore.put_document") == ["document", "stor", "put", "document"]
    assert tokens("How are documents stored?") == ["document", "stor"]
    assert tokens("HTTPClient parseURL") == ["http", "client", "pars", "url"]
    assert tokens("the class processes") == ["class", "process"]


def test_bm25_scores_a_rarer_word_higher_and_a_missing_word_zero() -> None:
    docs = [["store", "put"], ["store", "render"], ["store", "html"]]
    scores = bm25_scores(["store", "render"], docs)
    assert scores[1] > scores[0] == scores[2] > 0
    assert bm25_scores(["absent"], docs) == [0.0, 0.0, 0.0]
    assert bm25_scores(["x"], []) == []


def test_the_edges_a_question_names_come_first(repo: Repo) -> None:
    build(repo, SHOP)
    hits = search_edges(repo.map.edges(), "where is a document ingested into the store?", top_k=3)
    assert {(h.edge.source.qualname, h.edge.target.qualname) for h in hits[:2]} == {
        ("shop.api.ingest", "shop.store.DocumentStore"),  # the constructor call
        ("shop.api.ingest", "shop.store.DocumentStore.put_document"),
    }
    html = search_edges(repo.map.edges(), "which function formats the HTML page?", top_k=1)
    assert [(h.edge.source.qualname, h.edge.target.qualname) for h in html] == [
        ("shop.api.render_page", "shop.api.format_html")
    ]


def test_search_is_deterministic_and_never_returns_containment(repo: Repo) -> None:
    build(repo, SHOP)
    edges = repo.map.edges()
    first = search_edges(edges, "store document row", top_k=10)
    assert [h.edge.id for h in first] == [
        h.edge.id for h in search_edges(list(reversed(edges)), "store document row", top_k=10)
    ]
    assert all(h.edge.kind != "defines" for h in first)
    scores = [h.score for h in first]
    assert scores == sorted(scores, reverse=True)


def test_a_question_none_of_whose_words_occur_finds_no_edge(repo: Repo) -> None:
    build(repo, SHOP)
    assert search_edges(repo.map.edges(), "what about the weather?", top_k=5) == []
    assert search_edges(repo.map.edges(), "", top_k=5) == []
