"""How architecture names are spelt, as the byte prefilter and the readers both judge it.

Kept apart from the readers (and free of their imports) so that the prefilter loads alone.
"""
from __future__ import annotations

import re
from typing import Sequence

_EMBEDDABLE = re.compile(r"[\[\]A-Za-z0-9_*+?{},-]*")
_ARCHITECTURE = re.compile(r"\w*(?:For[A-Z]\w*|Model|LM)")  # `...ForCausalLM`, `ChatGLMModel`, `QWenLMHeadModel`


def embeddable(name_pattern: str) -> bool:
    """May the name shape be embedded in a byte expression between quotes and mean the same there?

    Only character classes of letters and digits, and quantifiers: nothing that can match a quote
    or a newline (`.`, `[^...]`, `\\S`), no flag, group or escape a byte expression reads otherwise.
    """
    return _EMBEDDABLE.fullmatch(name_pattern) is not None and "[]" not in name_pattern


def mostly_architectures(names: Sequence[str]) -> bool:
    """Are at least half of a registry's names spelt like architectures (`...For<Task>`, `...Model`)?

    Real registries hold a few odd names (vLLM's `MiniCPMV`, `Ovis`); registries of other things
    (`EngineArgs`, `DataTypeTag`, `FeatureExtractor`s) hold almost none.
    """
    return 2 * sum(1 for n in names if _ARCHITECTURE.fullmatch(n)) >= len(names)
