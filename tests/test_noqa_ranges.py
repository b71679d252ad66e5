"""The noqa text of a line is what flake8's token ranges give, read one statement at a time.

`noqa_ranges.RangeReader` tokenizes a file that parses only from the innermost statement holding a
line, and only as far as asked; these in-process tests compare it, line by line, with the
tokenization of the whole file it replaced, on this repository's code, on odd shapes, and on
generated Python (test_fuzz.py generates it, once for every reader it fuzzes).
"""
from __future__ import annotations

import io
import tokenize
from pathlib import Path
from typing import Dict

import pytest

from lint_plugin.report.noqa_ranges import RangeReader

REPO = Path(__file__).resolve().parent.parent


def whole_file_ranges(text: str) -> Dict[int, str]:
    """The mapping as flake8 computes it (`FileProcessor._noqa_line_mapping`): the whole file tokenized at
    once, joining flake8's lines, which `readlines` splits at "\n" alone (never at "\f", "\x85", "\u2028"
    or the others where `str.splitlines` also splits)."""
    lines = io.StringIO(text).readlines()
    mapping: Dict[int, str] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return mapping
    low, high = len(lines) + 2, -1
    for kind, _, (start, _), (end, _), _ in tokens:
        if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        low, high = min(low, start), max(high, end)
        if kind in (tokenize.NL, tokenize.NEWLINE):
            joined = "".join(lines[low - 1: high])
            for number in range(low, high + 1):
                mapping[number] = joined
            low, high = len(lines) + 2, -1
    return mapping


def assert_same_ranges(text: str) -> None:
    expected = whole_file_ranges(text)
    reader = RangeReader()  # as a report reads a file: line after line, one parse
    for line in range(1, len(text.splitlines()) + 3):
        assert reader.text(text, line) == expected.get(line), (line, text[:300])


def test_the_same_ranges_on_this_repository():
    for path in sorted((REPO / "lint_plugin").rglob("*.py"))[:60]:
        assert_same_ranges(path.read_text(encoding="utf-8"))


ODD = [
    "",
    "x = 1",  # no newline at the end
    "# only a comment\n",
    '"""A docstring\n\nover lines"""  # noqa: ARC101\nX_ARCHS = {\n    "A",  # noqa\n}\n',
    "x = 1 + \\\n    2  # noqa\ny = 3\n",
    "@decorator(\n    'arg',  # noqa: E501\n)\n@other\ndef f():\n    s = '''\n# noqa at column 0\n'''\n"
    "# a comment at column 0 inside the body\n    return s\n\n\nclass C:\n    pass\n",
    "a = 1; b = 2  # noqa\nif a:\n    pass\nelse:  # noqa\n    pass\n",
    "def f():\n\tif x:\n\t\treturn 1\n\x0cdef g():\n    return 2\n",
    "s = 'line \\\ncontinued'  # noqa\nt = 1\n",
    "x = '\u2028'  # noqa\ny = '\x0c'\nz = 1\n",
    "x = 1\x0c  # noqa\ny = 2  # noqa: \x85 E501\n# \x1c\x1d\x1e\x0b\u2029\nz = (3,  # noqa\n     4)\n",
    "x = f'''{\n1}'''  # noqa\n",
    "def broken(:\n    pass  # noqa\n",  # does not parse: tokenized whole
    "x = 1\r\ny = 2  # noqa\r\n",
    "x = 1\ry = 2  # noqa\r",
    "x = (1,\n     2)  # noqa\n",
]


@pytest.mark.parametrize("text", ODD)
def test_the_same_ranges_on_odd_shapes(text):
    assert_same_ranges(text)


# Grammatical Python from hypothesmith is checked with `assert_same_ranges` by test_fuzz.py, which
# generates each program once for every reader it fuzzes.
