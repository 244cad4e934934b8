"""Whether a full stop after an abbreviation or an initial ends a sentence.

A sentence splitter that ends a sentence at every ". " cuts "Marrowfield Analytics Ltd. —
Security team" after "Ltd." and "written by J. R. R. Tolkien" after each initial. A full stop
after an abbreviation is ambiguous: "... sold to Acme Ltd. The deal closed" ends a sentence there.
What the next word looks like decides, by the kind of abbreviation:

- one that always has a word after it ("e.g.", "i.e.", "Mr.", "Dr.", "vs.") never ends one;
- one that stands before a number ("No. 5", "Fig. 3", "pp. 10") does not when a digit or a
  lowercase word follows;
- any other (a company's "Ltd.", "Inc.", "Co."; "etc."; a dotted acronym such as "U.S.") and a
  single capital initial ("J.") do not when the next word goes on the sentence: it starts in
  lowercase, or with a dash, comma, semicolon, colon or an opening bracket. That holds too when a
  bracket or quote closes right after the full stop ("(RQ, Celery, etc.) in a similar way"). An
  initial also runs on into another initial or a capitalised word ("J. R. R. Tolkien"), unless
  that word is one that opens sentences ("The", "This", "It", ...): a name is an open-class word,
  those are closed-class.

A capitalised word after "Ltd." or "etc." is taken as a new sentence: that is what it is in
prose, and a name running on after a company ("Acme Ltd. Board") is rarer.
"""

from __future__ import annotations

import re

__all__ = ["runs_on"]

_ALWAYS_BEFORE_A_WORD = frozenset("e.g. i.e. a.k.a. cf. viz. vs. mr. mrs. ms. dr. prof.".split())
_BEFORE_A_NUMBER = frozenset(
    "no. nos. fig. figs. p. pp. vol. vols. ch. sec. art. eq. approx. ca.".split()
)
_OTHER = frozenset("ltd. inc. co. corp. plc. bros. etc. al. jr. sr. dept. est. misc.".split())
_DOTTED = re.compile(r"(?:[A-Za-z]\.){2,}")  # U.S., a.m., e.g. (a letter, a dot, repeated)
_INITIAL = re.compile(r"[A-Z]\.")
_GOES_ON = frozenset("\u2014\u2013-,;:(")
# Closed-class words that open sentences; a capitalised word after an initial that is one of these
# starts a new sentence ("... vitamin C. The dose ...").
_OPENERS = frozenset(
    "a an the this that these those it its he she they we you i there here in on at by for to from"
    " with of as if when then but and or so see use note also however each all some no yes".split()
)


def runs_on(text: str, dot: int, word_at: int, *, closed: bool = False) -> bool:
    """True when the full stop ``text[dot]``, followed by whitespace up to ``word_at`` (where the
    next word starts), closes an abbreviation or an initial and the sentence goes on. ``closed``:
    a bracket or quote stands between the full stop and the whitespace, so only a next word that
    goes on the sentence says it does."""
    start = dot
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    token = text[start : dot + 1].lstrip("(['\"`")
    if not token[:-1] or word_at >= len(text):
        return False
    key = token.lower()
    head = text[word_at]
    initial = bool(_INITIAL.fullmatch(token))
    known = key in _ALWAYS_BEFORE_A_WORD or key in _BEFORE_A_NUMBER or key in _OTHER
    if not (known or initial or _DOTTED.fullmatch(token)):
        return False
    if head.islower() or head in _GOES_ON:
        return True
    if closed:
        return False
    if key in _ALWAYS_BEFORE_A_WORD:
        return True
    if key in _BEFORE_A_NUMBER:
        return head.isdigit()
    if not initial or not head.isupper():
        return False
    end = word_at
    while end < len(text) and (text[end].isalpha() or text[end] == "."):
        end += 1
    following = text[word_at:end]
    return bool(_INITIAL.fullmatch(following)) or following.rstrip(".").lower() not in _OPENERS
