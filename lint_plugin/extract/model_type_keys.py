"""Where a module tests a checkpoint's `model_type` (`"qwen3_moe"`), the second scheme models are named by.

`if hf_config.model_type in ("deepseek_v3", "kimi_k2"):`, `MOE_TYPES[config.model_type]`,
`model_type == "llama4" or model_type == "llama4_text"`: a list of model types gates behaviour as
a list of architectures does. The key is written with the word itself: an attribute or name
`model_type` (or `text_model_type`, any `*_model_type`), `getattr(config, "model_type", None)`,
`config["model_type"]`, `config.get("model_type")`, or a name assigned one of those. So a file
that never spells `model_type` tests none, which is what the prefilter keeps (`MODEL_TYPE`). A
table looked up in the statements around a line that spells it is keyed by whatever name those
statements assign one to (`raw = config.get("model_type")`, then `norm = raw.lower() if raw else
""`, then `norm in _TYPES`); an inline list is one of model types where the name tested says so
(`model_type = ...`, `llm_model_type = ...`), and only there.

A tested list counts as one of model types only when its strings are written as model types are:
words without spaces, most of them in the lowercase shape the convention gives model types
(`qwen3_5_moe`, `internvl_chat`, `bert-generation`), the rest a model whose config chose another
(vLLM's MLA list holds `"AXK1"` among `"deepseek_v3"` and `"kimi_k2"`; Falcon's old `"RefinedWeb"`),
and none an architecture name: lmdeploy names a variable `model_type` that holds
`type(model).__name__`, and the class names it is tested against say so.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Iterable, Iterator, Optional, Sequence, Set, Tuple

from .keys import Absolute, keyed_tables, near_keys

MODEL_TYPE = b"model_type"  # every key form spells it: a file without it tests no model type
MODEL_TYPE_SHAPE = re.compile(r"[a-z][a-z0-9]*(?:[_\-.][a-z0-9]+)*")
# a word a config may choose as its model type when it leaves the convention (`AXK1`, `RefinedWeb`)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*")


# What follows a key spelling `model_type` when it is tested: `cfg.model_type in`, `model_type not in`,
# `getattr(cfg, "model_type", None) ==`, `(cfg.model_type) !=` (across a line break too)
# (`str(getattr(cfg, "model_type", "")).lower() in`: normalised first)
_TESTED_AFTER = re.compile(rb"(?:[\"'](?:\s*,[^()\n]*)?\))?\)?\]?(?:\.(?:lower|strip|casefold)\(\))?\s*"
                           rb"(?:not\s+in\b|in\b|[!=]=)")
# what precedes one on its line when it is tested or looked up: `"llama" == cfg.model_type`, `T[cfg.model_type]`,
# `T.get(cfg["model_type"])`
_TESTED_BEFORE = (b"==", b"!=", b"[", b".get(")


def tests_a_model_type(source: bytes) -> bool:
    """May the file test a model type against a list (`model_type_keys.py` reads which)? The prefilter's
    signal: a file that only passes one along (`model_type=config.model_type`) is not parsed for it."""
    return next(_tested(source), None) is not None


def tested_lines(source: bytes) -> Set[int]:
    """The lines where a model type may be tested or looked up (`tests_a_model_type`): where the extractor
    reads the statements around (empty for nearly every file). A name assigned one (`model_type =
    cfg.model_type`) matters only where it is tested, which is such a line."""
    lines: Set[int] = set()
    line, at = 1, 0
    for found in _tested(source):
        line += source.count(b"\n", at, found)
        at = found
        lines.add(line)
    return lines


def _tested(source: bytes) -> Iterator[int]:
    """Where the bytes spell `model_type` tested: asked of what follows each and of its line before it."""
    found = source.find(MODEL_TYPE)
    while found != -1:
        end = found + len(MODEL_TYPE)
        if _TESTED_AFTER.match(source, end) or any(
                mark in source[source.rfind(b"\n", 0, found) + 1:found] for mark in _TESTED_BEFORE):
            yield found
        found = source.find(MODEL_TYPE, end)


def is_model_type(node: ast.AST, holders: Set[str]) -> bool:
    """Is `node` a checkpoint's model type: `x.model_type`, `model_type`, `getattr(x, "model_type", ...)`,
    `x["model_type"]`, `x.get("model_type")`, or a name in `holders` (assigned one)?"""
    if isinstance(node, ast.Name):
        return _spells(node.id) or node.id in holders
    if isinstance(node, ast.Attribute):
        return _spells(node.attr)
    if isinstance(node, ast.Subscript):
        return _is_model_type_text(node.slice)
    if isinstance(node, ast.IfExp):  # `mt.lower() if isinstance(mt, str) else ""`: one, or a default
        return is_model_type(node.body, holders) and isinstance(node.orelse, ast.Constant)
    if isinstance(node, ast.Call) and normalised(node):  # `str(cfg.model_type).lower()`
        inner = node.func.value if isinstance(node.func, ast.Attribute) else node.args[0]
        return is_model_type(inner, holders)
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "getattr" and len(node.args) >= 2:
            return _is_model_type_text(node.args[1])
        if isinstance(func, ast.Attribute) and func.attr == "get":
            return _is_model_type_text(node.args[0])
    return False


def normalised(call: ast.Call) -> bool:
    """`str(x)`, `x.lower()`, `x.strip()`, `x.casefold()`: the same key, normalised."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "str" and len(call.args) == 1 and not call.keywords
    return isinstance(func, ast.Attribute) and func.attr in ("lower", "strip", "casefold") and not call.args


def holders_in(statements: Iterable[ast.AST]) -> Set[str]:
    """Names assigned a model type in `statements` whose own name says so (`model_type = cfg.model_type`)."""
    found: Set[str] = set()
    for node in statements:
        if isinstance(node, ast.Assign) and is_model_type(node.value, set()):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name) and _spells(t.id))
    return found


def model_types_only(names: Sequence[str]) -> bool:
    """Are the strings of a tested list written as model types: all words, most in the model-type shape?"""
    shaped = sum(1 for n in names if MODEL_TYPE_SHAPE.fullmatch(n) is not None)
    return 2 * shaped > len(names) and all(_WORD.fullmatch(n) is not None for n in names)


def written_as_model_types(names: Sequence[str], is_name: Callable[[str], object]) -> bool:
    """Are these a list's strings of model types: all in that shape, and none an architecture name as the
    project spells them (a project whose `name-pattern` takes model types reads them as its own names)?"""
    return model_types_only(names) and not any(is_name(n) for n in names)


def tables_keyed_by_model_type(tree: ast.Module, lines: Set[int], absolute: Optional[Absolute] = None
                               ) -> Tuple[str, ...]:
    """The names (as this module writes them) of the collections it looks up with a model type, read in the
    statements that span `lines` (`tested_lines`)."""
    return keyed_tables(near_keys(tree.body, lines), _key, absolute)


def _key(node: ast.AST, holders: Set[str]) -> bool:
    return is_model_type(node, holders)


def _spells(name: str) -> bool:
    return name == "model_type" or name.endswith("_model_type")


def _is_model_type_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == "model_type"
