"""ARC902 file-not-analysed: a file that may hold architecture names could not be analysed."""
from __future__ import annotations

from typing import List

from ..diagnostics import Diagnostic
from ..resolve import Model
from .rule import Example, Rule


def check(model: Model) -> List[Diagnostic]:
    return [diagnostic(path, reason) for path, reason in model.unanalysed]


def diagnostic(path: str, reason: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, RULE.code, f"file not analysed: {reason}")


RULE = Rule(
    code="ARC902",
    name="file-not-analysed",
    summary="a file that may hold architecture names could not be analysed",
    what="A file that passed the byte prefilter cannot be read, holds bytes Python would not decode, or does not "
         "parse. Python decodes a file as UTF-8 unless a coding cookie on line 1 or 2 declares another encoding (PEP "
         "263), and refuses a codec it does not know and a UTF-8 byte-order mark beside a cookie for another "
         "encoding: `python file.py` stops there, even for a byte in a comment. The rest of the project is still "
         "checked, but names in this file take no part. While nothing in the project is registered, a file is "
         "reported only where it may register names, hold a guarded collection (`guard`, `*_ARCHS` by default) or "
         "test a model type: a name no registration serves reaches no rule. In a file of 4 KiB or more, the bodies "
         "of functions no fact is read from are not parsed (`lint_plugin/extract/bodies.py`): a syntax error there is "
         "left to ruff or flake8. archsync parses with the Python it runs on: a file written for a newer one (an "
         "f-string that reuses its quotes, Python 3.12) does not parse on an older one, and the reason says so.",
    why="A whitelist in a file that does not parse is invisible; saying so is better than a silent gap.",
    fix_doc="Fix the syntax error, the permissions or the encoding (save the file as UTF-8, or declare the "
            "encoding it is in with a cookie such as `# coding: latin-1`); exclude generated files with `exclude`.",
    exempt_doc="`exclude` the file.",
    examples=(
        Example("a whitelist in a file that does not parse", (
            ("cache.py", "_RADIX_ARCHS = frozenset({\"KimiLinearForCausalLM\")\n"),
        ), ("cache.py:1:1: ARC902 file not analysed: syntax error at line 1: closing parenthesis ')' does not match "
           "opening parenthesis '{'",), corrected=(
            ("cache.py", "_RADIX_ARCHS = frozenset({\"KimiLinearForCausalLM\"})\n"),
        )),
    ),
    check=check,
    severity="information",
    flags_damage=True,
    settings=("exclude",),
)
