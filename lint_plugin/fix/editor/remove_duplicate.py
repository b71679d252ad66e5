"""Planning a remove: the duplicated string at the request's position, and edits deleting every
copy of it but one while keeping the layout and comma style of what stays."""
from __future__ import annotations

from typing import List

import libcst as cst

from ...diagnostics import FixRequest
from .containers import Container, container_of
from .document import Document
from .edits import NEWLINE, Edit
from .layout import start_of_line, starts_line
from .locate import on_line, walk
from .results import Refuse

_CONTAINERS = (cst.Set, cst.List, cst.Tuple, cst.Dict, cst.Call)


def plan_remove(doc: Document, request: FixRequest, offset: int) -> List[Edit]:
    root, span, _ = doc.root_at(offset)
    line = doc.line_of(offset)
    counts = []
    for node, _ in walk(root):
        if not isinstance(node, _CONTAINERS) or not on_line(doc, span, node, line):
            continue
        container = container_of(doc.text, span, node, isinstance(node, cst.Call))
        for index, item in enumerate(container.items):
            if item.key == request.name and item.key_start == offset:
                if container.keys().count(request.name) < 2:
                    return []  # not (or no longer) a duplicate in its literal
                copies = [i for i, other in enumerate(container.items) if other.key == request.name]
                kept = next(i for i in copies if i != index)  # one copy stays: the first other than this one
                return _remove_copies(doc.text, container, [i for i in copies if i != kept])
        counts.append(container.keys().count(request.name))
    if 1 in counts and not any(count > 1 for count in counts):
        return []  # already removed: the name is there once
    raise Refuse(f"no string {request.name!r} at line {request.line}, column {request.column}")


def _remove_copies(text: str, container: Container, indices: List[int]) -> List[Edit]:
    """Edits deleting every later copy of a name (three copies: two go), each run of them at once."""
    if len(indices) == 1:
        return _remove(text, container, indices[0])
    items, edits = container.items, []
    runs: List[List[int]] = []
    for index in indices:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        first, last = items[run[0]], items[run[-1]]
        if run[-1] + 1 < len(items):
            following = items[run[-1] + 1]
            if starts_line(text, first.start) and starts_line(text, following.start):
                edits.append((start_of_line(text, first.start), start_of_line(text, following.start), ""))
            else:
                edits.append((first.start, following.start, ""))
        elif run[0] == 0:  # the whole literal but what follows: nothing precedes the run
            edits.append((first.start, last.stop, ""))
        else:  # the run ends the literal: keep the comma style of what stays
            kept = items[run[0] - 1]
            edits.append((kept.stop, last.stop, "") if last.comma is not None else (kept.end, last.end, ""))
    return edits


def _remove(text: str, container: Container, index: int) -> List[Edit]:
    """Edits deleting one element with its comma, keeping the layout of the rest."""
    items = container.items
    item = items[index]
    previous = items[index - 1] if index > 0 else None
    keep_comma = container.kind == "tuple" and len(items) == 2  # ("A",) must stay a tuple
    line_start = start_of_line(text, item.start)
    eol = NEWLINE.search(text, item.stop)
    rest = text[item.stop:eol.start() if eol else len(text)].strip(" \t\f")
    if starts_line(text, item.start) and (rest == "" or rest.startswith("#")) and eol:
        edits = [(line_start, eol.end(), "")]  # the element's own line(s)
        if item.comma is None and previous is not None and previous.comma is not None and not keep_comma:
            edits.insert(0, (previous.comma, previous.comma + 1, ""))
        return edits
    if item.comma is not None:
        if index + 1 < len(items) and not NEWLINE.search(text, item.stop, items[index + 1].start):
            return [(item.start, items[index + 1].start, "")]
        if previous is not None and not NEWLINE.search(text, previous.stop, item.start):
            return [(previous.stop, item.stop, "")]
        end = item.stop
        while end < len(text) and text[end] in " \t":
            end += 1
        return [(item.start, end, "")]
    assert previous is not None and previous.comma is not None
    between = text[previous.stop:item.start]
    if "#" in between:
        edits = [(item.start, item.end, "")]
        if not keep_comma:
            edits.insert(0, (previous.comma, previous.comma + 1, ""))
        return edits
    return [(previous.stop if keep_comma else previous.comma, item.end, "")]
