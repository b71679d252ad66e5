"""ARC900 configuration-error: the configuration is invalid (reported by the flake8 front end)."""
from __future__ import annotations

from .rule import Rule


def message(error: Exception) -> str:
    """The text flake8 shows for a configuration error, on the first file it checks."""
    return f"{RULE.code} archsync configuration error: {error}"


RULE = Rule(
    code="ARC900",
    name="configuration-error",
    summary="the configuration is invalid (flake8 only; the CLI exits 2)",
    what="`[tool.archsync]` or a rule pack is invalid. `archsync` prints the message and exits with code 2; the "
         "flake8 plugin reports it once, on the first file checked.",
    why="A configuration that cannot be read would otherwise check nothing, silently.",
    fix_doc="Correct the key the message names.",
    exempt_doc="",
    examples=(),
)
