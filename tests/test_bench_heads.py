"""bench.heads: the manifest names each judged tree once at a fixed commit; a run's findings and changes are read
back exactly; extraction keeps what archsync reads and nothing outside the target."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bench.heads import compare, extract, findings, load_manifest


def test_the_manifest_names_each_tree_once_at_a_full_commit() -> None:
    heads = load_manifest()
    assert len(heads) >= 50
    assert len({h.repository for h in heads}) == len(heads)  # ModelTC/lightllm and /LightLLM: two snapshots
    assert all(re.fullmatch(r"[0-9a-f]{40}", h.commit) and re.fullmatch(r"\d{4}-\d\d-\d\d", h.date) for h in heads)
    assert {"HaiShaw/sglang", "local-inference-lab/vllm", "InternLM/lmdeploy", "vllm-project/tpu-inference",
            "vllm-project/vllm-gaudi", "ModelTC/LightLLM"} <= {h.repository for h in heads}


def test_findings_are_counted_by_code_from_a_checks_text() -> None:
    text = ("a.py:3:1: ARC105 'X' may belong in L: ... ; the same for 'Y' there\n"
            "b.py:9:5: ARC201 'qwen3moe' in T is not a model type\n"
            "c.py:1:1: ARC105 'Z' may belong in M: it mentions ARC104 in prose\n"
            "archsync: 3 problems (10 files, 4 analysed)\nexit 1\n")
    assert findings(text) == {"ARC105": 2, "ARC201": 1}


def test_compare_shows_only_the_outputs_that_changed(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    (old / "a+b.check").write_text("x.py:1:1: ARC105 'A' may belong in L\nexit 1\n")
    (new / "a+b.check").write_text("exit 0\n")
    (old / "c+d.check").write_text("exit 0\n")
    (new / "c+d.check").write_text("exit 0\n")
    text, differing = compare(old, new)
    assert differing == 1
    assert text.splitlines() == ["--- old/a+b.check", "+++ new/a+b.check", "@@ -1,2 +1 @@",
                                 "-x.py:1:1: ARC105 'A' may belong in L", "-exit 1", "+exit 0"]
    assert compare(old, old) == ("", 0)


@pytest.mark.e2e
def test_extraction_keeps_sources_and_packaging_and_is_reused(tmp_path: Path) -> None:
    work = tmp_path / "src"
    (work / "pkg").mkdir(parents=True)
    (work / "pkg" / "models.py").write_text("EntryClass = []\n")
    (work / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (work / "logo.png").write_bytes(b"\x89PNG")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, check=True, text=True).stdout.strip()
    target = tmp_path / "tree"
    assert extract(work / ".git", commit, target) == 2
    assert sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file()) == [
        ".extracted", "pkg/models.py", "pyproject.toml"]
    assert (target / "pkg" / "models.py").read_text() == "EntryClass = []\n"
    assert extract(work / ".git", commit, target) == -1  # already there
