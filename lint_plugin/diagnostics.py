"""The one output of the engine: plain diagnostic values every front end formats."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional


@dataclass(frozen=True, order=True)
class Diagnostic:
    """A finding at a 1-based line and column of a root-relative path."""

    path: str
    line: int
    column: int
    code: str
    message: str
    subject: Optional[str] = None
    member: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        return {
            "code": self.code,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "subject": self.subject,
            "member": self.member,
        }
