"""A module's text with the bodies that cannot give a fact replaced by `pass`: parse less.

Most of a large module's bytes are function and method bodies that hold no fact (SGLang's
`server_args.py`: 450 KB, a few methods of interest), and building their syntax trees is most
of what extraction costs. A body is kept when the reader might read something in it
(`ModuleReader._function` and what it calls), each gate asked of the same lines or a superset:

- its lines hold a quoted name, a model-type test or a class-name key (the reader walks a
  function whose lines do, and reads the statements around such a key);
- it spells `register_model` (a registration whose name is no string), `isinstance(` with
  `config` after it (a type predicate tests a config's class), or a module-level name it may grow
  or test as a word: a name the module's own statements assign a value that may be a collection
  (the reader's collections, and more);
- it may be a predicate: every value it returns may be a test. A function whose `return`s give
  no value, or one of which returns what the reader never takes for a test (`return self.x`,
  `return n + 1`, a display, a subscript, a tuple, a call with a keyword argument), is none.

Everything else of the definition is kept (decorators, signature, the class around it), and the
body's lines become one `pass` and blank lines, so what is kept stays at its line and column and
its facts are the whole file's (`tests/test_bodies.py` asks that of every file of the fixtures, and
`tests/test_fuzz.py` of generated Python). Strings and comments are found first, so a line inside a
string is never taken for a statement or a `return`; a layout the bytes still misjudge leaves a text
that does not parse, or a `pass` the parsed tree does not hold as a function's whole body (`verified`),
and the caller parses the whole file. A syntax error inside a stubbed body is
not seen: no fact is read there (ruff and flake8 report it).
"""
from __future__ import annotations

import ast
import bisect
import functools
import keyword
import re
from typing import Iterator, List, NamedTuple, Optional, Pattern, Sequence, Tuple

from .context import name_byte
from .literals import STRINGS
from .module import REGISTER_MODEL
from .module_values import may_be_collection
from .predicates import NEVER_DELEGATES

# group 1: `def` (a function), group 2: `class`
DEFINITION = re.compile(rb"[ \t]*(?:(?:async[ \t]+)?(def)\b|(class)\b)")
# a signature's end: `)`, a return annotation, `:`, the line's end (the body on the lines after)
_SIGNATURE_END = re.compile(rb"\)[ \t]*(?:->[^\r\n]*?)?:[ \t]*(?:#[^\r\n]*)?\r?\n")
_CLASS_HEADER_END = re.compile(rb":[ \t]*(?:#[^\r\n]*)?\r?\n")
_BODY = re.compile(rb"(?:[ \t]*(?:#[^\r\n]*)?\r?\n)*([ \t]+)[^ \t\r\n#]")  # a body's first statement
# `NAME = `, `NAME: T = `, `A = B = `: the names bound, and where the value starts
_ASSIGNED = re.compile(rb"^[ \t]*((?:[A-Za-z_]\w*[ \t]*=[ \t]*)*[A-Za-z_]\w*)[ \t]*(?::[^=]*?)?=(?!=)[ \t]*",
                       re.MULTILINE)  # an annotation may span lines (`X: dict[\n ...\n] = {}`)
_KEYWORDS = frozenset(word.encode() for word in keyword.kwlist)  # `else: x = 1` binds no `else`
_WORD = re.compile(rb"[A-Za-z_]\w*")
_CONSTANT_NAME = re.compile(rb"_*[A-Z][A-Z0-9_]*")  # as `module._CONSTANT_NAME`: given a call, a collection
_TYPE_TEST = re.compile(rb"isinstance\(")
_CONFIG = re.compile(rb"(?i)config")


class Layout:
    """Where a module's strings that span lines are: a line starting inside one is no statement."""

    def __init__(self, source: bytes) -> None:
        starts: List[int] = []
        ends: List[int] = []
        for match in STRINGS.finditer(source):
            start, end = match.span()
            if source.find(b"\n", start, end) != -1:
                starts.append(start)
                ends.append(end)
        self.starts, self.ends = starts, ends

    def inside(self, position: int) -> bool:
        at = bisect.bisect_right(self.starts, position) - 1
        return at >= 0 and position < self.ends[at]


class Stubbed(NamedTuple):
    """The text to parse, and the line of each `pass` put for a body (`verified` finds each in the tree)."""

    text: bytes
    lines: Tuple[int, ...]


class _Module:
    """One module's bytes with what the gates ask of them."""

    def __init__(self, source: bytes, interest: Sequence[int]) -> None:
        self.source = source
        self.layout = Layout(source)
        self.interest = sorted(interest)  # offsets the reader reads around (quoted names, keys)
        self.names: Optional[Pattern[bytes]] = None
        self.stubs: List[int] = []  # the line of each stub's `pass`
        self._counted = (0, 1)  # (an offset, its line): stubs are put in order, so lines are counted on

    def line(self, offset: int) -> int:
        at, line = self._counted
        line += self.source.count(b"\n", at, offset)
        self._counted = (offset, line)
        return line

    def touches_interest(self, start: int, stop: int) -> bool:
        at = bisect.bisect_left(self.interest, start)
        return at < len(self.interest) and self.interest[at] < stop


def stubbed(source: bytes, interest: Sequence[int]) -> Optional[Stubbed]:
    """`source` with every body no fact can come from replaced by `pass`, or None when none is.
    `interest`: the offsets of what the reader reads the statements around (a quoted name, a key)."""
    module = _Module(source, interest)
    top = statement_blocks(source, module.layout, 0, len(source), b"")
    module.names = _collection_names(module, [(start, stop) for start, definition, stop in top
                                              if DEFINITION.match(source, definition) is None])
    pieces: List[bytes] = []
    kept = _walk(module, top, 0, b"", pieces)
    if not module.stubs:
        return None
    pieces.append(source[kept:])
    return Stubbed(b"".join(pieces), tuple(module.stubs))


def verified(tree: ast.Module, lines: Sequence[int]) -> bool:
    """Is each stub a function of the module or of its classes whose body is that one `pass`? A layout the
    bytes misjudged (a definition read where none starts) leaves one that is not: the caller parses whole."""
    wanted = set(lines)
    found = 0
    bodies = [tree.body]
    while bodies:
        for node in bodies.pop():
            if isinstance(node, ast.ClassDef):
                bodies.append(node.body)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(node.body) == 1 \
                    and isinstance(node.body[0], ast.Pass) and node.body[0].lineno in wanted:
                found += 1
    return found == len(wanted)


@functools.lru_cache(maxsize=None)
def _statements(indent: bytes) -> Pattern[bytes]:
    """Where a line at `indent` starts something that is no comment, blank or closing bracket (after
    its newline: a literal first, which the engine searches for fast)."""
    return re.compile(rb"\n%s[^ \t\r\n#)\]}]" % re.escape(indent))


def statement_blocks(source: bytes, layout: Layout, begin: int, end: int, indent: bytes
                     ) -> List[Tuple[int, int, int]]:
    """(start, definition, stop) of each statement at `indent` in the bytes from `begin` (a line's start)
    to `end`: `definition` is where the statement its decorators (from `start`) decorate starts, `stop`
    where the next statement does. A line inside a string or continuing another starts none."""
    starts = [begin] if begin == 0 and source[:1] not in b" \t\r\n#)]}" else []
    starts += [m.start() + 1 for m in _statements(indent).finditer(source, max(begin - 1, 0), end)]
    if begin:
        starts = [s for s in starts if s >= begin]
    starts = [s for s in starts if not layout.inside(s) and not _continued(source, s)] + [end]
    found = []
    at = 0
    while at < len(starts) - 1:
        last = at
        while source[starts[last] + len(indent):starts[last] + len(indent) + 1] == b"@" and last + 1 < len(starts) - 1:
            last += 1
        found.append((starts[at], starts[last], starts[last + 1]))
        at = last + 1
    return found


def class_body(source: bytes, layout: Layout, definition: int, stop: int, indent: bytes
               ) -> Optional[Tuple[int, bytes]]:
    """(where its body begins, its indentation) of the class defined at `definition` among the statements
    at `indent`, or None when the bytes do not say for sure (a body on the header's line, a header that
    may end in a comment or a string)."""
    header = _CLASS_HEADER_END.search(source, definition, stop)
    body = _BODY.match(source, header.end(), stop) if header is not None else None
    if header is None or body is None or len(body.group(1)) <= len(indent) or layout.inside(header.start()) \
            or _in_a_comment(source, header.start()):
        return None
    return header.end(), body.group(1)


def _walk(module: _Module, blocks: List[Tuple[int, int, int]], kept: int, indent: bytes, pieces: List[bytes]) -> int:
    """Stub the bodies of the functions among `blocks` (and in their classes) that cannot give a fact,
    appending what is kept before each to `pieces`; returns where the kept text resumes."""
    source, layout = module.source, module.layout
    for start, definition_at, stop in blocks:
        definition = DEFINITION.match(source, definition_at)
        if definition is not None and definition.group(1):
            kept = _function(module, start, definition_at, stop, kept, pieces)
        elif definition is not None:
            body = class_body(source, layout, definition_at, stop, indent)
            if body is not None:
                kept = _walk(module, statement_blocks(source, layout, body[0], stop, body[1]), kept, body[1], pieces)
    return kept


def _function(module: _Module, start: int, definition: int, stop: int, kept: int, pieces: List[bytes]) -> int:
    """Stub the body of the function defined at `definition` (decorators from `start`) if it cannot give
    a fact; returns where the kept text resumes."""
    source = module.source
    signature = _SIGNATURE_END.search(source, definition, stop)
    if signature is None or module.layout.inside(signature.start()) or _in_a_comment(source, signature.start()):
        return kept  # a body on the signature's line, or a layout not read here: kept whole
    body_start = signature.end()
    body = _BODY.match(source, body_start, stop)
    if body is None:
        return kept
    indent = body.group(1)
    if _keeps(module, start, stop, body_start, indent):
        return kept
    pieces += [source[kept:body_start], indent + b"pass" + b"\n" * source.count(b"\n", body_start, stop)]
    module.stubs.append(module.line(body_start))
    return stop


def _keeps(module: _Module, start: int, stop: int, body_start: int, indent: bytes) -> bool:
    source = module.source
    if module.touches_interest(start, stop) or source.find(REGISTER_MODEL, start, stop) != -1:
        return True
    test = _TYPE_TEST.search(source, start, stop)
    if test is not None and _CONFIG.search(source, test.end(), stop) is not None:
        return True
    if module.names is not None and module.names.search(source, start, stop) is not None:
        return True
    return _may_be_predicate(module, body_start, stop, indent)


def _may_be_predicate(module: _Module, body_start: int, stop: int, indent: bytes) -> bool:
    """May every value the function returns be a name test? Not when none returns a value the reader reads
    (`return`, `return None`, `return False`: every `return` counted, in strings and comments too), or one
    returns a value the reader never takes for a test (`_plain`, `_bracketed_no_test`). Its own returns are
    those at its body's level, or at any depth when it defines no function or class inside (whose returns
    are not its own)."""
    source = module.source
    nested = any(source.find(word, body_start, stop) != -1 for word in _DEFINES)
    valued = False
    found = source.find(b"return", body_start, stop)
    while found != -1:
        after = found + 6
        if name_byte(source[found - 1]) or (after < len(source) and name_byte(source[after])):
            found = source.find(b"return", after, stop)
            continue
        if _NO_VALUE.match(source, after) is None:
            valued = True
            line = source.rfind(b"\n", 0, found) + 1
            lead = source[line:found]
            if (lead == indent or (not nested and len(lead) > len(indent) and not lead.strip(b" \t"))) \
                    and not module.layout.inside(line) and _no_test(source, after, stop):
                return False
        found = source.find(b"return", after, stop)
    return valued


def _no_test(source: bytes, after: int, stop: int) -> bool:
    """Is the value returned after `return` (at `after`) surely no test?"""
    plain = _PLAIN_VALUE.match(source, after)
    if plain is not None and _plain(plain.group(1)):
        return True
    bracketed = _BRACKETED_VALUE.match(source, after)
    return bracketed is not None and _bracketed_no_test(source, bracketed, stop)


# how a nested definition may be spelt (in a string or comment too: then the returns at its level alone count)
_DEFINES = (b"def ", b"def\t", b"def\\", b"class ", b"class\t", b"class\\")
_NO_VALUE = re.compile(rb"[ \t]*(?:(?:None|False|0)[ \t]*)?(?:#[^\r\n]*)?(?:\r?\n|$)")  # `0 in (False, None)`
# a value alone on the `return`'s line without a call, `=`, `&`, quote, continuation or comment inside (one
# simple string allowed), and not `True` or a number that may be 0 (the reader skips those)
_PLAIN_VALUE = re.compile(rb"[ \t]+(?!(?:True|False|None)[ \t]*(?:#|\r|\n|$))(?!-?[0.])"
                          rb"([^\r\n(&=#\\\"']*?|f?\"[^\"\\\r\n{}]*\"|f?'[^'\\\r\n{}]*')"
                          rb"[ \t]*(?:#[^\r\n]*)?(?=\r?\n|$)")
# a bracket, after a callee or a subscripted value or alone; group 1: the callee or value, 2: the bracket
_BRACKETED_VALUE = re.compile(rb"[ \t]+(?:([A-Za-z_][\w.]*)[ \t]*)?([(\[{])")


# what a bracketed value's shape is told by: brackets, commas, `**`, `name=` keywords, `lambda` (whose
# defaults look like keywords), and the strings and comments skipped whole
_BRACKET_TOKENS = re.compile(rb"[][(){},]|\*\*|\blambda\b|[A-Za-z_]\w*[ \t]*=(?!=)|" + STRINGS.pattern, re.DOTALL)
_LINE_END = re.compile(rb"[ \t]*(?:#[^\r\n]*)?(?:\r?\n|$)")
_NO_DELEGATES = frozenset(name.encode() for name in NEVER_DELEGATES)


def _bracketed_no_test(source: bytes, match: "re.Match[bytes]", stop: int) -> bool:
    """Is the bracketed value returned, the last thing on its line once closed, surely no test: a list,
    dict or set display (or comprehension), a subscript, a tuple, or a call with no argument, with a
    keyword argument, or of a builtin (the reader takes none of those for a test, `any(...)` aside)?"""
    callee, bracket = match.group(1), match.group(2)
    depth, previous, previous_end, comma, keyword = 0, b"", 0, False, False
    for token in _BRACKET_TOKENS.finditer(source, match.start(2), stop):
        text = token.group()
        # right after `(` or `,` (blanks between): an argument starts here
        starts_argument = previous in (b"(", b",") and not source[previous_end:token.start()].strip()
        if text in b"([{" and len(text) == 1:
            depth += 1
        elif text in b")]}" and len(text) == 1:
            depth -= 1
            if depth == 0:
                if _LINE_END.match(source, token.end()) is None:
                    return False  # more after it (`f(x) in S`, `f(x)(y)`): another expression
                break
        elif text == b"lambda":
            return False
        elif depth == 1 and text == b",":
            comma = True
        elif depth == 1 and (text == b"**" or text[-1:] == b"=") and starts_argument:
            keyword = True  # `name=` or `**kwargs` as an argument (not `**` raising a power)
        if text[:1] != b"#":  # a comment between leaves the gap unblank: no argument is said to start
            previous, previous_end = (text if len(text) == 1 else b"x"), token.end()
    else:
        return False  # not closed before the function ends
    if callee is None:
        return bracket != b"(" or comma
    if bracket != b"(":
        return True  # a subscript
    name = callee.rpartition(b".")[2]
    if callee in (b"any", b"bool") or name in (b"startswith", b"endswith"):
        return False
    return callee in _NO_DELEGATES or keyword or source[match.end(2):token.start()].strip() == b""


_IN = re.compile(rb"\bin\b")


def _plain(value: bytes) -> bool:
    """Is a returned value (no call, `=` or `&` in it) surely no test: no `in`, brackets closed on the line?"""
    if not value.strip() or _IN.search(value) is not None:
        return False
    return all(value.count(a) == value.count(b) for a, b in ((b"[", b"]"), (b"{", b"}"), (b"(", b")")))


def _in_a_comment(source: bytes, position: int) -> bool:
    """May `position` be inside a comment: is there a `#` before it on its line (in a string, maybe)?"""
    return source.find(b"#", source.rfind(b"\n", 0, position) + 1, position) != -1


def _continued(source: bytes, position: int) -> bool:
    """Does the line at `position` continue the one before (`\\` at its end)?"""
    return source.endswith(b"\\\n", 0, position) or source.endswith(b"\\\r\n", 0, position)


def _collection_names(module: _Module, regions: List[Tuple[int, int]]) -> Optional[Pattern[bytes]]:
    """The names the module's own statements (`regions`: all but its functions and classes) assign a
    value that may be a collection (`module_values.py`), as one expression of whole words; None when there
    are none. Only statements are asked (`_assignments`): a keyword argument on a line of a call that spans
    lines (`dtype=torch.float32,`) binds no module name."""
    source = module.source
    names = set()
    for begin, end in regions:
        for match in _assignments(module, begin, end, b""):
            targets = [t for t in _WORD.findall(match.group(1)) if t not in _KEYWORDS]
            if may_be_collection(source, match.end(), end, any(_CONSTANT_NAME.fullmatch(t) for t in targets)):
                names.update(targets)
    if not names:
        return None
    return re.compile(rb"\b(?:%s)\b" % b"|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


# a statement whose body is a block of statements on the lines after it (`if`, `try:`, `with`, `for`, ...)
_COMPOUND = re.compile(rb"[ \t]*(?:if|elif|else|try|except|finally|with|for|while|async|match|case)\b")


def _assignments(module: _Module, begin: int, end: int, indent: bytes) -> Iterator["re.Match[bytes]"]:
    """The assignments (`_ASSIGNED`) among the statements from `begin` to `end` at `indent`, and in the
    blocks of compound ones, at any depth (`if TYPE_CHECKING:`, `try:`). The lines of a statement after
    its first (a call's arguments, a display's entries) start none. Where the bytes do not say where a
    block's statements start (its body on the header's line, a header ending in a comment), every line
    of it is asked, as if each started a statement."""
    source, layout = module.source, module.layout
    for start, _, stop in statement_blocks(source, layout, begin, end, indent) if indent else [(begin, begin, end)]:
        found = _ASSIGNED.match(source, start, stop)
        if found is not None and not layout.inside(start):
            yield found
        if _COMPOUND.match(source, start) is None:
            continue
        body = class_body(source, layout, start, stop, indent)
        if body is None:
            yield from (m for m in _ASSIGNED.finditer(source, start, stop) if not layout.inside(m.start()))
        else:
            yield from _assignments(module, body[0], stop, body[1])
