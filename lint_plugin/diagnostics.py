"""The one output of the engine: plain diagnostic values every front end formats.

Paths inside the engine are project-relative; where they are shown is the front end's to say.
A location a message names (`registered at pkg/models/llama.py:12`) is written with `place`,
which marks its path, so that a front end shows it as it shows the diagnostic's own path: every
path of a diagnostic goes through one function (`Diagnostic.seen`), then `text` drops the marks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Optional, Tuple

# Unicode's noncharacters, set aside for a program's own use: no file name or message of ours holds
# them, and `printable` escapes one that leaks. The path between them; its line, if any, follows.
_OPEN, _CLOSE = "\ufdd0", "\ufdd1"
_PLACE = re.compile(f"{_OPEN}([^{_OPEN}{_CLOSE}]+){_CLOSE}(?::([0-9]+))?")


def place(path: str, line: Optional[int] = None) -> str:
    """A project-relative location as a message names it: `path` or `path:line`, its path marked.

    A path that holds a mark itself (a file named with a noncharacter) is left unmarked: shown as written.
    """
    where = f":{line}" if line is not None else ""
    if not path or _OPEN in path or _CLOSE in path:
        return path + where
    return f"{_OPEN}{path}{_CLOSE}{where}"


def placed(text: str, where: Callable[[str], str]) -> str:
    """`text` with each path `place` marked in it mapped by `where` (marks kept: it may be mapped again)."""
    if _OPEN not in text:
        return text
    return _PLACE.sub(lambda m: place(where(m.group(1)), int(m.group(2)) if m.group(2) else None), text)


def unmarked(text: str) -> str:
    """`text` as a person reads it: each marked path as it is now."""
    if _OPEN not in text:
        return text
    return _PLACE.sub(lambda m: m.group(1) + (f":{m.group(2)}" if m.group(2) else ""), text)


def places(text: str) -> Tuple[Tuple[str, Optional[int]], ...]:
    """The locations `text` names, in order: (path, line or None)."""
    return tuple((m.group(1), int(m.group(2)) if m.group(2) else None) for m in _PLACE.finditer(text))


@dataclass(frozen=True, order=True)
class FixRequest:
    """What would fix a diagnostic: add `name` to, or remove it from, one literal.

    `target` names the literal as the fixer finds it: a variable name, `function#n`
    or `@decorator:function`; `line` and `column` (1-based, as every column archsync
    prints) are where that target's definition starts, or for a removal where the duplicate
    is written. `peers` are names to place a new one right after, best first. `reference`: for a
    literal of classes (`models = [LlavaQwenForCausalLM]`), `module:Class`, the class `name` is written
    as, imported from `module` where the file does not bind it ("" for a literal of strings; `:Class`
    when no module to import it from is known). Text edits are computed from this by `lint_plugin.fix.editor`.
    """

    action: str  # "add" or "remove"
    path: str
    target: str
    line: int
    name: str
    peers: Tuple[str, ...] = ()
    column: int = 0
    reference: str = ""

    def to_json(self) -> Dict[str, Any]:
        document: Dict[str, Any] = {"action": self.action, "path": self.path, "target": self.target,
                                    "line": self.line, "name": self.name, "peers": list(self.peers),
                                    "column": self.column}
        if self.reference:
            document["reference"] = self.reference
        return document


@dataclass(frozen=True, order=True)
class Diagnostic:
    """A finding at a 1-based line and column of a root-relative path.

    `message` may name other locations (`place`): read it as `text`, after `seen` has said where
    its paths are shown from. `related` are the other places of the same cause in the file, for a
    finding reported once for them all (`report/causes.py`); the message names them.
    """

    path: str
    line: int
    column: int
    code: str
    message: str
    subject: Optional[str] = None
    member: Optional[str] = None
    fix: Optional[FixRequest] = field(default=None, compare=False)
    related: Tuple["Diagnostic", ...] = ()

    @property
    def text(self) -> str:
        """The message as a person reads it."""
        return unmarked(self.message)

    @property
    def places(self) -> Tuple[Tuple[str, Optional[int]], ...]:
        """The locations the message names: (path, line or None)."""
        return places(self.message)

    def seen(self, where: Callable[[str], str]) -> "Diagnostic":
        """This diagnostic with every path it holds mapped by `where`: its own, its fix's, and those its
        message names (a front end's view from where it runs; a run over several projects rebases with it)."""
        fix = replace(self.fix, path=where(self.fix.path)) if self.fix is not None else None
        related = tuple(d.seen(where) for d in self.related)
        return replace(self, path=where(self.path), message=placed(self.message, where), fix=fix, related=related)

    def to_json(self) -> Dict[str, Any]:
        """The stable form; `related` only where the finding stands for other places too."""
        document: Dict[str, Any] = {
            "code": self.code,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.text,
            "subject": self.subject,
            "member": self.member,
        }
        if self.related:
            document["related"] = [d.to_json() for d in self.related]
        return document
