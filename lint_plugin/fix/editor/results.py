"""What the editor returns, and `Refuse`, raised while planning a request to refuse it in words.

A refused request is not an error: its reason is a sentence for the user, shown by every front end.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

from ...diagnostics import FixRequest


@dataclass(frozen=True)
class TextEdit:
    """Replace [start, end) of the original text with `new_text`, so any front end can apply it."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int
    new_text: str


@dataclass(frozen=True)
class Refusal:
    """A request left alone, with a one-line explanation for the user."""

    request: FixRequest
    reason: str


@dataclass(frozen=True)
class FixResult:
    """The new file bytes, what was applied or refused, and the edits against the original."""

    source: bytes
    applied: Tuple[FixRequest, ...]
    refused: Tuple[Refusal, ...]
    edits: Tuple[TextEdit, ...]


DID_NOT_PARSE = "internal error: the edit did not parse"
TOO_DEEP = "the code is nested too deeply for archsync to edit"


class Refuse(Exception):
    """Raised while planning one request; its message becomes the Refusal reason."""
