"""The catalogue of expressions that denote a set of names, shared by extraction and the fixer.

Extraction reads every shape here; the fixer edits the literal parts of each or refuses
with a reason. `SHAPES` holds one small module per shape: a test reads each through
extraction and asks the fixer to add a name, so the two can never disagree on a shape.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

# `set(X)`, `frozenset(X)`, `tuple(X)`, `list(X)`, `sorted(X)`: the names of X.
COLLECTION_CALLS = ("set", "frozenset", "tuple", "list", "sorted")
# `X.union(Y, ...)`, `X.keys()`, `X.copy()`: the names of X and of every argument.
SET_METHODS = ("union", "keys", "copy")
# Module-level `X.update(...)`, `X.add(...)`, `X.append(...)`, `X.extend(...)`, `X["N"] = ...`.
GROWTH_METHODS = ("update", "add", "append", "extend", "__setitem__")
# What an empty call becomes when the fixer writes the first name into it.
EMPTY_CALL_LITERALS = {"set": ("{", "}"), "frozenset": ("{", "}"), "list": ("[", "]"), "tuple": ("(", ",)")}


@dataclass(frozen=True)
class Shape:
    """One way of writing a collection: a module binding `target`, which reads `AlphaForCausalLM`."""

    name: str
    source: str
    target: str = "ARCHS"


SHAPES: Tuple[Shape, ...] = (
    Shape("set literal", 'ARCHS = {"AlphaForCausalLM", "BetaForCausalLM"}\n'),
    Shape("list literal", 'ARCHS = [\n    "AlphaForCausalLM",\n    "BetaForCausalLM",\n]\n'),
    Shape("tuple literal", 'ARCHS = ("AlphaForCausalLM",)\n'),
    Shape("bare tuple", 'ARCHS = "AlphaForCausalLM", "BetaForCausalLM"\n'),
    Shape("annotated", 'ARCHS: frozenset = frozenset({"AlphaForCausalLM"})\n'),
    Shape("frozenset call", 'ARCHS = frozenset({"AlphaForCausalLM"})\n'),
    Shape("set call", 'ARCHS = set(["AlphaForCausalLM"])\n'),
    Shape("tuple call", 'ARCHS = tuple(["AlphaForCausalLM"])\n'),
    Shape("list call", 'ARCHS = list(("AlphaForCausalLM",))\n'),
    Shape("sorted call", 'ARCHS = sorted({"AlphaForCausalLM"})\n'),
    Shape("union operator", 'ARCHS = {"AlphaForCausalLM"} | {"BetaForCausalLM"}\n'),
    Shape("concatenation", 'ARCHS = ["AlphaForCausalLM"] + ["BetaForCausalLM"]\n'),
    Shape("union method", 'ARCHS = frozenset({"AlphaForCausalLM"}).union({"BetaForCausalLM"})\n'),
    Shape("keys method", 'ARCHS = {"AlphaForCausalLM": "alpha"}.keys()\n'),
    Shape("copy method", 'ARCHS = {"AlphaForCausalLM"}.copy()\n'),
    Shape("filtered comprehension", 'ARCHS = [a for a in ["AlphaForCausalLM", "BetaForCausalLM"] if a]\n'),
    Shape("dict literal", 'ARCHS = {"AlphaForCausalLM": "alpha", "BetaForCausalLM": "beta"}\n'),
    Shape("dict call", 'ARCHS = dict(AlphaForCausalLM="alpha")\n'),
    Shape("dict unpacking", 'BASE = {"BetaForCausalLM": "beta"}\nARCHS = {**BASE, "AlphaForCausalLM": "alpha"}\n'),
    Shape("starred element", 'BASE = ["BetaForCausalLM"]\nARCHS = [*BASE, "AlphaForCausalLM"]\n'),
    Shape("string constant", 'ALPHA = "AlphaForCausalLM"\nARCHS = {ALPHA}\n'),
    Shape("reference", 'BASE = {"AlphaForCausalLM"}\nARCHS = BASE\n'),
    Shape("grown by add", 'ARCHS = set()\nARCHS.add("AlphaForCausalLM")\n'),
    Shape("grown by update", 'ARCHS = {"BetaForCausalLM"}\nARCHS.update({"AlphaForCausalLM"})\n'),
    Shape("grown by item", 'ARCHS = {}\nARCHS["AlphaForCausalLM"] = "alpha"\n'),
    Shape("grown by operator", 'ARCHS = ["BetaForCausalLM"]\nARCHS += ["AlphaForCausalLM"]\n'),
    Shape("function-local", 'def uses(arch):\n    local = {"AlphaForCausalLM", "BetaForCausalLM"}\n'
                            '    return arch in local\n', "uses.local"),
    Shape("inline test", 'def uses(arch):\n    return arch in ("AlphaForCausalLM", "BetaForCausalLM")\n', "uses#1"),
    Shape("searched for", 'def uses(config):\n    local = ["AlphaForCausalLM", "BetaForCausalLM"]\n'
                          '    return any(a in config.architectures for a in local)\n', "uses.local"),
    Shape("intersection", 'def uses(config):\n    return bool(set(config.architectures) & {"AlphaForCausalLM"})\n',
          "uses#1"),
    Shape("list equality", 'def uses(config):\n    return config.architectures == ["AlphaForCausalLM"] or \\\n'
                           '        config.architectures == ["BetaForCausalLM"]\n', "uses#1"),
    Shape("class attribute", 'class Config:\n    _ARCHITECTURES = ("AlphaForCausalLM", "BetaForCausalLM")\n',
          "Config._ARCHITECTURES"),
    Shape("decorator arguments", '@register_for("AlphaForCausalLM", "BetaForCausalLM")\ndef overrides():\n'
                                 '    pass\n', "@register_for:overrides"),
)
