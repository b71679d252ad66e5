"""Where a module's strings and comments are, read from its bytes: what the byte readers skip whole.

In the order the tokenizer meets them, so a quote inside a comment or a `#` inside a string never
starts another. Loops unrolled (`[^"\\]*(?:\\.[^"\\]*)*`): no alternation per character. A string's
prefix (`rb"..."`) is left to the reader: it spells no token either reads.
"""
from __future__ import annotations

import re

STRINGS_SOURCE = (
    rb'#[^\r\n]*'
    rb'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)'
    rb"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*(?:'''|\Z)"
    rb'|"[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*(?:"|(?=[\r\n])|\Z)'
    rb"|'[^'\\\r\n]*(?:\\.[^'\\\r\n]*)*(?:'|(?=[\r\n])|\Z)")
STRINGS = re.compile(STRINGS_SOURCE, re.DOTALL)
