"""The values of a check's record read back from JSON (`replay.py`, `carried.py`): each checked for its
exact type, so that a record edited by hand is refused rather than printed; and the record's name."""
from __future__ import annotations

import json

from ..project.sealed import digest, opened
from ..project.writer import read_private

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads this name as True)
if TYPE_CHECKING:
    from typing import Any, Dict, Optional


def zero_or_one(value: Any) -> int:
    """A stream (0: stdout, 1: stderr) or an exit code a record may hold."""
    if type(value) is not int or value not in (0, 1):
        raise ValueError("not a stream or exit code")
    return value


def string(value: Any) -> str:
    if type(value) is not str:
        raise ValueError("not a string")
    return value


def record_name(key: str) -> str:
    """The digest naming the record of an invocation's key."""
    return digest(key.encode("utf-8", "surrogatepass"), 8)


def read_record(root: str, rel: str, schema: int, key: str) -> "Optional[Dict[str, Any]]":
    """The record at `rel` under the root, its seal, schema and key checked; None if there is none such."""
    raw = read_private(root, rel)
    if raw is None:
        return None
    record = json.loads(opened(raw))
    if not isinstance(record, dict) or record.get("schema") != schema or record.get("key") != key:
        return None
    return record
