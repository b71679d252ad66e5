"""The language server's session through seeded random edits: every check equals a cold run.

The session keeps the last choice of files, the kinship and ARC105's findings, and reuses what an
edit cannot change (`resolve/memory_choice.py`, `resolve/memory_kinship.py`, `rules/memory_arc105.py`).
tests/test_session.py walks chosen edits; this one walks many random ones over the kinship
fixtures, where messages name the path:line of classes: blank lines and comments (lines move),
list entries removed and added, new lists, base classes changed, backbone and MoE imports added,
classes inserted, buffers reverted. Each check is compared with a cold `archsync check` of a copy of the
tree with the buffers saved, diagnostics and fixes, in this process: what the session keeps is its own
value (`pipeline/memory.py`), which no cold run can see (`test_run_memory.py` holds that against real
processes). With the kinship's edges kept stale, or ARC105's kept findings ignoring moved lines, it
fails within a few steps. (These fixtures choose their files in one batch:
the replayed choice of files is tested by test_session.py's chosen edits.) Seeded: a failure names
its fixture, seed and step, and replays.
"""
from __future__ import annotations

import random
import re
import shutil
from pathlib import Path
from typing import Dict, Tuple

import pytest

from conftest import SOURCE_FIXTURES, as_reported, cold_report, copy_tree
from lint_plugin.project.files import encode_as_source
from lint_plugin.session import Session

CASES = ["kinship/moved_lines", "kinship/backbone", "kinship/config_class", "kinship/moe_base", "kinship/subclass",
         "kinship/namesake", "sglang_qwen3_5/bug", "shapes/class_lists"]
STEPS = 30
_LISTED = re.compile(r'\s*"\w+(?:ForCausalLM|ForConditionalGeneration)",\s*')
_MODEL_CLASS = re.compile(r"class \w+(?:ForCausalLM|ForConditionalGeneration)\(")
_IMPORTS = ["Qwen2Model", "LlamaModel", "FusedMoE", "Qwen3Model", "Glm4MoeModel"]


class Fuzzer:
    def __init__(self, root: Path, rng: random.Random) -> None:
        self.rng = rng
        self.files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
        self.names = sorted({m for p in self.files
                             for m in re.findall(r'"(\w+(?:ForCausalLM|ForConditionalGeneration))"',
                                                 (root / p).read_text(encoding="utf-8"))})

    def edit(self, text: str) -> Tuple[str, str]:
        rng, lines = self.rng, text.split("\n")
        kind = rng.choice(["lines", "lines", "comment", "drop", "add", "base", "import", "class", "list"])
        listed = [i for i, line in enumerate(lines) if _LISTED.fullmatch(line)]
        classes = [i for i, line in enumerate(lines) if _MODEL_CLASS.match(line)]
        if kind in ("lines", "comment"):  # at the top half the time: every class of the file moves
            at = 0 if rng.random() < 0.5 else rng.randrange(len(lines))
            lines[at:at] = ["" if kind == "lines" else "# moved"] * rng.randint(1, 3)
        elif kind == "drop" and listed:
            del lines[rng.choice(listed)]
        elif kind == "add" and listed and self.names:
            at = rng.choice(listed)
            lines.insert(at, re.match(r"\s*", lines[at]).group() + f'"{rng.choice(self.names)}",')
        elif kind == "base" and classes:
            at = rng.choice(classes)
            lines[at] = re.sub(r"\(.*\):", f"({rng.choice(self.names + ['nn.Module'])}):", lines[at], count=1)
        elif kind == "import":
            lines.insert(0, f"from .elsewhere import {rng.choice(_IMPORTS)}")
        elif kind == "list" and self.names:  # a list where there may have been none: the choice of files moves
            lines.append(f"EXTRA_ARCHS = {sorted(rng.sample(self.names, min(3, len(self.names))))!r}")
        elif kind == "class":
            lines.insert(rng.randrange(len(lines)), f"class Extra{rng.randint(0, 3)}ForCausalLM("
                                                    f"{rng.choice(self.names + ['nn.Module'])}):\n    pass\n")
        return "\n".join(lines), kind


@pytest.mark.parametrize("case", CASES)
def test_random_edits_give_what_a_cold_run_gives(case, tmp_path):
    seed = sum(map(ord, case))
    rng = random.Random(seed)
    root = copy_tree(SOURCE_FIXTURES / case, tmp_path / "tree").resolve()
    fuzzer, session = Fuzzer(root, rng), Session(root)
    buffers: Dict[str, str] = {}
    for step in range(STEPS):
        rel = rng.choice(fuzzer.files)
        buffers.setdefault(rel, (root / rel).read_text(encoding="utf-8"))
        if rng.random() < 0.1:
            buffers[rel], kind = (root / rel).read_text(encoding="utf-8"), "revert"
        else:
            buffers[rel], kind = fuzzer.edit(buffers[rel])
        got = as_reported(session.check({r: encode_as_source(t) for r, t in buffers.items()}).diagnostics)
        saved = copy_tree(root, tmp_path / f"saved-{step}")
        for r, text in buffers.items():
            (saved / r).write_bytes(encode_as_source(text))
        cold = cold_report(saved)
        shutil.rmtree(saved)
        assert got == cold, f"{case}, seed {seed}, step {step}: {kind} in {rel}"
