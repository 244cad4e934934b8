"""What kind of answer a question asks for, from its wording alone.

- ``how``: a way to do something ("how do I set a timeout", "how can I ...", "can I ...", "is
  there a way to ..."): answered by prose and the code it introduces, never by a table row, a
  line of imports or a release-notes bullet ("Fixes to CORS middleware." tells nobody how to
  add it).
- ``when``: a change ("when did X change", "which version added ...", "since when ..."):
  release notes answer it.
- ``other``: anything else (what, why, which...).
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["Asks", "asks"]

Asks = Literal["how", "when", "other"]

_WHEN = re.compile(
    r"\b(?:when\s+(?:did|was|were|has|have|is|will)\b(?!.*\b(?:called|used|run|raised|sent)\b)"
    r"|(?:which|what)\s+(?:version|release)|since\s+(?:when|which|what)|in\s+which\s+release"
    r"|(?:added|removed|deprecated|dropped|changed|introduced)\s+in\s+(?:which|what))",
    re.IGNORECASE,
)
_HOW = re.compile(
    r"^\W*(?:how\s+(?:do|can|could|should|would|to|does\s+one)\b|can\s+(?:i|we|you)\b"
    r"|is\s+(?:there|it\s+possible)\b|what(?:'s|\s+is)\s+the\s+(?:way|best\s+way)\b"
    r"|(?:i\s+)?(?:want|need)\s+to\b)",
    re.IGNORECASE,
)


def asks(question: str) -> Asks:
    """Whether ``question`` asks how to do something, when something changed, or other."""
    if _WHEN.search(question):
        return "when"
    return "how" if _HOW.search(question) else "other"
