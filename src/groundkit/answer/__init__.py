"""The language-model boundary: a model may explain evidence, never add to it.

Evidence is document passages or code-map edges, behind one interface (``evidence``). One way
in: ``session.open_session`` decides, before any network, whether a model may be asked and which
(``access``: opt-in, profile; ``providers``: credential, endpoint rules, redaction), and
``session.answer`` / ``session.ask`` gather the evidence (``service``), build the
``EvidenceBundle``, ask once and pass the reply through ``contract.validate_answer``, the only
way to obtain an ``Answer``. On any failure the ``AnswerReport`` carries the evidence and the
reason. Import the modules themselves: this package has no facade of its own.
"""
