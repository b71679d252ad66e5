"""What one run keeps for the next is one value its caller owns (`pipeline/memory.py`): nothing else.

Runs in one process must answer as fresh processes do, whatever ran before them in that process:
two trees are checked alternately, cold and warm, through the CLI, flake8 and a session each, and
every answer is compared with a fresh `archsync` process's. A memory a run was given is never
changed by the run (a later run from it answers as the first did). And no module of the stages
keeps run state: read from their source.
"""
from __future__ import annotations

import ast
import json
from typing import Any, Dict, List

import pytest

from conftest import REPO, SOURCE_FIXTURES, archsync, archsync_process, copy_tree, flake8, flake8_lines
from lint_plugin.config import load_config
from lint_plugin.pipeline import Inputs, RunMemory, analyse
from lint_plugin.project.discovery import discover
from lint_plugin.project.universe import read_universe
from lint_plugin.report.causes import findings
from lint_plugin.session import Session

# ARC101 through families, ARC105 through kinship (ARC105 keeps what it weighed), noqa comments
TREES = ("sglang_qwen3_5/bug", "kinship/subclass", "shapes/noqa", "kinship/moved_lines")


def _json(result) -> List[dict]:
    return json.loads(result.stdout)["diagnostics"]


@pytest.mark.e2e
def test_trees_checked_alternately_in_one_process_answer_as_fresh_processes(tmp_path):
    roots = {case: copy_tree(SOURCE_FIXTURES / case, tmp_path / case.replace("/", "-")) for case in TREES}
    fresh = {case: _json(archsync_process("check", "--no-cache", "--format", "json", "--exit-zero", cwd=root))
             for case, root in roots.items()}
    assert all(fresh.values())  # every tree reports something to compare
    sessions = {case: Session(root) for case, root in roots.items()}
    for _ in range(3):
        for case, root in roots.items():
            cold = archsync("check", "--no-cache", "--format", "json", "--exit-zero", cwd=root)
            warm = archsync("check", "--format", "json", "--exit-zero", cwd=root)  # the caches: written, then read
            assert _json(cold) == _json(warm) == fresh[case], case
            by_flake8 = flake8(".", cwd=root)
            assert flake8_lines(by_flake8) == [f"{d['path']}:{d['line']}:{d['column']}: {d['code']} {d['message']}"
                                               for d in fresh[case] if d["path"].endswith(".py")], case
            checked = sessions[case].check({})
            assert [d.to_json() for d in findings(checked.diagnostics)] == [_without_fix(d) for d in fresh[case]], case


def _without_fix(item: Dict[str, Any]) -> Dict[str, Any]:
    plain = {key: value for key, value in item.items() if key != "fix"}
    if "related" in item:
        plain["related"] = [_without_fix(d) for d in item["related"]]
    return plain


def test_a_memory_is_never_changed_by_the_run_it_was_given_to(tmp_path):
    """Run from a memory, then edit and run from what that run left; the first memory, given again to
    the first tree, still answers as it did."""
    root = copy_tree(SOURCE_FIXTURES / "kinship/subclass", tmp_path / "subclass")
    config = load_config(root)

    def inputs(overrides: Dict[str, bytes]) -> Inputs:
        return Inputs(config, tuple(discover(config)), read_universe(config), overrides)

    first = analyse(inputs({}), RunMemory())
    assert first.memory is not None and first.report.diagnostics
    models = next(p for p in sorted(root.rglob("*.py")) if "class " in p.read_text(encoding="utf-8"))
    edited = {models.relative_to(root).as_posix(): b"\n\n" + models.read_bytes()}  # every class moves
    second = analyse(inputs(edited), first.memory)
    assert second.report.diagnostics != first.report.diagnostics  # the messages name the new lines
    again = analyse(inputs({}), first.memory)
    assert again.report.diagnostics == first.report.diagnostics
    assert [d.fix for d in again.report.diagnostics] == [d.fix for d in first.report.diagnostics]


def test_every_stage_is_a_function_of_its_inputs_and_its_memory():
    """No module of the stages keeps what a run found: no `global` statement, and no module-level
    container that a function fills. A memo of a pure function (`functools.lru_cache`) may stay, but it
    reads nothing outside its arguments (no file, no clock)."""
    package = REPO / "lint_plugin"
    found = []
    for path in sorted(p for stage in ("extract", "resolve", "rules", "report", "pipeline") for p in
                       (package / stage).rglob("*.py")) + [package / "session.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(package).as_posix()
        containers = {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                      for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                      if isinstance(target, ast.Name) and _mutable(node.value)}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                found.append(f"{where}:{node.lineno}: {type(node).__name__.lower()} {', '.join(node.names)}")
            elif isinstance(node, ast.FunctionDef):
                found += [f"{where}:{line}: {name} is module state written by {node.name}"
                          for name, line in _written(node, containers)]
                if any(_is_memo(d) for d in node.decorator_list):
                    found += [f"{where}:{line}: the memo {node.name} reads {what}" for what, line in _impure(node)]
    assert found == []


def _mutable(value) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute)) and \
        (value.func.id if isinstance(value.func, ast.Name) else value.func.attr) in (
            "dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "local")


_MUTATORS = {"append", "extend", "add", "update", "setdefault", "pop", "popitem", "clear", "insert", "remove",
             "discard", "appendleft"}


def _written(function: ast.FunctionDef, containers) -> List[tuple]:
    found = []
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                if isinstance(target, (ast.Subscript, ast.Attribute)) and isinstance(target.value, ast.Name) \
                        and target.value.id in containers:
                    found.append((target.value.id, node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in containers:
            found.append((node.func.value.id, node.lineno))
    return found


def _is_memo(decorator) -> bool:
    text = ast.unparse(decorator)
    return "lru_cache" in text or text.endswith("cache")


_IMPURE = {"open", "read_file", "stat", "getmtime", "time", "monotonic", "getcwd", "environ", "getenv", "scandir"}


def _impure(function: ast.FunctionDef) -> List[tuple]:
    return [(ast.unparse(node), node.lineno) for node in ast.walk(function)
            if isinstance(node, (ast.Name, ast.Attribute))
            and (node.id if isinstance(node, ast.Name) else node.attr) in _IMPURE]


def test_the_stage_check_sees_what_it_forbids(tmp_path):
    """The source check above, on a module written to break each of its rules."""
    bad = ("_SEEN = {}\n_LAST = []\n"
           "def keep(x):\n    global _COUNT\n    _SEEN[x] = 1\n    _LAST.append(x)\n"
           "@functools.lru_cache(maxsize=8)\ndef text(path):\n    return open(path).read()\n")
    tree = ast.parse(bad)
    containers = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                  if _mutable(node.value)}
    keep, text = tree.body[2], tree.body[3]
    assert containers == {"_SEEN", "_LAST"}
    assert _written(keep, containers) == [("_SEEN", 5), ("_LAST", 6)]
    assert [n for n in ast.walk(keep) if isinstance(n, ast.Global)]
    assert _is_memo(text.decorator_list[0]) and _impure(text) == [("open", 9)]
