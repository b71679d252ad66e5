"""Byte-level tests that keep files which cannot matter away from any parser.

A file matters when it may hold a guarded collection (its bytes contain a literal
piece of a `guard` glob), a registration (a registry name), or a quoted string that
is a registered architecture name (any name-shaped string while nothing is
registered). Families are limited to registered names, so a predicate listing only
unregistered strings cannot be a family, unless it tests names by shape
(`arch.startswith("Llama")`, `"Qwen3" in arch`): those strings are kept apart, and a file
testing a piece of a registered name is kept too. A file reaches another's names only through its
imports (`extract/bindings.py`), which are read too; anything referenced from a kept file is parsed
on demand by the index.
"""
from __future__ import annotations

import bisect
import codecs
import re
from dataclasses import dataclass
from typing import Any, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from ..config import Config
from ..extract import bindings
from ..extract.anchors import Anchored, Anchors, Scan
from ..extract.bindings import import_bindings
from ..extract.model_chains import may_build_per_name
from ..extract.model_type_keys import MODEL_TYPE, tests_a_model_type
from ..extract.spelling import an_architecture, embeddable, respelt
from .model_types import load_table
from .register_calls import filed_under, may_register

# Glob characters, plus the '@' and ':' of anonymous (`function@line`) and decorator
# (`@decorator:function`) collection names, which never appear in the source as written.
_NOT_IN_SOURCE = re.compile(r"[*?\[\]@:#.]")


@dataclass(frozen=True)
class Signals:
    """What the bytes of one file say about it, before any parsing."""

    guarded: bool  # may define a guarded collection or a configured family
    registers: bool  # mentions a configured registry name, or may register names by shape
    # strings in the architecture-name shape, quoted or written as keywords of `dict(...)` and
    # `.update(...)` (`dict(LlamaForCausalLM="llama")`): names the file holds
    quoted: FrozenSet[str]
    # the import bindings of every import statement (`extract/bindings.py`): how this file may reach the
    # names another file defines (a predicate here may test names that live there)
    imports: FrozenSet[str] = frozenset()
    # names imported at module level (`from m import A, B as C` -> A, C): a collection built
    # here from another file's constants takes part in what a third file tests
    imported: FrozenSet[str] = frozenset()
    # classes defined at column 0 (`class Qwen3_5MoeForCausalLM(...)`): a model class the project
    # defines but does not register is told apart from a checkpoint alias
    classes: FrozenSet[str] = frozenset()
    # `Child:Base:methods:line` for each column-0 model class with a base it names (`class
    # MistralForCausalLM(LlamaForCausalLM)` with 0 methods of its own runs the base's code), and
    # `Alias:Target:-1:line` for a column-0 alias (`MistralForCausalLM = LlamaForCausalLM`)
    bases: FrozenSet[str] = frozenset()
    # strings a value is tested against by shape: `startswith("Llama")` / `endswith(...)` arguments
    # and the left side of `"Qwen3" in arch`. A test of a piece of a registered name is a family.
    shape_tests: FrozenSet[str] = frozenset()
    # `Child:Config:line` for each column-0 model class of `bases` built with a config class it names:
    # its `__init__`'s `config: Qwen3MoeConfig` (or `Optional[...]`, quoted), or `config_class = X`
    configs: FrozenSet[str] = frozenset()
    # spells `model_type`: may test a checkpoint's model type against a list (`config.model_type in (...)`), a
    # list of the second naming scheme, which holds no architecture name to find it by (`model_type_keys.py`)
    model_types: bool = False
    # `Child:Built:line` for each language-model class a column-0 model class instantiates whole as an
    # attribute (`self.language_model = Lfm2ForCausalLM(...)`): a wrapper that runs that model as its own
    builds: FrozenSet[str] = frozenset()
    # the strings a decorator files the class below it under (`@INPUT_MODELS.register_module(name="deepseek2")`):
    # the keys of a registry of the project's own, which another engine's table of names may map to
    # (`resolve/engine_tables.py`); read in every file, so that table is known whatever files are parsed
    keys: FrozenSet[str] = frozenset()
    # column-0 classes that name no base (`class ModelBase:`, `(object)`), and those whose body defines `forward` or
    # `__call__`: a registered class whose every line of bases is the project's own, from such a root, with neither
    # anywhere, builds no model (a converter's class: llama.cpp's `class LlamaModel(TextModel)`; `kinship/build.py`)
    roots: FrozenSet[str] = frozenset()
    runs: FrozenSet[str] = frozenset()


def stored_signals(signals: Signals) -> List[Any]:
    """Signals as the cache stores them (and the result cache keys them): sets as sorted lists."""
    return [signals.guarded, signals.registers, sorted(signals.quoted), sorted(signals.imports),
            sorted(signals.imported), sorted(signals.classes), sorted(signals.bases), sorted(signals.shape_tests),
            sorted(signals.configs), signals.model_types, sorted(signals.builds), sorted(signals.keys),
            sorted(signals.roots), sorted(signals.runs)]


class Prefilter:
    """Computes `Signals` for a file's bytes under one configuration."""

    def __init__(self, config: Config, compiled: Optional[bool] = None) -> None:
        """`compiled`: find the expressions' literals with the compiled matcher (None: where it is
        installed; False: the pure-Python path, which gives the same signals)."""
        self.registry_tokens = [r.lstrip("@").encode() for r in config.registries if "::" not in r and r[:1] != "!"]
        self.table = load_table()  # what a registry keyed by model type registers (`model_types.py`)
        qualified = tuple(r for r in config.registries if "::" in r)
        self.guard_tokens: List[bytes] = []
        # A pattern with no literal piece to look for (`*`, `f#1`) may match any file's names.
        self.guards_every_file = False
        for pattern in config.guard + config.named_families + config.named_collections + qualified + config.config_maps:
            pieces = [p for p in _NOT_IN_SOURCE.split(pattern.rsplit("::", 1)[-1]) if len(p) >= 3]
            if pieces:
                self.guard_tokens.append(max(pieces, key=len).encode())
            else:
                self.guards_every_file = True
        # One expression per quote character: a literal first byte lets the regex
        # engine skip ahead, about 5x faster than a ["'] class on real trees.
        # A plain name shape (the default) is embedded in the byte expressions (fast). Another may use
        # what bytes expressions do not take (`(?i)`, `\\N{...}`) or match across quotes, so it is
        # never embedded: candidates are the quoted strings, each then matched whole by the pattern.
        self.name_filter = None if embeddable(config.name_pattern) else config.name_regex
        self.is_name = config.name_regex.fullmatch
        name = config.name_pattern.encode() if self.name_filter is None else rb"[^\"'\\\n]+"
        self.quoted = (re.compile(rb'"(%s)"' % name), re.compile(rb"'(%s)'" % name))
        self.keyword = re.compile(rb"(?<![\w.])(%s)[ \t]*=(?!=)" % (
            name if self.name_filter is None else rb"[A-Za-z_]\w*"))
        # Registrations by shape (lint_plugin.extract.registrations): a registering call or decorator
        # with a string argument, a dict entry or item store binding a name to a class.
        self.calls = (Anchored.of(b"egist", rb"\w*\s*\(\s*(?:name\s*=\s*)?[\[(]?\s*[\"'][A-Za-z]"),
                      Anchored.of(b"register_model", rb"\w*\s*\("))
        self.shapes = (re.compile(rb"\"%s\"\s*:\s*(?:\(\s*[\"']|f?[\"'][\w.{}]*[.:][A-Z]|_*[A-Z]\w*\s*[,}\n])" % name),
                       re.compile(rb"'%s'\s*:\s*(?:\(\s*[\"']|f?[\"'][\w.{}]*[.:][A-Z]|_*[A-Z]\w*\s*[,}\n])" % name),
                       re.compile(rb"\[\s*[\"']%s[\"']\s*\]\s*=\s*_*[A-Z]" % name))
        tokens = b"|".join(re.escape(t) for t in self.registry_tokens) if self.registry_tokens else rb"(?!x)x"
        # Column-0 patterns start with a newline and run on `b"\n" + data` (`Scan.padded`).
        self.registration = Anchored.branches([b"\n" + t for t in self.registry_tokens],
                                              rb"\n(?:%s)[ \t]*(?::[^=\n]*)?=(?!=)" % tokens)
        # every literal an expression of the scan starts with, found together in one pass
        self.anchors = Anchors(self.registry_tokens + self.guard_tokens + list(bindings.LITERALS)
                               + [literal for call in self.calls for literal in call.literals]
                               + list(self.registration.literals) + list(_COLUMN0.literals)
                               + list(_AFFIX_TEST.literals) + list(_KEYWORD_CALLS) + list(_BUILT) + list(_RUNS)
                               + [b"class", MODEL_TYPE],
                               compiled)

    def signals(self, data: bytes) -> Signals:
        scan = self.anchors.scan(data)
        top = _column0(scan, models=scan.has(b"class"))
        double, single = (pattern.findall(data) for pattern in self.quoted)
        read_otherwise = respelt(data)  # strings the parser reads otherwise than their bytes spell them
        calls = list(scan.finditer(self.calls[0]))  # registering calls: whether they may register, and their keys
        quoted = self._named(_decoded(double + single, "utf-8") | self._keyword_names(scan)
                             | frozenset(filter(self.is_name, read_otherwise)))
        return Signals(
            guarded=self.guards_every_file or any(scan.has(token) for token in self.guard_tokens),
            registers=any(scan.has(token) for token in self.registry_tokens)
            or self._shaped(scan, bool(double), bool(single), quoted, calls),
            quoted=quoted,
            imports=import_bindings(data, scan),
            imported=top.imported,
            classes=top.classes,
            bases=top.bases,
            shape_tests=_shape_tests(scan) | _pieces(data) | read_otherwise,
            configs=top.configs,
            model_types=scan.has(MODEL_TYPE) and tests_a_model_type(data),
            builds=top.builds,
            keys=frozenset(key for key in (filed_under(data, m.start(), m.end()) for m in calls) if key),
            roots=top.roots,
            runs=top.runs,
        )

    def _shaped(self, scan: Scan, double: bool, single: bool, names: Optional[FrozenSet[str]] = None,
                calls: Optional[Sequence["re.Match[bytes]"]] = None) -> bool:
        """May the file register names by shape? A registering call only where it may (`register_calls`).

        A dict entry's expression quotes a name between the same characters as `self.quoted`: it
        is only run where a name is quoted with `"` (`double`) or `'` (`single`), most files not;
        `register_model` is looked for as bytes first (faster than the expression's own search).
        `names`: the names the file spells (`Signals.quoted`), when known. A registry found by shape
        (dict entries, item stores) counts only if one of its names is spelt like an architecture
        (`registration_facts`), so a file spelling none registers nothing by those shapes; a
        decorator registers only with a string in the name shape. `calls`: the matches of the registering-call
        expression, when already found.
        """
        data = scan.data
        spelt = None if names is None else bool(names)
        if any(may_register(data, m.start(), m.end(), self.is_name, spelt)
               for m in (scan.finditer(self.calls[0]) if calls is None else calls)):
            return True
        if scan.has(b"register_model") and next(scan.finditer(self.calls[1]), None) is not None:
            return True
        if may_build_per_name(data):
            return True  # an if/elif chain may build a model per name it tests (`extract/model_chains.py`)
        if names is not None and not an_architecture(names):
            return False
        return (double and self.shapes[0].search(data) is not None) \
            or (single and self.shapes[1].search(data) is not None) \
            or self.shapes[2].search(data) is not None

    def _named(self, candidates: FrozenSet[str]) -> FrozenSet[str]:
        if self.name_filter is None:
            return candidates
        return frozenset(c for c in candidates if self.name_filter.fullmatch(c))

    def _keyword_names(self, scan: Scan) -> FrozenSet[str]:
        """Name-shaped keywords of `dict(` and `.update(` calls, looked for in a window after each."""
        data = scan.data
        names: Set[str] = set()
        for call in _KEYWORD_CALLS:
            end = 0
            for start in scan.starts(call):
                if start < end:
                    continue  # inside the previous call's window
                start += len(call)
                blank = data.find(b"\n\n", start)
                end = min(blank if blank != -1 else len(data), start + 20000)
                window = data[start:end]
                if b"=" in window:
                    names.update(m.decode("utf-8", "replace") for m in self.keyword.findall(window))
        return frozenset(names)

    def registration_snippets(self, data: bytes) -> Optional[List[Tuple[int, bytes]]]:
        """(first line, text) of each column-0 registration statement, or None if unsure.

        Lets a model file that only registers classes skip a full parse. None means
        "parse the whole file": a registry name written anywhere else (an indented
        registration, a decorator), a registration by shape, or unbalanced brackets; the
        snippets must say all that the whole file would.
        """
        scan = self.anchors.scan(data)
        matches = list(scan.finditer(self.registration, padded=True))  # offsets: +1 for the newline
        if not matches or len(matches) != sum(scan.count(token) for token in self.registry_tokens) \
                or self._shaped(scan, self.quoted[0].search(data) is not None,
                                self.quoted[1].search(data) is not None):
            return None
        snippets = []
        for match in matches:
            start = match.start()  # the newline's offset in the padded bytes: the statement's in `data`
            end = _statement_end(data, match.end() - 1)
            if end is None:
                return None
            snippets.append((data.count(b"\n", 0, start) + 1, data[start:end]))
        return snippets


def _statement_end(data: bytes, position: int) -> Optional[int]:
    depth = 0
    limit = min(len(data), position + 20000)
    while position < limit:
        char = data[position]
        if char in b"([{":
            depth += 1
        elif char in b")]}":
            depth -= 1
            if depth < 0:
                return None
        elif char in b"\"'#\\":
            return None  # strings, comments and continuations: let the parser decide
        elif char == 10 and depth == 0:
            return position
        position += 1
    return position if position == len(data) and depth == 0 else None


# model classes only (`...For<Task>`, `...Model`, `...LM`): kinship is about architectures
_CLASS_BASES = re.compile(rb"\nclass[ \t]+([A-Z]\w*(?:For[A-Z]\w*|Model|LM))[ \t]*\(([^)]*)\)[ \t]*:")
_MODEL_NAME = re.compile(rb"[A-Z]\w*(?:For[A-Z]\w*|Model|LM)")
_NEXT_STATEMENT = re.compile(rb"\n(?=[^ \t\r\n#])")  # the next column-0 line: where a class body ends
_ALIAS = re.compile(rb"\n([A-Z]\w*(?:For[A-Z]\w*|Model|LM))[ \t]*=[ \t]*([A-Z]\w*)[ \t]*(?:#[^\n]*)?(?=\r?\n|$)")
_FROM_IMPORT = re.compile(rb"\nfrom[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n\\]*)")
# Where each column-0 expression above may match, in one pass: a class, a from-import, an assignment of
# a model-class name. Each branch ends before the line does, so no match hides the start of another;
# the expressions themselves are then asked only there (`_column0`). The branches start with a newline then
# `class`, `from` or a capital (a model-class alias): the literals the scan looks for.
_CAPITALS = tuple(b"\n" + bytes((capital,)) for capital in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_COLUMN0 = Anchored.branches((b"\nclass", b"\nfrom") + _CAPITALS,
                             rb"\n(?:(class)[ \t]+([A-Z]\w*)|from[ \t]+[\w.]+[ \t]+import[ \t]|"
                             rb"[A-Z]\w*(?:For[A-Z]\w*|Model|LM)[ \t]*=)")


@dataclass(frozen=True)
class _TopLevel:
    """What the column-0 statements of a file's bytes say (`Signals.classes`, `bases`, `configs`, `imported`)."""

    classes: FrozenSet[str]
    bases: FrozenSet[str]
    configs: FrozenSet[str]
    imported: FrozenSet[str]
    builds: FrozenSet[str]
    roots: FrozenSet[str] = frozenset()
    runs: FrozenSet[str] = frozenset()


def _column0(scan: Scan, models: bool) -> _TopLevel:
    """Column-0 classes, the model classes' bases and config classes, aliases (`models`: asked only of
    a file that says `class` somewhere) and from-imported names, from one pass over the file's bytes
    after a newline. Each expression is matched only where the pass found its start, and, as its
    own search would, never inside its previous match."""
    data = scan.padded
    classes: Set[bytes] = set()
    roots: Set[bytes] = set()
    edges: Set[str] = set()
    configs: Set[str] = set()
    imported: List[bytes] = []
    class_starts: List[int] = []  # every column-0 class, its newline's offset in `data`
    class_names: List[bytes] = []
    bases_end = imports_end = 0
    for match in scan.finditer(_COLUMN0, padded=True):
        start = match.start()
        if match.group(1):  # a class
            name = match.group(2)
            classes.add(name)
            class_starts.append(start)
            class_names.append(name)
            if _BASELESS.match(data, match.end()):
                roots.add(name)
            if models and start >= bases_end and _MODEL_NAME.fullmatch(name):
                found = _CLASS_BASES.match(data, start)
                if found is not None:
                    bases_end = found.end()
                    _class_edges(data, found, edges, configs)
        elif data[start + 1] == 102:  # `from`
            if start >= imports_end:
                found = _FROM_IMPORT.match(data, start)
                if found is not None:
                    imports_end = found.end()
                    imported.append(found.group(1))
        elif models:
            found = _ALIAS.match(data, start)
            if found is not None:
                line = data.count(b"\n", 0, start + 1)
                edges.add(f"{found.group(1).decode('ascii', 'replace')}:{found.group(2).decode('ascii', 'replace')}"
                          f":-1:{line}")
    builds = _builds(scan, class_starts, class_names) if class_starts else frozenset()
    runs = _runs(scan, class_starts, class_names) if class_starts else frozenset()
    return _TopLevel(_decoded(classes, "ascii"), frozenset(edges), frozenset(configs), _names_of(imported), builds,
                     _decoded(roots, "ascii"), runs)


def _in_classes(scan: Scan, tokens: Sequence[bytes], class_starts: Sequence[int], class_names: Sequence[bytes]
                ) -> Iterator[Tuple[int, int, int, bytes]]:
    """(line start, where the token is, its length, the class) for each of `tokens` spelt in the body of a column-0
    class (after it begins and before the next column-0 statement), in the padded bytes."""
    data = scan.padded
    for token in tokens:
        for position in scan.starts(token):
            position += 1  # in the padded bytes
            line_start = data.rfind(b"\n", 0, position) + 1
            at = bisect.bisect_left(class_starts, line_start - 1) - 1  # the last class begun before the line
            if at >= 0 and _NEXT_TOP.search(data, class_starts[at] + 1, line_start - 1) is None:
                yield line_start, position, len(token), class_names[at]


def _runs(scan: Scan, class_starts: Sequence[int], class_names: Sequence[bytes]) -> FrozenSet[str]:
    """The column-0 classes whose body defines `forward` or `__call__` (at any depth inside it: a method nested
    deeper counts too, which only ever keeps a class a model)."""
    data = scan.padded
    return frozenset(name.decode("ascii", "replace")
                     for line_start, position, _, name in _in_classes(scan, _RUNS, class_starts, class_names)
                     if line_start < position and data[line_start:position].strip(b" \t") in (b"", b"async"))


def _builds(scan: Scan, class_starts: Sequence[int], class_names: Sequence[bytes]) -> FrozenSet[str]:
    """`Child:Built:line` for each language model a column-0 class instantiates whole as an attribute
    (`self.language_model = Lfm2ForCausalLM(...)`), whatever the class is called (`NemotronH_Nano_VL_V2`).
    Looked for only where the scan found a language model's name called (most files call none)."""
    data = scan.padded
    found: Set[str] = set()
    for line_start, position, length, name in _in_classes(scan, _BUILT, class_starts, class_names):
        built = _BUILD_LINE.fullmatch(data, line_start, position + length - 1)
        if built is not None:
            line = data.count(b"\n", 0, line_start)  # the padding newline makes this 1-based
            found.add(f"{name.decode('ascii', 'replace')}:{built.group(1).decode('ascii', 'replace')}:{line}")
    return frozenset(found)


def _class_edges(data: bytes, match: "re.Match[bytes]", edges: Set[str], configs: Set[str]) -> None:
    """`Child:Base:methods:line` edges of a column-0 model class (`Signals.bases`), and `Child:Config:line` for
    the config class its body names (`Signals.configs`). `data` is the file's bytes after a newline."""
    end = _NEXT_STATEMENT.search(data, match.end())
    body = data[match.end():end.start() if end else len(data)]
    methods = body.count(b"def ")  # an upper bound (strings and comments count): 0 is sure
    child = match.group(1).decode("ascii", "replace")
    line = data.count(b"\n", 0, match.start() + 1)  # the padding newline makes this 1-based
    for base in match.group(2).split(b","):
        name = base.strip().rpartition(b".")[2]
        if name[:1].isupper() and b"=" not in base:  # `metaclass=...` is no base
            edges.add(f"{child}:{name.decode('ascii', 'replace')}:{methods}:{line}")
    if methods or b"config_class" in body:
        config = _config_class(body)
        if config:
            configs.add(f"{child}:{config}:{line}")


# `self.language_model = Lfm2ForCausalLM(` on a line of a class body: a language model, head and all, built whole
_BUILT = (b"ForCausalLM(", b"LMHeadModel(")
_RUNS = (b"def forward", b"def __call__")  # a method that runs a model (`_runs`)
# what follows a column-0 class's name when it names no base: `:`, `():`, `(object):`
_BASELESS = re.compile(rb"[ \t]*(?:\([ \t]*(?:object)?[ \t]*\))?[ \t]*:")
_NEXT_TOP = re.compile(rb"\n(?=[^ \t\r\n#)\]])")  # a column-0 statement (the `)` closing a class's bases is none)
_BUILD_LINE = re.compile(rb"[ \t]+self\.\w+[ \t]*(?::[^=\n]*)?=[ \t]*([A-Z]\w*(?:ForCausalLM|LMHeadModel))")
# `config_class = Qwen3MoeConfig` in a class body; `config: Qwen3MoeConfig` (`Optional[...]`, quoted,
# dotted) in the `__init__` signature, whose end is the first `)` closing a line before the body
_CONFIG_CLASS = re.compile(rb"\n(?:    |\t)config_class[ \t]*(?::[^=\n]*)?=[ \t]*(?:\w+\.)*(?!None\b)([A-Z]\w*)")
_INIT_END = re.compile(rb"\)[ \t]*(?:->[^:\n]*)?:[ \t]*(?:#[^\n]*)?(?=\r?\n)")
_CONFIG_PARAMETER = re.compile(
    rb"(?<![\w.])config[ \t]*:[ \t]*(?:(?:typing\.)?Optional\[[ \t]*)?[\"']?(?:\w+\.)*(?!None\b)([A-Z]\w*)")


def _config_class(body: bytes) -> str:
    """The config class a model class's body says it is built with, or ""."""
    match = _CONFIG_CLASS.search(body)
    if match is None:
        start = body.find(b"def __init__(")
        end = _INIT_END.search(body, start, start + 4000) if start != -1 else None
        match = _CONFIG_PARAMETER.search(body, start, end.start()) if end else None
    return match.group(1).decode("ascii", "replace") if match else ""


# `x.startswith("A")`, `x.endswith(("A", "B"))` ("swith": a literal start is a fast search):
# the arguments up to the first `)`
_AFFIX_TEST = Anchored.of(b"swith(", rb"\s*(\(?[^)]*)")
# calls whose name-shaped keywords are names the file holds (`dict(LlamaForCausalLM="llama")`)
_KEYWORD_CALLS = (b"dict(", b"update(")
_QUOTED = re.compile(rb"[\"']([^\"'\n]*)[\"']")
# the closing quote of `"Sub" in x` and `"Sub" not in x`, one expression per quote character (a
# literal first byte); the opening quote is looked for backwards. A list's `"A" in archs` is kept too.
_IN_TESTS = ((re.compile(rb'"\s*(?:not\s+)?in\b'), b'"'), (re.compile(rb"'\s*(?:not\s+)?in\b"), b"'"))


def _shape_tests(scan: Scan) -> FrozenSet[str]:
    """Strings the file may test a value against by shape: a superset of what parsing finds.

    A string the bytes cannot spell for sure (`"A" "B"` written as one, a bad escape) is kept
    as "\\", which `resolve.selection` reads as "may be any piece"."""
    data = scan.data
    found: Set[bytes] = set()
    if scan.has(b"swith("):  # most files have none: one fast search instead of the expression's
        for match in scan.finditer(_AFFIX_TEST):
            found.update(_QUOTED.findall(match.group(1)))
    for pattern, quote in _IN_TESTS:
        triple = quote * 3
        for match in pattern.finditer(data):
            end = match.start()
            if data[end - 2:end + 1] == triple:
                start = data.rfind(triple, 0, end - 2)
                text = data[start + 3:end - 2] if start != -1 else b"\\"
            else:
                start = data.rfind(quote, data.rfind(b"\n", 0, end) + 1, end)
                if start == -1:
                    continue  # an opening quote (`"in-batch"` in prose): a string ends on its own line
                text = data[start + 1:end]
                before = start - 1
                while before >= 0 and data[before] in b" \t\r\n\\":
                    before -= 1
                if before >= 0 and data[before] in b"\"'":
                    text = b"\\"  # implicitly concatenated with the string before
            found.add(text)
    return frozenset(piece for text in found for piece in _spellings(text))


# A string that may be a piece of a name (`"Qwen3_5"`), wherever it is quoted: a predicate in another
# module may test a value against it through a constant (`arch.startswith(names.PREFIX)`, a tuple of
# prefixes), so its module is chosen like one that tests the piece itself, and the predicate's module
# reaches it through its imports. One expression per quote character (a literal first byte).
_PIECES = tuple(re.compile(quote + rb"([A-Za-z][\w.\-]*)" + quote) for quote in (rb'"', rb"'"))


def _pieces(data: bytes) -> FrozenSet[str]:
    """Quoted strings spelt as pieces of names (`"Qwen3_5"`, `"VL"`)."""
    return _matches(_PIECES, data, "ascii")


def _spellings(text: bytes) -> Tuple[str, ...]:
    """What a string's bytes may mean: as written (a raw string) and with its escapes read."""
    written = text.decode("utf-8", "replace")
    if b"\\" not in text:
        return (written,)
    try:
        return written, codecs.decode(text, "unicode_escape")
    except UnicodeDecodeError:
        return ("\\",)


_IMPORTED = re.compile(rb"(?:\w+[ \t]+as[ \t]+)?(\w+)")


def _names_of(imported: List[bytes]) -> FrozenSet[str]:
    # one search over all the statements, a newline apart: no name or `as` runs across one
    found = set(_IMPORTED.findall(b"\n".join(imported)))
    names = {name.decode("ascii", "replace") for name in found}
    names.discard("as")
    return frozenset(names)


def _matches(patterns: Sequence["re.Pattern[bytes]"], data: bytes, encoding: str) -> FrozenSet[str]:
    """The first group of every match (each pattern has one), decoded once per distinct text."""
    found: Set[bytes] = set()
    for pattern in patterns:
        found.update(pattern.findall(data))
    return _decoded(found, encoding)


def _decoded(found: Iterable[bytes], encoding: str) -> FrozenSet[str]:
    """Texts found in the bytes, decoded once per distinct text."""
    return frozenset(text.decode(encoding, "replace") for text in set(found))
