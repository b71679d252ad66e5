"""The one import walker: follow a name from the module that uses it to the module that defines it.

Collections, constants, predicates and classes are all found this way: through
`from m import X as Y`, re-exports, star imports (only into a module that binds the
name) and `src` layouts, never through a bare module (`import m` is not a value). Chains
are followed iteratively, at most `MAX_CHAIN` links, so a long or circular chain costs a
reason in the output, never the interpreter's stack.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Set, Tuple, Union

from ..diagnostics import place
from ..extract.facts import FileFacts
from .source import ModuleSource

# References and delegations are followed this many links deep: deeper chains are
# reported as partly analysed instead of exhausting the interpreter's stack.
MAX_CHAIN = 200

Defines = Callable[[FileFacts, str], bool]


@dataclass(frozen=True)
class Found:
    """Where a name is defined: the defining module's facts and the name there."""

    facts: FileFacts
    name: str


def locate(source: ModuleSource, module: str, name: str, defines: Defines) -> Union[Found, str]:
    """The definition `defines` accepts, reached from `name` in `module`, or why there is none."""
    seen: Set[Tuple[str, str]] = set()
    for _ in range(MAX_CHAIN):
        if (module, name) in seen:
            return f"`{name}` refers to itself ({module})"
        seen.add((module, name))
        facts = source.lookup(module, name)
        if facts is None:
            return f"`{name}` comes from {module}, outside the project"
        if defines(facts, name):
            return Found(facts, name)
        target = imported(facts, name)
        if target is not None:
            if target[1] is None:
                return f"`{name}` is a module ({place(facts.path)})"
            module, name = target[0], target[1]
            continue
        if source.module(f"{module}.{name}") is not None:
            return f"`{name}` is a module ({place(facts.path)})"
        star = next((s for s in facts.star_imports if _binds(source.module(s), name, defines)), None)
        if star is not None:
            module = star
            continue
        if facts.star_imports:
            return f"`{name}` may come from a star import in {place(facts.path)}"
        return f"cannot resolve `{name}` in {place(facts.path)}"
    return f"`{name}` is more than {MAX_CHAIN} references deep ({module})"


def imported(facts: FileFacts, name: str) -> Optional[Tuple[str, Optional[str]]]:
    """(module, attribute or None for a module alias) when `facts` imports `name`."""
    for local, module, attribute in facts.imports:
        if local == name:
            return module, attribute
    return None


def _binds(facts: Optional[FileFacts], name: str, defines: Defines) -> bool:
    """Does a star-imported module define or import `name`?"""
    return facts is not None and (defines(facts, name) or imported(facts, name) is not None)
