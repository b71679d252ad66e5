"""Adding a name to a test of one name: `arch == "X"` becomes `arch in ("X", "Y")`.

A fix that completes a test of one name writes what a maintainer writes (`arch != "X"` becomes
`arch not in ("X", "Y")`): one edit from the operator to the end of the string, the string kept as
written (its quotes copied for the new one), the whitespace around the operator kept, or a space put
where the operator touched its operands (`arch=="X"`). A name added to such a test again, in a later
round of the same fix, goes into the tuple like into any literal.
"""
from __future__ import annotations

from typing import Callable, List, Optional

import libcst as cst

from ...diagnostics import FixRequest
from .document import Document
from .edits import Edit
from .locate import OneNameTest
from .results import Refuse

_OPERATORS = {"==": "in", "!=": "not in"}


def membership_of(doc: Document, request: FixRequest, test: OneNameTest,
                  quote: Callable[[str, Optional[cst.SimpleString]], str]) -> List[Edit]:
    """The edit turning the test `test` names into a membership test that also holds `request.name`, quoted
    by `quote` (as every added name is) like the tested string."""
    string = test.target.comparator
    if not isinstance(string, cst.SimpleString) or string.lpar or string.rpar:
        raise Refuse(f"{request.target}: the name it tests is not a plain string archsync can edit")
    try:
        if string.evaluated_value == request.name:
            return []
    except Exception:  # libcst raises what `ast.literal_eval` does
        raise Refuse(f"{request.target}: the name it tests is not a plain string archsync can edit") from None
    try:
        request.name.encode(doc.encoding)
    except UnicodeError:
        raise Refuse(f"{request.name!r} cannot be written in this file's encoding ({doc.encoding})") from None
    start, end = test.span(string)
    before = start
    while before > 0 and doc.text[before - 1] in " \t":
        before -= 1
    operator = doc.text[before - 2:before]
    if operator not in _OPERATORS:
        raise Refuse(f"{request.target}: the name is not on the right of `==` or `!=` where archsync can edit it")
    left = "" if doc.text[before - 3:before - 2] in (" ", "\t") else " "
    between = doc.text[before:start] or " "
    written = doc.text[start:end]
    added = quote(request.name, string)
    return [(before - 2, end, f"{left}{_OPERATORS[operator]}{between}({written}, {added})")]
