"""A file's text as Python reads it, or why Python would refuse it (PEP 263, PEP 3120): one decoder
(`extract/source_text.py`) for the parser, `# noqa`, the fixer and the language server; and its inverse,
an editor's text encoded as the file would hold it (`project/files.py`). In-process, milliseconds each.
"""
from __future__ import annotations

import codecs
import importlib.util

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lint_plugin.diagnostics import FixRequest
from lint_plugin.extract.source_text import Refused, source_text
from lint_plugin.fix.editor import apply_fixes
from lint_plugin.project.files import encode_as_source
from lint_plugin.report.flake8_text import flake8_text, physical_lines

# bytes -> the text Python reads, or the reason archsync gives for its refusal (ARC902)
CASES = [
    (b"x = 1\n", "x = 1\n"),
    (b"\xef\xbb\xbfx = 1\n", "x = 1\n"),  # the byte-order mark is not text
    (b"# -*- coding: latin-1 -*-\nx = '\xe9'\n", "# -*- coding: latin-1 -*-\nx = '\u00e9'\n"),
    (b"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nx = '\x80'\n",
     "#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nx = '\u20ac'\n"),
    (b"\xef\xbb\xbf# coding: utf-8\nx = 1\n", "# coding: utf-8\nx = 1\n"),
    (b"x = 1\r\n", "x = 1\r\n"),  # line ends are the parser's business, not the decoder's
    (b"", ""),
    # no cookie: UTF-8, strictly, wherever the byte is (a comment too: Python will not run the file)
    (b"# Caf\xe9 models\nX_ARCHS = []\n",
     "cannot decode: byte 0xe9 on line 1 is not UTF-8, and no encoding is declared before it (PEP 263)"),
    (b"X_ARCHS = []\nY = 1\r\nZ = 2\rW = 3  # caf\xe9\n",
     "cannot decode: byte 0xe9 on line 4 is not UTF-8, and no encoding is declared before it (PEP 263)"),
    (b"\xef\xbb\xbfX = 1\n# \xe9\n",
     "cannot decode: byte 0xe9 on line 2 is not UTF-8, and no encoding is declared before it (PEP 263)"),
    # a cookie on line 2 counts only after a blank or comment line; one after a non-UTF-8 line is not reached
    (b"#!/usr/bin/python \xe9\n# coding: latin-1\n",
     "cannot decode: byte 0xe9 on line 1 is not UTF-8, and no encoding is declared before it (PEP 263)"),
    (b"x = 1\n# coding: latin-1\ny = '\xe9'\n",
     "cannot decode: byte 0xe9 on line 3 is not UTF-8, and no encoding is declared before it (PEP 263)"),
    # the line that declares the encoding is read as UTF-8 to find the declaration (tokenize)
    (b"# coding: latin-1 \xe9\nx = 1\n",
     "cannot decode: byte 0xe9 on line 1 is not UTF-8, which a line declaring the encoding must be (PEP 263)"),
    # a cookie Python cannot use
    (b"# -*- coding: klingon -*-\nx = 1\n", "cannot decode: line 1 declares an unknown encoding, 'klingon'"),
    (b"\xef\xbb\xbf# -*- coding: latin-1 -*-\nx = 1\n",
     "cannot decode: it starts with a UTF-8 byte-order mark, but line 1 declares 'latin-1'"),
    (b"#!/usr/bin/python\n# coding: ascii\nx = '\xe9'\n",
     "cannot decode: byte 0xe9 on line 3 is not ascii, the encoding line 2 declares"),
    (b"# coding: utf-8\n\n# \xe9\n", "cannot decode: byte 0xe9 on line 3 is not utf-8, the encoding line 1 declares"),
    (b"# coding: rot13\nx = 1\n",
     "cannot decode: line 1 declares 'rot13', which cannot decode it ('rot13' is not a text encoding; use "
     "codecs.decode() to handle arbitrary codecs)"),
]


@pytest.mark.parametrize("data, expected", CASES)
def test_the_text_python_reads_or_why_it_refuses(data, expected):
    found = source_text(data)
    assert (found.reason if isinstance(found, Refused) else found) == expected
    assert isinstance(found, Refused) == (not _python_reads(data)), "Python's own reader disagrees"


def _python_reads(data: bytes) -> bool:
    """Python's verdict: `importlib` decodes source as the interpreter does for an import (tokenize's rules)."""
    try:
        importlib.util.decode_source(data)
    except (SyntaxError, UnicodeError, LookupError):
        return False
    return True


HEADS = st.sampled_from([b"", codecs.BOM_UTF8, b"# -*- coding: latin-1 -*-\n", b"#!/bin/python\n# coding: ascii\n",
                         b"# coding: klingon\n", codecs.BOM_UTF8 + b"# coding: cp1252\n", b"x = 1\n# coding: utf-8\n"])


@settings(max_examples=300, deadline=None)
@given(HEADS, st.binary(max_size=40), st.sampled_from([b"", b"\xe9", "\u00e9".encode("utf-8"), b"\x81", b"\r\n\xff"]))
def test_refused_exactly_where_python_refuses(head, body, tail):
    data = head + body + tail
    found = source_text(data)
    assert isinstance(found, Refused) == (not _python_reads(data)), (data, found)
    if not isinstance(found, Refused) and not data.endswith(b"\r"):  # the same text, line ends aside
        # (importlib translates them, and holds back a last "\r" that might start a "\r\n")
        assert found.replace("\r\n", "\n").replace("\r", "\n") == importlib.util.decode_source(data)


def test_flake8_reads_latin1_where_python_refuses_and_universal_newlines():
    """flake8 falls back to Latin-1 for a file Python refuses, drops a byte-order mark either way, and reads
    "\\r\\n" and "\\r" as "\\n"; a form feed or NEL stays inside its line."""
    assert flake8_text(b"\xef\xbb\xbf# coding: latin-1\r\nx = '\xe9'\rY = 1\x0c  # noqa\n") == \
        "# coding: latin-1\nx = '\u00e9'\nY = 1\x0c  # noqa\n"
    assert physical_lines("a\x85b\n\x0cc\u2028d\ne") == ["a\x85b\n", "\x0cc\u2028d\n", "e"]
    assert physical_lines("a\n") == ["a\n"] and physical_lines("") == []


def test_an_editors_text_is_encoded_as_the_cookie_python_finds_says():
    """The cookie is found on Python's lines: a form feed in the comment on line 1 does not push the cookie
    on line 2 out of reach (`str.splitlines` broke there, and the text was written as UTF-8)."""
    text = "# settings\x0cinherited\n# -*- coding: latin-1 -*-\nX = '\u00e9'\n"
    assert encode_as_source(text) == text.encode("latin-1")
    assert source_text(encode_as_source(text)) == text
    assert encode_as_source("\ufeffx = 1\n") == b"\xef\xbb\xbfx = 1\n"
    assert encode_as_source("# coding: klingon\nx = '\u00e9'\n") == "# coding: klingon\nx = '\u00e9'\n".encode()


def test_the_fixer_leaves_a_file_python_refuses_and_says_why():
    source = b"# Caf\xe9\nX = [\"A\"]\n"
    result = apply_fixes(source, [FixRequest("add", "f.py", "X", 2, "B")])
    assert result.source is source and result.applied == ()
    assert [r.reason for r in result.refused] == [
        "Python would not read the file: cannot decode: byte 0xe9 on line 1 is not UTF-8, and no encoding is "
        "declared before it (PEP 263)"]
