"""What every reader of one module needs: its name, imports, positions, the name shape."""
from __future__ import annotations

import ast
import copy
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .bindings import absolute_module
from .facts import Ref
from .spelling import names_test


class ModuleContext:
    """Per-file state shared by the value, predicate and module readers."""

    def __init__(self, path: str, module: str, is_package: bool, lines: List[bytes],
                 name_regex: "re.Pattern[str]") -> None:
        self.path = path
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.lines = lines
        self.name_regex = name_regex
        self._is_name = names_test(name_regex)
        self.imports: Dict[str, Tuple[str, Optional[str]]] = {}
        self.star_imports: List[str] = []
        self.named: Dict[str, ast.Constant] = {}  # module names bound to one written string (`named_strings.py`)
        self._text: Optional[bytes] = None  # the lines joined, and where each starts in it: made on first use
        self._starts: List[int] = []

    def mentions(self, first: int, last: int, needles: Iterable[bytes], words: bool = False) -> bool:
        """Do lines `first`..`last` (1-based, inclusive) hold any of `needles` (none holding a newline)?
        `words`: as a whole word (`T` is not mentioned by `Tensor`).

        Searched in place in the joined text: slicing and joining a long function's lines for every
        question cost more than the questions."""
        if self._text is None:
            self._text = b"\n".join(self.lines)
            starts, position = [], 0  # a new list: a scoped copy (`scoped`) may share the old one
            for line in self.lines:
                starts.append(position)
                position += len(line) + 1
            starts.append(position)
            self._starts = starts
        first, last = max(first, 1), min(last, len(self.lines))
        if first > last:
            return False
        start, end = self._starts[first - 1], self._starts[last] - 1
        if not words:
            return any(self._text.find(needle, start, end) != -1 for needle in needles)
        return any(_word_at(self._text, needle, start, end) for needle in needles)

    def is_name(self, text: str) -> bool:
        """Does a string look like an architecture name (the configured shape, and no factory of `transformers`)?"""
        return self._is_name(text)

    def written(self, node: ast.expr) -> Optional[ast.Constant]:
        """The string `node` is, written out or through a module name bound to one (`LLAMA`,
        `ModelType.LLAMA.value`), or None."""
        if is_str(node):
            return node  # type: ignore[return-value]
        if self.named and isinstance(node, (ast.Name, ast.Attribute)):
            dotted = dotted_name(node)
            return self.named.get(dotted) if dotted is not None else None
        return None

    def column(self, node: ast.AST) -> int:
        """1-based character column (ast gives a UTF-8 byte offset)."""
        line_no = getattr(node, "lineno", 1)
        offset = getattr(node, "col_offset", 0)
        if 0 < line_no <= len(self.lines):
            return len(self.lines[line_no - 1][:offset].decode("utf-8", "replace")) + 1
        return offset + 1

    def absolute(self, module: Optional[str], level: int) -> Optional[str]:
        """The absolute module of a (possibly relative) `from ... import`: as the prefilter resolves it."""
        if level == 0:
            return module
        return absolute_module(self.package, module or "", level)

    def add_import(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    self.imports[alias.asname] = (alias.name, None)
                else:
                    top = alias.name.partition(".")[0]
                    self.imports.setdefault(top, (top, None))
        elif isinstance(stmt, ast.ImportFrom):
            base = self.absolute(stmt.module, stmt.level)
            if base is None:
                return
            for alias in stmt.names:
                if alias.name == "*":
                    self.star_imports.append(base)
                else:
                    self.imports[alias.asname or alias.name] = (base, alias.name)

    def scoped(self, imports: Sequence[ast.stmt]) -> "ModuleContext":
        """This context inside a function whose body imports `imports`: their names shadow the module's."""
        if not imports:
            return self
        inner = copy.copy(self)
        inner.imports = dict(self.imports)
        inner.star_imports = list(self.star_imports)
        for stmt in imports:
            inner.add_import(stmt)
        return inner

    def ref(self, node: ast.expr) -> Optional[Ref]:
        """A reference to a module-level name, here or in an imported module."""
        if isinstance(node, ast.Name):
            target = self.imports.get(node.id)
            if target is None:
                return Ref(self.module, node.id, node.lineno)
            module, attribute = target
            if attribute is None:
                return None  # a bare module is not a collection
            return Ref(module, attribute, node.lineno)
        if isinstance(node, ast.Attribute):
            dotted = dotted_name(node.value)
            if dotted is None:
                return None
            head, _, rest = dotted.partition(".")
            target = self.imports.get(head)
            if target is None:
                return None
            module = target[0] if target[1] is None else f"{target[0]}.{target[1]}"
            return Ref(f"{module}.{rest}" if rest else module, node.attr, node.lineno)
        return None


def _word_at(text: bytes, word: bytes, start: int, end: int) -> bool:
    """Does `text[start:end]` spell `word` with no name character on either side?"""
    found = text.find(word, start, end)
    while found != -1:
        after = found + len(word)
        if (found == 0 or not name_byte(text[found - 1])) and (after >= len(text) or not name_byte(text[after])):
            return True
        found = text.find(word, found + 1, end)
    return False


def name_byte(byte: int) -> bool:
    """May this byte be part of a name (ASCII letters, digits, `_`, and any byte of a non-ASCII one)?"""
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122 or byte >= 128


def dotted_name(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted_name(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def short(node: ast.expr) -> str:
    """Source-like text of an expression, for messages."""
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every parsed tree
        text = type(node).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def is_str(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def names_a_list(node: ast.expr) -> bool:
    """`config.architectures` (plural, not indexed) holds names; `arch` or `archs[0]` is one name."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
            and len(node.args) >= 2 and is_str(node.args[1]):
        return str(node.args[1].value).endswith("s")  # type: ignore[attr-defined]
    if isinstance(node, ast.Attribute):
        return node.attr.endswith("s")
    if isinstance(node, ast.Name):
        return node.id.endswith("s")
    return False
