"""Facts from one file's bytes: collections, predicates, registrations, imports, constants.

Uses the stdlib parser: extraction needs positions, not concrete syntax, and the
stdlib parser is about 9x faster than libcst (which `fix` uses for edits). Names from
other modules are left as `Ref`s for the index to resolve.
"""
from __future__ import annotations

import ast
import re
import warnings
from typing import List, Optional, Sequence, Tuple

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
                 name_pattern: str) -> FileFacts:
    """Parse `source` and read its facts; a file Python would not decode or parse carries `error`."""
    with paused():  # no cycles among syntax nodes: see collector.py
        return _extract(source, path, module, registries, is_package, name_pattern)


def _extract(source: bytes, path: str, module: str, registries: Sequence[str], is_package: bool,
             name_pattern: str) -> FileFacts:
    text = source_text(source)
    if isinstance(text, Refused):  # names in a file Python refuses to read exist nowhere at run time
        return FileFacts(path=path, module=module, error=text.reason)
    try:
        with warnings.catch_warnings():  # the analysed code's warnings are not ours to show or obey
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return FileFacts(path=path, module=module, error=_parse_error(exc))
    ctx = ModuleContext(path, module, is_package, _utf8_lines(text), re.compile(name_pattern))
    typed = tested_lines(source)  # a test of a model type is read as one of names is (`model_type_keys.py`)
    reader = ModuleReader(ctx, registries, sorted(set(_quoted_lines(source, name_pattern)) | typed))
    try:
        reader.read(tree)
    except RecursionError:
        return FileFacts(path=path, module=module, error="expression nested too deeply to analyse")
    keys = key_lines(source)
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
        class_keyed=class_name_keyed(tree, keys) if keys else (),
        chains=tuple(reader.chains),
        type_keyed=tuple(sorted(set(reader.type_keyed).union(tables_keyed_by_model_type(tree, typed)))) if typed
        else (),
    )


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


def _quoted_lines(source: bytes, name_pattern: str) -> List[int]:
    """Lines holding a quoted string in the architecture-name shape."""
    if embeddable(name_pattern):
        offsets = [m.start() for quote in (b'"', b"'") for m in
                   re.finditer(re.escape(quote) + b"(?:%s)" % name_pattern.encode() + re.escape(quote), source)]
    else:  # a configured shape is matched whole against each quoted string, never embedded
        shape = re.compile(name_pattern)
        offsets = [m.start() for m in re.finditer(rb"\"([^\"'\\\n]+)\"|'([^\"'\\\n]+)'", source)
                   if shape.fullmatch((m.group(1) or m.group(2)).decode("utf-8", "replace"))]
    if not offsets:
        return []
    offsets.sort()
    lines, line, position = [], 1, 0
    for offset in offsets:
        line += source.count(b"\n", position, offset)
        position = offset
        lines.append(line)
    return lines


def _utf8_lines(text: str) -> List[bytes]:
    """The lines as the parser sees them, encoded as UTF-8, since that is what ast column offsets count in."""
    return text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8", "surrogatepass").split(b"\n")


def _parse_error(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError) and exc.lineno is None:
        return f"cannot parse: {exc.msg}"
    if isinstance(exc, SyntaxError):
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    if isinstance(exc, ValueError):
        return f"cannot parse: {exc}"
    return "expression nested too deeply to parse"
