"""A literal as the editor sees it: each element's offsets, its comma and the member name it
contributes, and where the brackets are; the planners read and edit literals only through it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

import libcst as cst

from .document import Span
from .edits import NEWLINE
from .locate import dotted_name
from .results import Refuse


@dataclass
class Item:
    """One element of a container, with offsets in the current text."""

    start: int
    end: int  # end of the element itself, without its comma
    comma: Optional[int]  # offset of its comma
    key: Optional[str] = None  # the member name it contributes, if any
    reference: Optional[str] = None  # the class it names, if a name or an attribute (`LlavaQwenForCausalLM`)
    key_start: int = -1
    string: Optional[cst.SimpleString] = None
    value: Optional[cst.BaseExpression] = None  # dict / keyword value
    between: Tuple[int, int] = (0, 0)  # offsets of the text between key and value (": " or "=")

    @property
    def stop(self) -> int:
        return self.comma + 1 if self.comma is not None else self.end


@dataclass
class Container:
    kind: str  # set, list, tuple, dict, kwargs (dict(...) call), args (decorator), empty:<call>
    items: List[Item]
    open_end: Optional[int]  # just after the opening bracket (None for a bare tuple)
    close: Optional[int]  # the closing bracket

    def keys(self) -> List[str]:
        return [item.key for item in self.items if item.key is not None]


def _string_value(node: cst.CSTNode) -> Optional[str]:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        try:
            value = node.evaluated_value
        except Exception:  # pragma: no cover - libcst evaluates every valid literal
            return None
        return value if isinstance(value, str) else None
    return None


def container_of(text: str, span: Span, node: cst.CSTNode, decorator: bool) -> Container:
    if isinstance(node, (cst.Set, cst.List, cst.Dict)):
        start, end = span(node)
        kind = "dict" if isinstance(node, cst.Dict) else "set" if isinstance(node, cst.Set) else "list"
        _expect(text, start, "{[")
        _expect(text, end - 1, "}]")
        return Container(kind, [_item(span, el, kind) for el in node.elements], start + 1, end - 1)
    if isinstance(node, cst.Tuple):
        items = [_item(span, el, "tuple") for el in node.elements]
        if not node.lpar:
            return Container("tuple", items, None, None)
        opening, closing = span(node.lpar[-1])[0], span(node.rpar[0])[1] - 1
        _expect(text, opening, "(")
        _expect(text, closing, ")")
        return Container("tuple", items, opening + 1, closing)
    assert isinstance(node, cst.Call)
    fname = dotted_name(node.func) or ""
    kind = "args" if decorator else "kwargs" if fname == "dict" else f"empty:{fname}"
    opening = _open_paren(text, span(node.func)[1])
    closing = span(node)[1] - 1
    _expect(text, closing, ")")
    return Container(kind, [_item(span, arg, kind) for arg in node.args], opening + 1, closing)


def _expect(text: str, offset: int, chars: str) -> None:
    if not (0 <= offset < len(text) and text[offset] in chars):  # pragma: no cover - a libcst surprise
        raise Refuse("internal error: the literal is not where libcst placed it")


def _open_paren(text: str, offset: int) -> int:
    while offset < len(text):
        char = text[offset]
        if char == "(":
            return offset
        if char == "#":
            match = NEWLINE.search(text, offset)
            offset = match.start() if match else len(text)
        elif char in " \t\f\r\n\\":
            offset += 1
        else:
            break
    raise Refuse("internal error: no argument list after the call")


def _item(span: Span, element: cst.CSTNode, kind: str) -> Item:
    start, end = span(element)
    comma = getattr(element, "comma", None)
    item = Item(start, end, span(comma)[0] if isinstance(comma, cst.Comma) else None)
    key_node: Optional[cst.CSTNode] = None
    key: Optional[str] = None
    if isinstance(element, cst.Arg) and kind == "kwargs":
        if element.keyword is not None and not element.star:
            key_node, key, item.value = element.keyword, element.keyword.value, element.value
    elif isinstance(element, cst.Element):
        key_node = element.value
    elif isinstance(element, cst.DictElement):
        key_node, item.value = element.key, element.value
    elif isinstance(element, cst.Arg) and element.keyword is None and not element.star:
        key_node = element.value
    if isinstance(key_node, cst.Name):
        item.reference = key_node.value
    elif isinstance(key_node, cst.Attribute):
        item.reference = key_node.attr.value
    if key_node is not None and key is None:
        key = _string_value(key_node)
        item.string = key_node if isinstance(key_node, cst.SimpleString) and key is not None else None
    if key_node is not None and key is not None:
        item.key, item.key_start = key, span(key_node)[0]
        if item.value is not None:
            item.between = (span(key_node)[1], span(item.value)[0])
    return item
