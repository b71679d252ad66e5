"""A file's text as flake8 reads it, so the plugin knows a file on disk from an unsaved buffer.

flake8 (`FileProcessor.read_lines`) opens a file as Python decodes it (`tokenize.open`) and falls
back to Latin-1 when Python would refuse the bytes; both read with universal newlines, so every
line ends in "\\n" and a line break is "\\r\\n", "\\r" or "\\n" alone, the breaks Python's own line
numbers count.
"""
from __future__ import annotations

from ..extract.source_text import Refused, source_text

__all__ = ["flake8_text"]


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

