"""The byte prefilter on real serving codebases: with it and without it, the same findings.

The trees are not ours to ship, so the test runs where someone has them: set ARCHSYNC_REAL_TREES to
a directory holding `sglang` (a clone of sgl-project/sglang), `vllm` and `lmdeploy`; each absent
tree is skipped. The generated projects of test_prefilter_soundness.py cover the forms; these cover
the code nobody here wrote.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import List

import pytest

from lint_plugin.config import load_config
from lint_plugin.pipeline import Request, run_with

TREES = {"sglang": "sglang/python", "vllm": "vllm", "lmdeploy": "lmdeploy"}


def _findings(root: Path, prefilter: bool) -> List[str]:
    config = dataclasses.replace(load_config(root), prefilter=prefilter)
    return [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}"
            for d in run_with(config, Request(use_cache=False)).diagnostics]


@pytest.mark.e2e
@pytest.mark.parametrize("name", sorted(TREES))
def test_the_prefilter_never_changes_a_finding_on_a_real_tree(name):
    where = os.environ.get("ARCHSYNC_REAL_TREES")
    root = Path(where, TREES[name]) if where else None
    if root is None or not (root / "pyproject.toml").is_file():
        pytest.skip(f"set ARCHSYNC_REAL_TREES to a directory holding {TREES[name]}")
    assert _findings(root, prefilter=True) == _findings(root, prefilter=False)
