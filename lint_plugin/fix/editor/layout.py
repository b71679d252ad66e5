"""Where a new element's text goes in a literal, in the layout of its neighbours: a line of its own
in a literal of one element a line, beside its peer on a wrapped line (within the literal's width),
or inside an empty literal."""
from __future__ import annotations

from typing import List

from ...extract.shapes import EMPTY_CALL_LITERALS
from .containers import Container, Item
from .edits import NEWLINE, Edit

_NARROWEST_LIMIT = 79  # PEP 8's line length: every project allows at least this much


def start_of_line(text: str, offset: int) -> int:
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def starts_line(text: str, offset: int) -> bool:
    return text[start_of_line(text, offset):offset].strip(" \t\f") == ""


def _newline_before(text: str, line_start: int) -> str:
    return "\r\n" if text[line_start - 2:line_start] == "\r\n" else text[line_start - 1]


def _separator(text: str, container: Container, prefer: int) -> str:
    """The whitespace written after commas on a line, e.g. " " (or "" for `"A","B"`)."""
    items = container.items
    for i in [prefer] + list(range(len(items))):
        comma = items[i].comma if 0 <= i < len(items) - 1 else None
        if comma is not None:
            gap = text[comma + 1:items[i + 1].start]
            if gap.strip(" \t") == "":
                return gap
    return " "


def insert_after(text: str, container: Container, index: int, element: str) -> List[Edit]:
    item = container.items[index]
    last = index == len(container.items) - 1
    following = container.close if last else container.items[index + 1].start
    if starts_line(text, item.start) and following is not None:
        indent = text[start_of_line(text, item.start):item.start]
        if NEWLINE.search(text, item.stop, following):  # one element per line: add a line
            eol = NEWLINE.search(text, item.stop)
            assert eol is not None
            comma = "," if (not last or item.comma is not None) else ""
            edits = [(eol.end(), eol.end(), indent + element + comma + eol.group())]
            if comma == "":
                edits.insert(0, (item.end, item.end, ","))
            return edits
        if last and container.open_end is not None and NEWLINE.search(text, container.open_end, item.start) \
                and not _wrapped(text, container):
            newline = _newline_before(text, start_of_line(text, item.start))  # closing bracket hangs
            if item.comma is not None:
                return [(item.stop, item.stop, newline + indent + element + ",")]
            return [(item.end, item.end, "," + newline + indent + element)]
    separator = _separator(text, container, index)
    if _wrapped(text, container) and _too_wide(text, container, item, len(separator + element + ",")):
        # a literal wrapped several names a line: a line of its own after the peer's, not past its width
        items = container.items
        while index + 1 < len(items) and not NEWLINE.search(text, item.end, items[index + 1].start):
            index += 1
            item = items[index]
        eol = NEWLINE.search(text, item.end)
        newline = eol.group() if eol else "\n"
        indent = _continuation_indent(text, container)
        if item.comma is not None:
            return [(item.stop, item.stop, newline + indent + element + ",")]
        return [(item.end, item.end, "," + newline + indent + element)]
    if item.comma is not None:
        return [(item.stop, item.stop, separator + element + ",")]
    return [(item.end, item.end, "," + separator + element)]


def _wrapped(text: str, container: Container) -> bool:
    """Does the literal span lines with more than one element on some line (`("A", "B",\\n "C")`)?"""
    items = container.items
    if len(items) < 3 or not NEWLINE.search(text, items[0].start, items[-1].start):
        return False
    return any(not NEWLINE.search(text, a.end, b.start) for a, b in zip(items, items[1:]))


def _too_wide(text: str, container: Container, item: Item, added: int) -> bool:
    """Would `added` characters on `item`'s line make it wider than the literal's lines (and 79 columns)?"""
    first = start_of_line(text, container.items[0].start)
    last_eol = NEWLINE.search(text, container.items[-1].end)
    body = text[first:last_eol.start() if last_eol else len(text)]
    width = max([_NARROWEST_LIMIT] + [len(line) for line in NEWLINE.split(body)])
    start = start_of_line(text, item.start)
    eol = NEWLINE.search(text, item.start)
    return len(text[start:eol.start() if eol else len(text)]) + added > width


def _continuation_indent(text: str, container: Container) -> str:
    """The indent of the literal's continuation lines, or the column of its first element."""
    for item in container.items[1:]:
        if starts_line(text, item.start):
            return text[start_of_line(text, item.start):item.start]
    first = container.items[0].start
    return " " * (first - start_of_line(text, first))


def insert_before(text: str, container: Container, index: int, element: str) -> List[Edit]:
    item = container.items[index]
    if starts_line(text, item.start):
        start = start_of_line(text, item.start)
        eol = NEWLINE.search(text, item.start)
        newline = eol.group() if eol else "\n"
        return [(start, start, text[start:item.start] + element + "," + newline)]
    return [(item.start, item.start, element + "," + _separator(text, container, index))]


def insert_empty(container: Container, element: str) -> List[Edit]:
    assert container.open_end is not None
    if container.kind.startswith("empty:"):
        opening, closing = EMPTY_CALL_LITERALS[container.kind[len("empty:"):]]
        element = opening + element + closing
    elif container.kind == "tuple":
        element += ","
    return [(container.open_end, container.open_end, element)]
