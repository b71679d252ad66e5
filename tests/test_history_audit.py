"""The history audits: what they call a difference, which trees they take, and a warm check after a change."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.history.audit import (  # noqa: E402
    Compared,
    audit_prefilter,
    differences,
    markdown,
    overlay,
    sampled,
    warm_or_cold,
)
from tests.conftest import ARCHSYNC, SOURCE_FIXTURES, copy_tree  # noqa: E402

FINDING = {"code": "ARC105", "path": "rope.py", "line": 1, "column": 1, "message": "'B' may belong"}
INVENTORY = {"registered": ["A", "B"], "subjects": [{"name": "ROPE"}], "families": []}


def test_two_runs_agree_when_their_findings_and_inventories_do():
    assert differences(({"diagnostics": [FINDING]},) * 2, (INVENTORY, dict(INVENTORY))) == ()


def test_a_finding_one_run_lacks_is_a_difference():
    assert differences(({"diagnostics": [FINDING]}, {"diagnostics": []}), (INVENTORY, INVENTORY)) == ("diagnostics",)


def test_each_inventory_key_that_differs_is_named():
    other = dict(INVENTORY, subjects=[], families=[{"name": "is_b"}])
    assert differences(({"diagnostics": []},) * 2, (INVENTORY, other)) == ("subjects", "families")


def test_a_run_that_failed_is_a_difference_even_beside_another_failure():
    assert differences(({"failed": 2}, {"failed": 2}), (INVENTORY, INVENTORY)) == ("failed",)


def test_a_sample_is_every_item_when_asked_for_none_or_more_than_there_are():
    assert sampled(["a", "b", "c"], 0, "vllm") == ["a", "b", "c"]
    assert sampled(["a", "b", "c"], 5, "vllm") == ["a", "b", "c"]


def test_a_sample_keeps_its_items_in_order_and_is_the_same_from_run_to_run():
    items = [f"commit{i}" for i in range(20)]
    first = sampled(items, 4, "sglang")
    assert len(first) == 4 and first == sorted(first, key=items.index)
    assert sampled(items, 4, "sglang") == first
    assert sampled(items, 4, "lmdeploy") != first


def test_overlay_makes_the_trees_python_files_the_sources(tmp_path):
    source, tree = tmp_path / "commit", tmp_path / "tree"
    for root, files in ((source, {"a.py": "A = 2\n", "pkg/new.py": "N = 1\n", "same.py": "S = 1\n"}),
                        (tree, {"a.py": "A = 1\n", "gone.py": "G = 1\n", "same.py": "S = 1\n",
                                "pyproject.toml": "# kept\n"})):
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
    overlay(source, tree)
    assert sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file()) == [
        "a.py", "pkg/new.py", "pyproject.toml", "same.py"]
    assert (tree / "a.py").read_text() == "A = 2\n" and (tree / "pkg/new.py").read_text() == "N = 1\n"


def test_the_table_counts_each_project_and_names_what_differs():
    rows = [Compared("vllm", "vllm @ 1", 2, ()), Compared("vllm", "vllm @ 2", 0, ("diagnostics",)),
            Compared("sglang", "sglang @ 3", 1, ())]
    assert markdown("warm", rows) == """### warm

| project | trees | the same | differ | findings |
|---|---:|---:|---:|---:|
| vllm | 2 | 1 | 1 | 2 |
| sglang | 1 | 1 | 0 | 1 |

vllm @ 2: differs in diagnostics"""


REGISTRY = '''class KestrelForCausalLM:
    def forward(self):
        pass


class MagpieForCausalLM(KestrelForCausalLM):
    pass


EntryClass = [KestrelForCausalLM, MagpieForCausalLM]
'''


@pytest.mark.e2e
def test_a_check_with_the_parents_cache_after_a_change_finds_what_a_cold_one_does(tmp_path):
    before, after = tmp_path / "parent", tmp_path / "commit"
    for tree, lists in ((before, 'ROPE_ARCHS = ["KestrelForCausalLM", "MagpieForCausalLM"]\n'),
                        (after, 'ROPE_ARCHS = ["KestrelForCausalLM"]\nMLA_ARCHS = ["KestrelForCausalLM", '
                                '"MagpieForCausalLM"]\nFA3_ARCHS = ["KestrelForCausalLM", "MagpieForCausalLM"]\n')):
        (tree / "models").mkdir(parents=True)
        (tree / "models" / "kestrel.py").write_text(REGISTRY)
        (tree / "layers.py").write_text(lists)
        (tree / "pyproject.toml").write_text("# zero-config\n")
    compared = warm_or_cold([str(ARCHSYNC)], "fixture", "fixture @ 1", before, after, tmp_path / "scratch",
                            tmp_path / "out")
    assert compared == Compared("fixture", "fixture @ 1", 1, ())
    assert not (tmp_path / "scratch").exists() and not (tmp_path / "out").exists()


@pytest.mark.e2e
def test_a_tree_audited_with_and_without_the_prefilter_is_the_same_where_resolution_registers_more(tmp_path):
    """The fixture of the support table the prefilter's names never chose files by: one finding either way."""
    tree = copy_tree(SOURCE_FIXTURES / "shapes" / "support_table_readers", tmp_path / "readers")
    assert audit_prefilter([str(ARCHSYNC)], tmp_path, tmp_path, 0, (), tmp_path / "out", [tree]) == [
        Compared("trees", "readers", 1, ())]
