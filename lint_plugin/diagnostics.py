"""The one output of the engine: plain diagnostic values every front end formats."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple


@dataclass(frozen=True, order=True)
class FixRequest:
    """What would fix a diagnostic: add `name` to, or remove it from, one literal.

    `target` names the literal as the fixer finds it: a variable name, `function#n`
    or `@decorator:function`; `line` and `column` (1-based, as every column archsync
    prints) are where that target's definition starts, or for a removal where the duplicate
    is written. `peers` are names to place a new one right after, best first. Text edits
    are computed from this by `lint_plugin.fix.editor`.
    """

    action: str  # "add" or "remove"
    path: str
    target: str
    line: int
    name: str
    peers: Tuple[str, ...] = ()
    column: int = 0

    def to_json(self) -> Dict[str, Any]:
        return {"action": self.action, "path": self.path, "target": self.target, "line": self.line,
                "name": self.name, "peers": list(self.peers), "column": self.column}


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
    fix: Optional[FixRequest] = field(default=None, compare=False)

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
