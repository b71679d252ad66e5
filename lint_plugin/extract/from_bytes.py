"""Facts from one file's bytes: collections, predicates, registrations, imports, constants.

Uses the stdlib parser: extraction needs positions, not concrete syntax, and the
stdlib parser is about 9x faster than libcst (which `fix` uses for edits). Names from
other modules are left as `Ref`s for the index to resolve.
"""
from __future__ import annotations

import ast
import re
import sys
import warnings
from typing import AbstractSet, List, Optional, Sequence, Tuple

from .bodies import stubbed, verified
from .collector import paused
from .context import ModuleContext
from .facts import FileFacts
from .keys import class_name_keyed, key_lines
from .model_type_keys import tables_keyed_by_model_type, tested_lines
from .module import ModuleReader
from .source_text import Refused, source_text
from .spelling import embeddable

__all__ = ["extract_file", "extract_registrations"]


def extract_file(source: bytes, path: str, module: str, registries: Sequence[str], is_package: bool,
                 name_pattern: str, stub_from: Optional[int] = None) -> FileFacts:
    """Parse `source` and read its facts; a file Python would not decode or parse carries `error`.
    From `stub_from` bytes (default `STUB_FROM`; `NEVER`: the whole file), the bodies no fact comes from are
    parsed as `pass` (`bodies.py`): the same facts, parsed faster."""
    with paused():  # no cycles among syntax nodes: see collector.py
        return _extract(source, path, module, registries, is_package, name_pattern,
                        STUB_FROM if stub_from is None else stub_from)


def _extract(source: bytes, path: str, module: str, registries: Sequence[str], is_package: bool,
             name_pattern: str, stub_from: int) -> FileFacts:
    text = source_text(source)
    if isinstance(text, Refused):  # names in a file Python refuses to read exist nowhere at run time
        return FileFacts(path=path, module=module, error=text.reason)
    typed = tested_lines(source)  # a test of a model type is read as one of names is (`model_type_keys.py`)
    offsets = _quoted_offsets(source, name_pattern)
    quoted = sorted(set(_lines_at(source, offsets)) | typed)
    keys = key_lines(source)
    tree = _parsed(source, text, path, offsets + _offsets_of(source, typed | keys)) \
        if len(source) >= stub_from else None
    if tree is None:
        try:
            tree = _parse(text, path)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            return FileFacts(path=path, module=module, error=_parse_error(exc))
    ctx = ModuleContext(path, module, is_package, _utf8_lines(text), re.compile(name_pattern))
    reader = ModuleReader(ctx, registries, quoted)
    try:
        reader.read(tree)
    except RecursionError:
        return FileFacts(path=path, module=module, error="expression nested too deeply to analyse")
    return FileFacts(
        path=path,
        module=module,
        collections=reader.collection_facts(),
        predicates=tuple(reader.predicates),
        registrations=reader.registration_facts(),
        imports=tuple((local, target[0], target[1]) for local, target in sorted(ctx.imports.items())),
        constants=tuple(reader.constants),
        star_imports=tuple(ctx.star_imports),
        classes=tuple(reader.classes),
        type_predicates=tuple(reader.type_predicates),
        mappings=tuple(reader.mappings),
        registers_into=tuple(reader.registers_into),
        class_keyed=class_name_keyed(tree, keys, ctx.absolute) if keys else (),
        chains=tuple(reader.chains),
        gates=tuple(reader.gates),
        type_keyed=tuple(sorted(set(reader.type_keyed).union(tables_keyed_by_model_type(tree, typed, ctx.absolute))))
        if typed
        else (),
    )


# Stubbing bodies pays from about this size: below it, finding what to stub costs what it saves (measured on
# every file of SGLang and vLLM: 0.98x the whole parse from 2 KiB, 0.8x from 16 KiB)
STUB_FROM = 4096
NEVER = 1 << 62  # `stub_from` for the whole parse


def _parse(text: str, path: str) -> ast.Module:
    with warnings.catch_warnings():  # the analysed code's warnings are not ours to show or obey
        warnings.simplefilter("ignore")
        return ast.parse(text, filename=path)


def _parsed(source: bytes, text: str, path: str, interest: List[int]) -> Optional[ast.Module]:
    """The syntax tree of the text with the bodies no fact comes from stubbed (`bodies.py`), or None when
    none is or that text does not parse (the whole file is parsed then, for its facts or its error). A
    syntax error inside a stubbed body is not seen: no fact is read there, and ruff or flake8 report it.
    A NUL byte anywhere is seen: Python refuses the whole file for it, and the bytes say so at once."""
    if b"\0" in source:
        return None
    stub = stubbed(source, interest)
    if stub is None:
        return None
    try:
        tree = _parse(stub.text.decode("utf-8") if text.isascii() else str(source_text(stub.text)), path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return tree if verified(tree, stub.lines) else None


def extract_registrations(snippets: Sequence[Tuple[int, bytes]], path: str, module: str,
                          registries: Sequence[str]) -> Optional[FileFacts]:
    """Registrations from column-0 statements alone; None if a snippet does not parse."""
    ctx = ModuleContext(path, module, False, [], re.compile(""))
    reader = ModuleReader(ctx, registries, ())
    for first_line, text in snippets:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            return None
        ast.increment_lineno(tree, first_line - 1)
        for stmt in tree.body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                reader._assignment(stmt)
    return FileFacts(path=path, module=module, registrations=reader.registration_facts())


def _quoted_offsets(source: bytes, name_pattern: str) -> List[int]:
    """Where a quoted string in the architecture-name shape starts, ascending."""
    if embeddable(name_pattern):
        offsets = [m.start() for quote in (b'"', b"'") for m in
                   re.finditer(re.escape(quote) + b"(?:%s)" % name_pattern.encode() + re.escape(quote), source)]
    else:  # a configured shape is matched whole against each quoted string, never embedded
        shape = re.compile(name_pattern)
        offsets = [m.start() for m in re.finditer(rb"\"([^\"'\\\n]+)\"|'([^\"'\\\n]+)'", source)
                   if shape.fullmatch((m.group(1) or m.group(2)).decode("utf-8", "replace"))]
    offsets.sort()
    return offsets


def _lines_at(source: bytes, offsets: Sequence[int]) -> List[int]:
    """The line of each offset (ascending)."""
    lines, line, position = [], 1, 0
    for offset in offsets:
        line += source.count(b"\n", position, offset)
        position = offset
        lines.append(line)
    return lines


def _offsets_of(source: bytes, lines: AbstractSet[int]) -> List[int]:
    """Where each of these lines starts (empty for nearly every file)."""
    offsets, line, position = [], 1, 0
    for wanted in sorted(lines):
        while line < wanted and position != -1:
            position = source.find(b"\n", position) + 1 or -1
            line += 1
        if position == -1:
            break
        offsets.append(position)
    return offsets


def _utf8_lines(text: str) -> List[bytes]:
    """The lines as the parser sees them, encoded as UTF-8, since that is what ast column offsets count in."""
    return text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8", "surrogatepass").split(b"\n")


def _newer_python(exc: SyntaxError) -> str:
    """Where the error may be this interpreter's age, not the file's: before Python 3.12 an f-string may not
    reuse its quotes or hold a backslash or a comment (PEP 701), and archsync parses with the Python it runs on."""
    if sys.version_info >= (3, 12) or not str(exc.msg).startswith("f-string"):
        return ""
    return (f" (archsync runs on Python {sys.version_info[0]}.{sys.version_info[1]}; an f-string written for "
            "Python 3.12 or later does not parse before it: run archsync on the project's Python)")


def _parse_error(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError) and exc.lineno is None:
        return f"cannot parse: {exc.msg}"
    if isinstance(exc, SyntaxError):
        return f"syntax error at line {exc.lineno}: {exc.msg}{_newer_python(exc)}"
    if isinstance(exc, ValueError):
        return f"cannot parse: {exc}"
    return "expression nested too deeply to parse"
