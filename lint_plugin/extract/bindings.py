"""How a module sees another's names: its import statements, read from bytes as the extractor reads them.

Python lets one module reach a name defined in another only through an import statement (a
from-import, a module object and its attributes, a star import), and the extractor follows
exactly those (`ModuleContext.add_import` and `ModuleContext.ref`). So the files that may take a
name from a chosen file are the files whose imports reach it, and the byte prefilter needs no
other description of what a file refers to: it reads the same statements from the bytes
(`import_bindings`), at any indentation, whatever their layout (parentheses, `as`, continuation
lines, several on a line), keeping more than the parser would (a statement in a string) but never
less, and the selection asks `Reachers`, the one rule of which imports reach what.

A binding is stored as `level:module:name`: `0:a.b:` for `import a.b as x` (its dotted attributes
reach every module under `a.b`), `2:m:X` for `from ..m import X` (relative, resolved against the
importing module's package), `0:m:*` for a star import. `import a.b` binds the top package `a`,
whose dotted attributes could reach any module of it, so it is stored as `^a`; when `a` is one of
the project's own top packages, the dotted paths the file writes from it (`dotted_paths`: `a.b.c.X`
reaches the modules it passes through) are read then, rather than taking all of `a`.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import AbstractSet, Callable, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

from .anchors import Anchored, Scan

_WS = rb"(?:[ \t\f]|\\\r?\n)"  # blanks, and line continuations, inside a statement
# Literal first (the engine then skips ahead to each `from` or `import`); whether the word starts a
# statement is asked of the bytes before it (`_starts_statement`), for the few matches there are.
_FROM = Anchored.of(b"from", _WS + rb"+(\.*[\w.]*)" + _WS + rb"+import" + _WS + rb"*"
                    rb"(\((?:[^)#]|#[^\n]*)*\)|(?:[^\n;#\\]|\\\r?\n)*)")
_IMPORT = Anchored.of(b"import", _WS + rb"+((?:[^\n;#\\]|\\\r?\n)*)")
# the literals the expressions above start with: the prefilter finds them with its own in one pass
LITERALS = _FROM.literals + _IMPORT.literals
_COMMENT = re.compile(rb"#[^\n]*")
_AS = re.compile(rb"\s+as\s+")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_INDENT = b" \t\f"
_WORD_OR_DOT = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_BEFORE = b"\n;:"  # a statement starts after a newline, a `;` or a compound statement's `:`


def import_bindings(data: bytes, scan: Optional[Scan] = None) -> FrozenSet[str]:
    """Every import binding the bytes may hold (`level:module:name`), a superset of what the parser reads.
    `scan`: the bytes with where `LITERALS` are spelt, when a pass over them found those already."""
    scan = Scan(data, None) if scan is None else scan
    if not scan.has(b"import"):
        return frozenset()
    found: Set[str] = set()
    for match in scan.finditer(_FROM):
        if _starts_statement(data, match.start()):
            found.update(_from_bindings(match.group(1), match.group(2)))
    for match in scan.finditer(_IMPORT):
        if _starts_statement(data, match.start()):  # not the `import` of a from-import, nor a word in a string
            found.update(_import_bindings(match.group(1)))
    return frozenset(found)


# Every import statement's names follow its `import` keyword: in parentheses (comments inside), or to the
# end of the logical line. Matched at every `import` in the bytes, each alone (a word in a string too).
_IMPORTED_NAMES = re.compile(rb"import" + _WS + rb"*(\((?:[^)#]|#[^\n]*)*\)|(?:[^\n;#\\]|\\\r?\n)*)")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def may_bind(data: bytes, name: str) -> bool:
    """May a module with these bytes define a function `name`, or bind `name` by an import (a star import
    may bind any)? False only when it surely does neither: resolution asking whether `name` is a
    predicate there (`imports.locate`) would find no predicate, and the module need not be parsed."""
    if not _IDENTIFIER.fullmatch(name):
        return True  # a dotted or non-ASCII name: not told from the bytes
    word: Optional["re.Pattern[bytes]"] = None  # bytes that never spell the name bind it by a star import alone
    if name.encode() in data:
        definition, word = _binding_patterns(name)
        if definition.search(data):
            return True
    start = data.find(b"import")
    while start != -1:
        names = _IMPORTED_NAMES.match(data, start)
        if names is not None and (b"*" in names.group(1) or (word is not None and word.search(names.group(1)))):
            return True
        start = data.find(b"import", start + 6)
    return False


@functools.lru_cache(maxsize=1 << 10)  # resolution asks of several modules for the same few names
def _binding_patterns(name: str) -> Tuple["re.Pattern[bytes]", "re.Pattern[bytes]"]:
    """`def NAME` and the word NAME, as bytes expressions."""
    encoded = name.encode()
    return re.compile(rb"\bdef" + _WS + rb"+" + encoded + rb"\b"), re.compile(rb"\b" + encoded + rb"\b")


def dotted_paths(data: bytes, head: str) -> FrozenSet[str]:
    """Each dotted path the file writes from the plain-imported top package `head` (`a.b.c.X` for
    `import a.b` then `a.b.c.X`): asked only for a project's own top packages, the few files that
    import one plainly, rather than recorded for every `torch.nn.functional` of every file."""
    found = set()
    for match in _path_pattern(head).finditer(data):
        start = match.start()
        if start == 0 or data[start - 1] not in _WORD_OR_DOT:
            path = match.group()
            if b"." != path[len(head):len(head) + 1] or _GAP.search(path):  # `(pkg\n .a)`: as the parser joins it
                path = _GAP.sub(b"", path)
            found.add(path.decode("ascii", "replace"))
    return frozenset(found)


@functools.lru_cache(maxsize=1 << 10)
def _path_pattern(head: str) -> "re.Pattern[bytes]":
    return re.compile(re.escape(head.encode()) + rb"(?:" + _GAP_TEXT + rb"*\." + _GAP_TEXT + rb"*[A-Za-z_]\w*)+")


_GAP_TEXT = rb"(?:[ \t\f\r\n]|\\\r?\n|#[^\n]*\n)"  # what may stand between the parts of a dotted path
_GAP = re.compile(_GAP_TEXT)


def _starts_statement(data: bytes, position: int) -> bool:
    """Is the word at `position` the first of a statement (only indentation since a line start, `;` or `:`)?"""
    before = position - 1
    while before >= 0 and data[before] in _INDENT:
        before -= 1
    if before < 0:
        return True
    if data[before] == 10 and before >= 1 and data[before - 1] == 92:  # `\` then a newline: a continued line
        return False
    return data[before] in _BEFORE or data[before] == 13


@functools.lru_cache(maxsize=1 << 14)  # files import the same few things, written the same way
def _from_bindings(module: bytes, names: bytes) -> Tuple[str, ...]:
    text = module.decode("ascii", "replace")
    level = len(text) - len(text.lstrip("."))
    base = text[level:]
    if base and not _DOTTED.fullmatch(base):
        return ()
    return tuple(f"{level}:{base}:{name}" for name in (item.partition(" as ")[0].strip() for item in _items(names))
                 if name == "*" or _DOTTED.fullmatch(name))


@functools.lru_cache(maxsize=1 << 14)
def _import_bindings(names: bytes) -> Tuple[str, ...]:
    found = []
    for item in _items(names):
        dotted, _, alias = item.partition(" as ")
        dotted = dotted.strip()
        if _DOTTED.fullmatch(dotted):
            found.append(f"0:{dotted}:" if alias.strip() else "^" + dotted.partition(".")[0])
    return tuple(found)


def _items(raw: bytes) -> List[str]:
    """The comma-separated items of an import list, comments, parentheses and continuations removed."""
    if b"#" in raw:
        raw = _COMMENT.sub(b"", raw)
    if b"\\" in raw:
        raw = raw.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ")
    raw = raw.strip().strip(b"()")
    if b" as" in raw or b"\tas" in raw or b"as\t" in raw or b"\nas" in raw:
        raw = _AS.sub(b" as ", raw)
    return [item.strip() for item in raw.decode("ascii", "replace").split(",") if item.strip()]


def absolute_module(package: str, module: str, level: int) -> Optional[str]:
    """The absolute module a (possibly relative) import names, from a module of `package`; None when a
    relative import climbs above the top package."""
    if level == 0:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    if module:
        base.append(module)
    return ".".join(base) or None


@dataclass(frozen=True)
class Reach:
    """What one binding of a module of a known package lets it refer to: a from-imported `name`, the
    modules at or under `prefix` (a bound module's dotted attributes), the modules a written dotted
    `path` passes through, or all `star` holds."""

    name: str = ""
    prefix: str = ""
    path: str = ""
    star: bool = False


def reach_of(bindings: Iterable[str], package: str, tops: AbstractSet[str] = frozenset(),
             paths: Callable[[str], AbstractSet[str]] = lambda head: frozenset()) -> Tuple[Reach, ...]:
    """The bindings of a module of `package`, resolved (relative imports made absolute) once. A plain
    import of one of the project's top packages (`tops`) reaches the modules the dotted paths the file
    writes from it pass through (`paths(head)`); of anything else, nothing of the project."""
    found: List[Reach] = []
    for binding in bindings:
        if binding[0] == "^":
            if binding[1:] in tops:
                found.extend(Reach(path=path) for path in sorted(paths(binding[1:])))
            continue
        level_text, module, name = binding.split(":", 2)
        base = absolute_module(package, module, int(level_text))
        if base is None:
            continue
        if name == "*":
            found.append(Reach(prefix=base, star=True))
        else:
            found.append(Reach(name, f"{base}.{name}" if name else base))
    return tuple(found)


@dataclass(frozen=True)
class Targets:
    """What a pass of the selection looks for: `names` that carry (wherever they are defined), the
    `carriers` (modules that define or import such names) and every package above a carrier, so each
    binding is looked up, not compared with every carrier."""

    names: AbstractSet[str]
    carriers: AbstractSet[str]
    above: FrozenSet[str]

    @classmethod
    def of(cls, names: AbstractSet[str], carriers: AbstractSet[str]) -> "Targets":
        # `src.pkg.mod` is imported as `pkg.mod` when `src` is no source root (the resolver allows one
        # leading directory to be missing): both spellings are targets
        spelt = set(carriers) | {carrier.partition(".")[2] for carrier in carriers if "." in carrier}
        above = {carrier[:at] for carrier in spelt for at, char in enumerate(carrier) if char == "."}
        return cls(names, frozenset(spelt), frozenset(above))


class Reachers:
    """Modules by what their bindings reach, so that each pass of the selection looks up what it adds
    instead of asking every module. The one rule of what reaches what, as `ModuleContext.ref`
    resolves: a from-imported name is that name; a bound module (or package) reaches every module
    under it through dotted attributes, a written dotted path the modules it passes through; a star
    import reaches what its module holds."""

    def __init__(self) -> None:  # filled by `of`
        # lists, not sets (a module may be listed twice): a run fills them with 125,000 entries on SGLang and
        # asks a few of them
        self.by_name: Dict[str, List[str]] = {}  # a from-imported name -> the modules importing it
        self.by_module: Dict[str, List[str]] = {}  # a module -> the modules whose bindings reach it
        self.by_package: Dict[str, List[str]] = {}  # a bound module -> its binders (they reach all under it)

    @classmethod
    def of(cls, modules: Iterable[Tuple[str, Iterable[str], str]], tops: AbstractSet[str],
           paths: Callable[[str], Callable[[str], AbstractSet[str]]]) -> "Reachers":
        """The index of (module, its import bindings, its package) for each module, each distinct binding
        resolved once for all the modules that hold it (`reach_of`; a relative one once per package): on
        SGLang 49,000 bindings of 3,167 modules are 11,000 distinct. `paths(module)` is `reach_of`'s
        `paths` for that module's plain imports of the project's top packages (`tops`)."""
        reachers = cls()
        holders: Dict[Tuple[str, str], List[str]] = {}  # (binding, package) -> the modules holding it
        for module, bindings, package in modules:
            for binding in bindings:
                if binding[0] != "^":  # an absolute import (`0:...`) reaches the same from any package
                    holders.setdefault((binding, package if binding[0] != "0" else ""), []).append(module)
                elif binding[1:] in tops:
                    for item in reach_of((binding,), package, tops, paths(module)):
                        reachers._index(item, (module,))
        for (binding, package), holding in holders.items():
            for item in reach_of((binding,), package):
                reachers._index(item, holding)
        return reachers

    def _index(self, item: Reach, modules: Iterable[str]) -> None:
        if item.path:
            at = item.path.rfind(".")
            while at > 0:
                self.by_module.setdefault(item.path[:at], []).extend(modules)
                at = item.path.rfind(".", 0, at)
            return
        self.by_module.setdefault(item.prefix, []).extend(modules)
        if not item.star:
            self.by_package.setdefault(item.prefix, []).extend(modules)
            if item.name:
                self.by_name.setdefault(item.name, []).extend(modules)

    def reaching(self, targets: Targets) -> Set[str]:
        """The modules whose bindings refer to one of the target names or into a carrier."""
        found: Set[str] = set()
        for name in targets.names:
            found.update(self.by_name.get(name, ()))
        for carrier in targets.carriers:
            found.update(self.by_module.get(carrier, ()))
        for package in targets.above:
            found.update(self.by_package.get(package, ()))
        return found
