"""ARC106: which list of a plugin is a copy of one of its host's: where it sits, and what it holds.

The host's lists are those of archsync's shipped snapshot of vLLM; the one these tests copy is its
list of multimodal targets whose `image_token_id` the draft model takes (11 registered names, in
`SpecDecodeBaseProposer.load_model` at vllm/v1/spec_decode/llm_base_proposer.py:1301). A copy sits
in a function of the same name, or in a file of the same name holding most of the host's list, and more
than half of its names, three at least, are the host's: these tests stand at each side of each condition.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Sequence

from lint_plugin import pipeline
from lint_plugin.diagnostics import unmarked
from lint_plugin.frontends import inventory, why
from lint_plugin.project.hosts import load_snapshot

PLUGIN = '[project]\nname = "vllm-kestrel"\n\n[project.entry-points."vllm.platform_plugins"]\nk = "vllm_kestrel:r"\n'
HOST_LIST = ("Qwen2_5_VLForConditionalGeneration", "Qwen3VLForConditionalGeneration",
             "Qwen3VLMoeForConditionalGeneration", "Qwen3_5ForConditionalGeneration",
             "Qwen3_5MoeForConditionalGeneration", "Gemma4ForConditionalGeneration",
             "Exaone4_5_ForConditionalGeneration", "GlmOcrForConditionalGeneration",
             "HunYuanVLForConditionalGeneration", "InternS2PreviewForConditionalGeneration", "MiMoV2OmniForCausalLM")
OWN = ("LlavaForConditionalGeneration", "Idefics3ForConditionalGeneration", "PaliGemmaForConditionalGeneration",
       "Blip2ForConditionalGeneration", "PixtralForConditionalGeneration", "AriaForConditionalGeneration")
# registered by vLLM, and in no copy of that list


def run(root: Path, names: Sequence[str], pyproject: str = PLUGIN, where: str = "proposer.py",
        method: str = "load_model") -> pipeline.Report:
    root.mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text(pyproject)
    (root / "vllm_kestrel").mkdir()
    listed = "".join(f'            "{n}",\n' for n in names)
    (root / "vllm_kestrel" / where).write_text(
        f"class KestrelProposer:\n    def {method}(self, target):\n        if target.name in [\n{listed}        ]:\n"
        "            self.image_token_index = target.config.image_token_id\n")
    return pipeline.run(pipeline.Request((root,), use_cache=False))


def check(root: Path, names: Sequence[str], **where: str) -> List[str]:
    return [f"{d.code} {d.member}" for d in run(root, names, **where).diagnostics]


REST = ["ARC106 Exaone4_5_ForConditionalGeneration", "ARC106 GlmOcrForConditionalGeneration",
        "ARC106 HunYuanVLForConditionalGeneration", "ARC106 InternS2PreviewForConditionalGeneration",
        "ARC106 MiMoV2OmniForCausalLM"]


def test_the_snapshot_holds_the_list_these_tests_copy():
    held = {h.subject: h.names for h in load_snapshot("vllm").lists}
    assert held["SpecDecodeBaseProposer.load_model#1"] == tuple(sorted(HOST_LIST))


def test_a_copy_in_a_function_of_the_same_name_is_told_the_rest(tmp_path):
    assert check(tmp_path, HOST_LIST[:6]) == REST


def test_a_copy_in_a_file_of_the_same_name_is_told_the_rest(tmp_path):
    assert check(tmp_path, HOST_LIST[:6], where="llm_base_proposer.py", method="image_token_index") == REST


def test_a_file_of_the_same_name_alone_needs_most_of_the_hosts_list_too(tmp_path):
    """A file's name is a weaker tie than a function's: a small list in a `config.py` is no copy of the large
    table in the host's `config.py` it shares three names with."""
    assert check(tmp_path, HOST_LIST[:5], where="llm_base_proposer.py", method="image_token_index") == []


def test_the_same_names_elsewhere_are_no_copy(tmp_path):
    """Lists of popular models share names by chance: where a list sits is what makes it a copy."""
    assert check(tmp_path, HOST_LIST[:6], method="image_token_index") == []


def test_a_dunder_of_the_same_name_is_no_place(tmp_path):
    assert check(tmp_path, HOST_LIST[:6], method="__call__") == []


def test_a_copy_far_behind_the_hosts_list_is_still_one(tmp_path):
    assert check(tmp_path, HOST_LIST[:3]) == [f"ARC106 {n}" for n in sorted(HOST_LIST[3:])]


def test_two_names_shared_are_too_few_to_tell(tmp_path):
    assert check(tmp_path, HOST_LIST[:2]) == []


def test_a_list_half_of_its_own_names_is_no_copy(tmp_path):
    assert check(tmp_path / "most", HOST_LIST[:3] + OWN[:2])[:1] == ["ARC106 Exaone4_5_ForConditionalGeneration"]
    assert check(tmp_path / "half", HOST_LIST[:3] + OWN[:3]) == []


def test_a_project_that_declares_no_host_is_compared_with_none(tmp_path):
    assert check(tmp_path, HOST_LIST[:6], pyproject='[project]\nname = "kestrel"\n') == []


def test_why_says_which_list_of_the_hosts_it_copies(tmp_path):
    report = run(tmp_path, HOST_LIST[:6])
    collection, = why.matching(report.model, "KestrelProposer.load_model#1")
    lines = unmarked(why.explain_pair(report.model, collection, "MiMoV2OmniForCausalLM",
                                      report.diagnostics)).splitlines()
    assert lines[2] == ("a copy of the host's list SpecDecodeBaseProposer.load_model#1 at "
                        "vllm/v1/spec_decode/llm_base_proposer.py:1301, which holds 'MiMoV2OmniForCausalLM' (ARC106; "
                        f"archsync's snapshot of {load_snapshot('vllm').label})")
    # the finding as `check` prints it: the five names the copy lacks are one cause, reported once
    assert lines[-1].startswith("reported (one cause, 5 places): vllm_kestrel/proposer.py:3:27: ARC106 "
                                "'Exaone4_5_ForConditionalGeneration' is missing from KestrelProposer.load_model#1, "
                                "which copies")
    assert lines[-1].endswith("'InternS2PreviewForConditionalGeneration', 'MiMoV2OmniForCausalLM' there")


def test_inventory_says_which_list_of_the_hosts_a_subject_copies(tmp_path):
    (tmp_path / "copy").mkdir()
    (tmp_path / "elsewhere").mkdir()
    copy = inventory.inventory(run(tmp_path / "copy", HOST_LIST[:6]).model)["subjects"]
    assert [(s["name"], s["copies"]) for s in copy] == [
        ("KestrelProposer.load_model#1",
         "SpecDecodeBaseProposer.load_model#1 at vllm/v1/spec_decode/llm_base_proposer.py:1301")]
    elsewhere = inventory.inventory(run(tmp_path / "elsewhere", HOST_LIST[:6], method="pad_for").model)["subjects"]
    assert [(s["name"], s["copies"]) for s in elsewhere] == [("KestrelProposer.pad_for#1", "")]
