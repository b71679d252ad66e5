"""Escaping for each output medium, in one place.

Names and paths come from the analysed tree, which may hold anything: a string literal with a
terminal escape sequence or a newline (which would forge a separate `path:1:1: ARC101` line),
a lone surrogate (which no UTF-8 output can carry), a bidirectional override, or a name whose
`a` is Cyrillic (so "did you mean X?" shows two identical-looking names). Diagnostics keep the
exact text; each front end passes what it prints through the function for its medium.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

# Categories never printed raw: controls, format characters (bidi overrides, zero-width),
# surrogates, line and paragraph separators, private use and unassigned code points.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_WORD = re.compile(r"\w+")


def printable(text: str, lookalikes: bool = True, keep: str = "") -> str:
    """`text` for a terminal, a log or an editor: hidden characters and lookalikes as `\\uXXXX` escapes.

    A word mixing ASCII letters with letters of a script that passes for Latin is a lookalike
    (`Qwen3_5For\\u0421ausalLM`); `café` and words wholly in another script are left as written.
    `keep`: characters the medium escapes its own way (GitHub's `%0A`).
    """
    if text.isascii() and text.isprintable():
        return text
    escaped = "".join(_escape(c) if unicodedata.category(c) in _HIDDEN and c not in keep else c for c in text)
    return _WORD.sub(_lookalikes, escaped) if lookalikes else escaped


def json_safe(value: Any) -> Any:
    """A JSON document's strings with lone surrogates (which UTF-8 cannot encode) written as `\\udXXX` text."""
    if isinstance(value, str):
        return _SURROGATE.sub(lambda m: _escape(m.group()), value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {json_safe(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def uri_path(rel: str) -> str:
    """A root-relative path as a URI reference (`h#sh.py` is a file, not `h` with a fragment)."""
    from urllib.parse import quote  # SARIF alone needs it

    return quote(json_safe(rel), safe="/")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


# Scripts whose letters pass for Latin ones (`С` and `C`, `ο` and `o`, `Ｑ` and `Q`); an accented
# Latin letter (`é`) looks like itself and is left alone.
_CONFUSABLE = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "FULLWIDTH", "MATHEMATICAL", "LISU")


def _lookalikes(match: "re.Match[str]") -> str:
    word = match.group()
    if word.isascii() or not any(c.isascii() and c.isalpha() for c in word):
        return word
    return "".join(_escape(c) if not c.isascii() and _confusable(c) else c for c in word)


def _confusable(char: str) -> bool:
    return unicodedata.name(char, "").startswith(_CONFUSABLE) or (char.isdigit() and not char.isascii())
