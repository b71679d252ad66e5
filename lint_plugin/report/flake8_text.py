"""A file's text and physical lines as flake8 reads them, so `# noqa` is read where flake8 reads it.

flake8 (`FileProcessor.read_lines`) opens a file as Python decodes it (`tokenize.open`) and falls
back to Latin-1 when Python would refuse the bytes; both read with universal newlines, so every
line ends in "\\n" and a line break is "\\r\\n", "\\r" or "\\n" alone, the breaks Python's own line
numbers count. `str.splitlines` also breaks at "\\f", "\\v", "\\x1c"-"\\x1e", "\\x85", "\\u2028" and
"\\u2029", which are characters inside a line to flake8 and to Python: never split with it here.
"""
from __future__ import annotations

from typing import List

from ..extract.source_text import Refused, source_text

__all__ = ["flake8_text", "physical_lines"]


def flake8_text(data: bytes) -> str:
    """The text flake8 checks for a file holding `data`: byte-order mark dropped (`strip_utf_bom`),
    line ends read as "\\n"."""
    text = source_text(data)
    if isinstance(text, Refused):
        text = data.decode("latin-1")
        if text.startswith("\xef\xbb\xbf"):  # the byte-order mark, read as Latin-1
            text = text[3:]
    elif text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def physical_lines(text: str) -> List[str]:
    """`text`'s lines as flake8 numbers them, each with its "\\n" (`text` read as `flake8_text` reads it)."""
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])
