"""Byte-safe edits to collections of architecture names: add a missing name, drop a duplicate.

libcst finds the literal and where each member, comma and bracket sits; the change itself
is spliced into the original text, so every byte outside an inserted or deleted span is
untouched by construction (libcst never regenerates the file). The result is re-parsed
before it is returned, and the edits are also reported against the original text so that
other front ends (JSON, flake8, an editor) can carry them.

`TextEdit` positions are 1-based lines and 1-based columns counted in characters of the
decoded text (a BOM is not part of it); lines end at "\\r\\n", "\\r" or "\\n", as for Python.

The package reads in the order of a request's way through it: `apply` plans requests in rounds
(`form_feeds` first sets aside what libcst would lose), `document` holds each state of the file,
`locate` finds the literal a request names, `containers` reads its elements, `add_member` and
`remove_duplicate` plan the change, `layout` places new text among its neighbours, and `edits`
splices and composes the edits; `results` holds the values returned.
"""
from .apply import apply_fixes
from .results import FixResult, Refusal, TextEdit

__all__ = ["FixResult", "Refusal", "TextEdit", "apply_fixes"]
