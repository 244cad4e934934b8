"""The near-duplicate test itself: what counts as the same passage, and what does not."""

from __future__ import annotations

from random import Random
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from groundkit.retrieve import batch_folding
from groundkit.retrieve.batch_folding import BatchFolding
from groundkit.retrieve.batch_prints import stored_fingerprint, stored_fingerprints
from groundkit.retrieve.duplicates import (
    MIN_SHINGLES,
    THRESHOLD,
    Fingerprint,
    Folding,
    fingerprint,
    near_duplicates,
    words,
)

PASSAGE = (
    "The platypus hunts at dusk in slow rivers, closing its eyes and ears underwater and finding "
    "shrimp and larvae by the faint electric fields their muscles make, which the receptors in "
    "its soft bill pick up from a few centimetres away."
)
OTHER = (
    "The numbat eats termites by day, licking them from shallow galleries with a long sticky "
    "tongue; a grown numbat needs some twenty thousand termites a day and never digs deep."
)


def dup(a: str, b: str) -> bool:
    return near_duplicates(fingerprint(a), fingerprint(b))


def test_the_same_words_in_other_markup_and_case_are_duplicates() -> None:
    markdown = f"## Hunting\n\n**The platypus** hunts at dusk{PASSAGE[25:]}"
    converted = f"Hunting\n\nThe PLATYPUS hunts at dusk{PASSAGE[25:]}"
    assert dup(markdown, converted)


def test_a_copy_cut_at_other_bounds_is_a_near_duplicate() -> None:
    assert dup(PASSAGE, PASSAGE[: int(len(PASSAGE) * 0.9)])
    assert dup(PASSAGE + "\n\n## Diet\n\nShrimp, mostly.", PASSAGE)


def test_link_targets_and_fence_languages_do_not_tell_copies_apart() -> None:
    linked = PASSAGE.replace("electric fields", "[electric fields](https://example.org/e/f)")
    fenced = "```python\nimport platypus\n```\n" + PASSAGE
    converted = "```\nimport platypus\n```\n" + PASSAGE
    assert dup(linked, PASSAGE)
    assert dup(fenced, converted)


def test_distinct_passages_are_not_folded() -> None:
    assert not dup(PASSAGE, OTHER)
    # Sharing a sentence is not enough when the rest differs.
    third = "The bilby digs spiral burrows in red sand and sleeps through the heat of the day."
    assert not dup(PASSAGE + " " + OTHER, third + " " + PASSAGE[:60])


def test_short_passages_fold_only_when_their_words_are_the_same() -> None:
    assert dup("pip install groundkit", "`pip install groundkit`")
    assert not dup("pip install groundkit now", "pip install groundkit")
    assert len(fingerprint("one two three four five").shingles) < MIN_SHINGLES


def test_folding_keeps_the_first_and_folds_later_copies_into_it() -> None:
    folding = Folding()
    placed = [folding.place(fingerprint(t)) for t in (PASSAGE, OTHER, PASSAGE.upper(), OTHER)]
    assert placed == [None, None, 0, 1]


VOCABULARY = "the platypus numbat hunts eats at dusk by day in slow rivers termites shrimp".split()


@given(
    st.lists(
        st.lists(st.sampled_from(VOCABULARY), min_size=0, max_size=40).map(" ".join),
        min_size=1,
        max_size=12,
    ),
    st.randoms(use_true_random=False),
)
@settings(max_examples=200, deadline=None)
def test_folding_gives_the_verdicts_of_the_pairwise_test(texts: list[str], rnd: Random) -> None:
    folds_as_the_pairwise_test(texts, rnd, VOCABULARY)


# Many words: few 3-grams shared by chance, so most hits are placed by Folding's filter alone.
WIDE = [f"w{i}" for i in range(300)]


@given(
    st.lists(
        st.lists(st.sampled_from(WIDE), min_size=10, max_size=120).map(" ".join),
        min_size=1,
        max_size=12,
    ),
    st.randoms(use_true_random=False),
)
@settings(max_examples=200, deadline=None)
def test_folding_read_back_from_bytes_gives_the_verdicts_of_the_pairwise_test(
    texts: list[str], rnd: Random
) -> None:
    folds_as_the_pairwise_test(texts, rnd, WIDE, stored=True)


def folds_as_the_pairwise_test(
    texts: list[str], rnd: Random, vocabulary: list[str], *, stored: bool = False
) -> None:
    # Copies with words dropped or added, a part of a text and a text inside a longer one make
    # near-duplicates common among the random texts, some much smaller than what they fold into.
    for _ in range(len(texts)):
        words = texts[rnd.randrange(len(texts))].split()
        kind = rnd.randrange(3)
        if kind == 0:
            for _ in range(rnd.randrange(1 + len(words) // 8)):
                if words:
                    del words[rnd.randrange(len(words))]
            words += [rnd.choice(vocabulary)] * rnd.randrange(3)
        elif kind == 1 and words:
            start = rnd.randrange(len(words))
            words = words[start : start + rnd.randrange(len(words) - start + 1)]
        else:
            words += texts[rnd.randrange(len(texts))].split()
        texts.append(" ".join(words))
    rnd.shuffle(texts)
    expected: list[int | None] = []
    kept: list[str] = []
    for text in texts:
        expected.append(
            next(
                (
                    i
                    for i, k in enumerate(kept)
                    if near_duplicates(fingerprint(text), fingerprint(k))
                ),
                None,
            )
        )
        if expected[-1] is None:
            kept.append(text)
    found = [fingerprint(text) for text in texts]
    if stored:
        found = [Fingerprint.from_bytes(f.to_bytes()) for f in found]
    folding = Folding()
    assert [folding.place(f) for f in found] == expected
    # In batches of random sizes, as a long search walks its ranking: counting the pairs one by
    # one, grouping runs of 3-grams by their owners, and grouping with every hash colliding.
    ways = (
        {"_GROUP_FROM": batch_folding._GROUP_FROM},
        {"_GROUP_FROM": -1},
        {"_GROUP_FROM": -1, "_mixed": lambda owner, salt: owner * 0},
    )
    for way in ways:
        with patch.multiple(batch_folding, **way):  # type: ignore[arg-type]
            batched, placed, at = BatchFolding(), [], 0
            while at < len(found):
                size = rnd.randrange(1, len(found) + 1)
                placed += batched.place_all(found[at : at + size])
                at += size
        assert placed == expected, way


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_has_the_words_the_regex_finds(text: str) -> None:
    import re

    from groundkit.retrieve.duplicates import _MARKUP

    expected = re.findall(r"\w+", _MARKUP.sub(" ", text).casefold())
    assert words(text) == expected


def exactly(a: str, b: str) -> bool:
    """The rule on the words themselves, with nothing hashed: the reference."""
    wa, wb = words(a), words(b)
    if wa == wb:
        return True
    sa = set(zip(wa, wa[1:], wa[2:], strict=False))
    sb = set(zip(wb, wb[1:], wb[2:], strict=False))
    small, large = (sa, sb) if len(sa) <= len(sb) else (sb, sa)
    return len(small) >= MIN_SHINGLES and len(small & large) >= THRESHOLD * len(small)


@given(
    st.lists(st.sampled_from(VOCABULARY), min_size=0, max_size=60),
    st.lists(st.integers(min_value=0, max_value=59), max_size=12),
    st.lists(st.sampled_from(VOCABULARY), max_size=8),
)
@settings(max_examples=300, deadline=None)
def test_hashed_fingerprints_give_the_verdicts_of_the_words_themselves(
    base: list[str], dropped: list[int], added: list[str]
) -> None:
    other = [w for i, w in enumerate(base) if i not in set(dropped)] + added
    a, b = " ".join(base), " ".join(other)
    assert near_duplicates(fingerprint(a), fingerprint(b)) == exactly(a, b)


@given(st.text())
def test_a_fingerprint_stored_as_bytes_reads_back_the_same(text: str) -> None:
    found = fingerprint(text)
    assert Fingerprint.from_bytes(found.to_bytes()) == found


@given(st.one_of(st.text(), st.lists(st.sampled_from(WIDE), max_size=200).map(" ".join)))
@settings(deadline=None)  # the first example imports numpy
def test_the_fingerprint_stored_at_ingest_is_the_one_search_would_make(text: str) -> None:
    assert stored_fingerprint(text) == fingerprint(text).to_bytes()


@given(st.lists(st.one_of(st.text(), st.lists(st.sampled_from(WIDE), max_size=200).map(" ".join))))
@settings(deadline=None)
def test_fingerprints_made_together_are_those_made_one_at_a_time(texts: list[str]) -> None:
    assert stored_fingerprints(texts) == [fingerprint(t).to_bytes() for t in texts]


def test_a_batch_walk_that_stops_early_leaves_the_rest_unplaced() -> None:
    """A search stops reading verdicts once it has its top k: the hits after are never met."""
    folding = BatchFolding()
    verdicts = folding.place_all([fingerprint(PASSAGE), fingerprint(OTHER)])
    assert next(verdicts) is None
    del verdicts
    # OTHER was not kept, so a copy of it is kept now, and PASSAGE's copy folds into PASSAGE.
    assert list(folding.place_all([fingerprint(OTHER.upper()), fingerprint(PASSAGE)])) == [None, 0]


def test_fingerprints_do_not_depend_on_the_process() -> None:
    """Stored at ingest and read by later processes: no salted hash may enter them."""
    import subprocess
    import sys

    code = (
        "from groundkit.retrieve.duplicates import fingerprint as f; print(f(%r).to_bytes().hex())"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code % PASSAGE],
            env={"PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in (1, 2)
    }
    assert runs == {fingerprint(PASSAGE).to_bytes().hex()}


def test_a_passage_sharing_exactly_the_threshold_of_3_grams_is_folded() -> None:
    """20 distinct 3-grams each; 16 shared (0.8 x 20) folds, 15 does not."""
    base = [f"a{i}" for i in range(22)]
    at_threshold = " ".join([*base[:18], "n1", "n2", "n3", "n4"])
    below = " ".join([*base[:17], "n1", "n2", "n3", "n4", "n5"])
    for found, expected in ((at_threshold, 0), (below, None)):
        assert len(fingerprint(found).shingles) == 20
        prints = [fingerprint(" ".join(base)), fingerprint(found)]
        folding = Folding()
        assert [folding.place(p) for p in prints] == [None, expected]
        assert list(BatchFolding().place_all(prints)) == [None, expected]


def test_fingerprints_made_at_ingest_split_words_at_every_ascii_separator_as_search_does() -> None:
    # Bytes and str split on different whitespace (str also on \x1c-\x1f): ingest's bytes path
    # must find the words search's str path finds, around every ASCII character.
    texts = [f"alpha{chr(c)}Beta{chr(c)}{chr(c)}gamma_9 delta" for c in range(128)]
    assert stored_fingerprints(texts) == [fingerprint(t).to_bytes() for t in texts]


def test_fingerprints_made_at_ingest_find_the_words_of_non_ascii_text_as_search_does() -> None:
    # Ingest cuts non-ASCII text at ASCII separators before the word regex: characters that
    # case-fold to ASCII (the Kelvin sign, a ligature, the long s), non-word characters inside a
    # piece (a degree sign, a no-break space, an en dash) and words of several scripts.
    texts = [
        "\u212aelvin \ufb01sh \u017ftop: 10\u00b0C\u00a0at pH\u20137, \u03b1-helix & \u03b2_sheet",
        "Stra\u00dfe \u00c9T\u00c9 na\u00efve\u2009co\u00f6p \u4e2d\u6587 \u0416\u0416_9 x\u00d7y",
        "\u00bd \u2460 \u0661\u0662\u0663 caf\u00e9-au-lait [link](http://x.y/\u00e9) \u00e9\u00e9",
    ]
    assert stored_fingerprints(texts) == [fingerprint(t).to_bytes() for t in texts]
    assert [stored_fingerprint(t) for t in texts] == [fingerprint(t).to_bytes() for t in texts]


# Words around the lengths ingest keys differently (up to 8 bytes, up to 16, longer), in ASCII
# and in UTF-8 of two and three bytes a character, with markup and separators between them.
_KEYED = st.text(alphabet="aZ9_\u00e9\u4e2d", min_size=1, max_size=20)
_BETWEEN = st.sampled_from([" ", "\n", ", ", "](x) ", " http://a.b/c ", "\u00b1", "-", "\t"])


@given(st.lists(st.lists(st.tuples(_KEYED, _BETWEEN), max_size=60), max_size=8))
@settings(max_examples=300, deadline=None)
def test_ingest_finds_words_of_every_length_as_search_does(
    chunks: list[list[tuple[str, str]]],
) -> None:
    texts = ["".join(word + gap for word, gap in chunk) for chunk in chunks]
    assert stored_fingerprints(texts) == [fingerprint(t).to_bytes() for t in texts]


def test_ingest_keeps_its_word_ids_right_when_many_distinct_words_share_its_slots() -> None:
    # 60,000 distinct words: thousands land on a slot another word holds, and are made again.
    rng = Random(7)
    vocabulary = ["".join(rng.choices("abcdefghij", k=rng.randint(3, 18))) for _ in range(60_000)]
    texts = [" ".join(vocabulary[i : i + 300]) for i in range(0, len(vocabulary), 300)]
    shuffled = [" ".join(rng.sample(vocabulary, 300)) for _ in range(100)]
    for batch in (texts, shuffled, texts):
        assert stored_fingerprints(batch) == [fingerprint(t).to_bytes() for t in batch]


def test_ingest_tells_apart_long_words_that_share_their_first_eight_bytes_and_a_slot() -> None:
    import numpy as np

    from groundkit.retrieve import batch_prints

    # Words of 12 bytes: the first eight in one half of the key, the other four beside the id.
    rng = Random(11)
    tails = sorted({"".join(rng.choices("abcdefghijklmnop", k=4)) for _ in range(20_000)})
    low = int.from_bytes(b"parasite", "little")
    high = np.array([int.from_bytes(t.encode(), "little") for t in tails], dtype=np.uint64)
    with np.errstate(over="ignore"):
        mixed = np.uint64(low * batch_prints._M1 % 2**64) ^ high * np.uint64(batch_prints._M2)
    slot = (mixed >> np.uint64(64 - batch_prints._SLOT_BITS)).tolist()
    first: dict[int, str] = {}
    pair = next(
        (first[s], t) for s, t in zip(slot, tails, strict=True) if first.setdefault(s, t) != t
    )
    for tail in pair:  # the second is looked up in the slot the first was put in
        text = " ".join(["parasite" + tail] * 3 + ["load", "of", "the", "host"])
        assert stored_fingerprints([text]) == [fingerprint(text).to_bytes()]


def test_fingerprints_of_ascii_chunks_made_together_match_whether_or_not_one_holds_markup() -> None:
    # Ingest's common case (every chunk of a file ASCII, none with markup) is made from the
    # file's chunks joined: it must give what each chunk alone gives, and so must a file where
    # one chunk's link, URL or fence sends every chunk the slower way.
    plain = [PASSAGE, OTHER, "  spaced\tout\n\nlines  ", "x", "", "A_b c-D 42"]
    marked = [*plain, "see [the notes](notes.md) at https://x.y/z\n```py\ncode\n```"]
    for texts in (plain, marked):
        assert stored_fingerprints(texts) == [fingerprint(t).to_bytes() for t in texts]
