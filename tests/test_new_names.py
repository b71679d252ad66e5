"""ARC107 beyond its examples: which lists the baseline had, as the change left them (in process, two trees)."""
from __future__ import annotations

from pathlib import Path

import pytest

from lint_plugin import pipeline
from lint_plugin.diagnostics import unmarked

MODELS_THEN = ("models/kestrel.py", "class KestrelForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                                    "class WrenForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                                    "EntryClass = [KestrelForCausalLM, WrenForCausalLM]\n")
MODELS_NOW = ("models/kestrel.py", MODELS_THEN[1].replace(
    "EntryClass = [KestrelForCausalLM, WrenForCausalLM]\n",
    "class KestrelV2ForCausalLM(KestrelForCausalLM):\n    pass\n\n\n"
    "EntryClass = [KestrelForCausalLM, WrenForCausalLM, KestrelV2ForCausalLM]\n"))
TEST = "    if config.architectures[0] == \"{}\":\n        return \"{}\"\n"


def new_findings(tmp_path: Path, then, now, messages: bool = False) -> list:
    def tree(name, files):
        root = tmp_path / name
        for path, text in files:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        (root / "pyproject.toml").write_text("", encoding="utf-8")
        return pipeline.run(pipeline.Request((root,), use_cache=False))

    done, baseline = tree("now", now), tree("then", then)
    return [f"{d.code} {d.subject} {d.member}" + (f": {unmarked(d.message)}" if messages else "")
            for d in pipeline.since(done, baseline, done.diagnostics).new]


def backend(*tests) -> tuple:
    return ("layers/attention.py", "def attention_backend(config):\n" + "".join(TEST.format(*t) for t in tests)
            + "    return \"mha\"\n")


def test_a_test_the_baseline_had_as_it_was_is_asked(tmp_path):
    then = (MODELS_THEN, backend(("WrenForCausalLM", "wren"), ("KestrelForCausalLM", "mla")))
    now = (MODELS_NOW, backend(("WrenForCausalLM", "wren"), ("KestrelForCausalLM", "mla")))
    assert new_findings(tmp_path, then, now) == ["ARC107 attention_backend#2 KestrelV2ForCausalLM"]


def test_a_test_the_change_inserted_is_not_asked_though_it_takes_the_number_of_one_the_baseline_had(tmp_path):
    then = (MODELS_THEN, backend(("WrenForCausalLM", "wren")))
    now = (MODELS_NOW, backend(("KestrelForCausalLM", "mla"), ("WrenForCausalLM", "wren")))  # #1 is new
    assert new_findings(tmp_path, then, now) == []


def test_a_test_the_change_rewrote_is_not_asked(tmp_path):
    then = (MODELS_THEN, backend(("WrenForCausalLM", "mla")))
    now = (MODELS_NOW, ("layers/attention.py", backend(("WrenForCausalLM", "mla"))[1].replace(
        '== "WrenForCausalLM"', 'in ("KestrelForCausalLM",)')))  # Wren out, Kestrel in: the author chose
    assert new_findings(tmp_path, then, now) == []


# Embedding models spelt with no task (`WrenModel`, `Robin`) are classes with no generation head: of the kind of
# classification and reward models (`resolve/said_kinds.py`). A list of them all is the project's list of that kind.
def _poolers(generative_bases: bool, *extra: str) -> tuple:
    base = "(WrenForCausalLM)" if generative_bases else ""
    names = ["KestrelEmbeddingModel", "WrenModel", "FinchModel", "Robin", "KestrelForSequenceClassification",
             "WrenForRewardModel", *extra]
    classes = "".join(f"class {n}{base if n in ('WrenModel', 'Robin') else ''}:\n    pass\n\n\n" for n in names
                      if n != "FinchModel")
    imports = "from models.kestrel import WrenForCausalLM\n\n\n" if generative_bases else ""
    return ("models/poolers.py", imports + classes
            + "class FinchModel(WrenModel):\n    pass\n\n\n" + f"EntryClass = [{', '.join(names)}]\n")


_HEADLESS_TESTS = "        or ".join(f"\"{n}\" in architectures\n" for n in [
    "KestrelEmbeddingModel", "WrenModel", "FinchModel", "Robin", "KestrelForSequenceClassification",
    "WrenForRewardModel"])
GENERATION = ("configs/model_config.py", "def is_generation_model(architectures):\n    if (\n        " + _HEADLESS_TESTS
              + "    ):\n        return False\n    return True\n")
SERVER = ("server.py", "from configs.model_config import is_generation_model\n\n\n"
                       "def launch(config):\n    return is_generation_model(config.architectures)\n")


def test_a_new_classification_model_is_asked_of_the_list_of_models_with_no_generation_head(tmp_path):
    then = (MODELS_THEN, _poolers(False), GENERATION, SERVER)
    now = (MODELS_THEN, _poolers(False, "FinchForSequenceClassification"), GENERATION, SERVER)
    assert new_findings(tmp_path, then, now, messages=True) == [
        "ARC107 is_generation_model#1 FinchForSequenceClassification: 'FinchForSequenceClassification', which the "
        "change registers, may belong in is_generation_model#1: it held 6 of the 6 classification or embedding "
        "architectures registered in the project at the baseline, and this is one"]


def test_bare_names_served_by_generative_code_are_no_list_of_that_kind(tmp_path):
    """`WrenModel(WrenForCausalLM)`: a model that generates, whatever its name; the list is half generative then."""
    then = (MODELS_THEN, _poolers(True), GENERATION, SERVER)
    now = (MODELS_THEN, _poolers(True, "FinchForSequenceClassification"), GENERATION, SERVER)
    assert new_findings(tmp_path, then, now) == []


# A predicate decides with all of its tests: a multimodal checkpoint tested in a branch of its own counts as held.
_VISION = ["KestrelVLForConditionalGeneration", "WrenVLForConditionalGeneration", "FinchVLForConditionalGeneration",
           "RobinVLForConditionalGeneration", "LarkVLForConditionalGeneration", "OwlVLForConditionalGeneration"]


def _vision_models(*extra: str) -> tuple:
    names = _VISION + list(extra)
    return ("models/vision.py", "".join(f"class {n}:\n    pass\n\n\n" for n in names)
            + f"EntryClass = [{', '.join(names)}]\n")


def _vision_test(function: str, returns: bool) -> tuple:
    listed = ", ".join(f"\"{n}\"" for n in _VISION[:5])
    done = ("        return True\n", "    return False\n") if returns else ("        config.vision = True\n", "")
    return ("archs.py", f"def {function}(arch, config):\n"
                        f"    supported = set([{listed}])\n"
                        f"    if arch == \"OwlVLForConditionalGeneration\" and \"vision_config\" in config:\n{done[0]}"
                        f"    elif arch in supported:\n{done[0]}{done[1]}")


def _engine(function: str) -> tuple:
    return ("engine.py", f"from archs import {function}\n\n\ndef start(config):\n"
                         f"    return {function}(config.architectures[0], config)\n")


def test_a_predicate_holds_what_all_of_its_tests_hold(tmp_path):
    then = (MODELS_THEN, _vision_models(), _vision_test("check_vl_llm", returns=True), _engine("check_vl_llm"))
    now = (MODELS_THEN, _vision_models("LarkV2VLForConditionalGeneration"), _vision_test("check_vl_llm", returns=True),
           _engine("check_vl_llm"))
    assert new_findings(tmp_path, then, now, messages=True) == [
        "ARC107 check_vl_llm.supported LarkV2VLForConditionalGeneration: 'LarkV2VLForConditionalGeneration', which "
        "the change registers, may belong in check_vl_llm.supported: it held 5 (6 with the other tests of "
        "check_vl_llm()) of the 6 multimodal architectures registered in the project at the baseline, and this is one"]


def test_tests_of_a_function_that_decides_nothing_are_not_counted_together(tmp_path):
    """`configure` returns no answer: its tests may do many things, and 5 of 6 multimodal models is no list of them
    all."""
    then = (MODELS_THEN, _vision_models(), _vision_test("configure", returns=False), _engine("configure"))
    now = (MODELS_THEN, _vision_models("LarkV2VLForConditionalGeneration"), _vision_test("configure", returns=False),
           _engine("configure"))
    assert new_findings(tmp_path, then, now) == []


# A new version of a held model built by subclassing it runs what it does not override of the held model's code:
# vLLM's `Qwen3_5ForConditionalGeneration(Qwen3VLForConditionalGeneration)` had to join the spec-decode image-token
# list. Another model built on a held one's class (SGLang's `TeleFLMForCausalLM(LlamaForCausalLM)`) is held by a
# list one by one.
def _models_now(new_class: str, name: str) -> tuple:
    return ("models/kestrel.py", MODELS_THEN[1].replace(
        "EntryClass = [KestrelForCausalLM, WrenForCausalLM]\n",
        f"{new_class}\n\n\nEntryClass = [KestrelForCausalLM, WrenForCausalLM, {name}]\n"))


_OVERRIDES = "(KestrelForCausalLM):\n    def forward(self):\n        return 2"


MLA = ("layers/mla.py", "MLA_ARCHS = [\"KestrelForCausalLM\", \"WrenForCausalLM\"]\n\n\n"
                        "def uses_mla(config):\n    return config.architectures[0] in MLA_ARCHS\n")


def test_a_new_version_that_overrides_methods_of_the_class_it_subclasses_is_asked_of_a_list(tmp_path):
    now = (_models_now(f"class KestrelV2ForCausalLM{_OVERRIDES}", "KestrelV2ForCausalLM"), MLA)
    assert new_findings(tmp_path, (MODELS_THEN, MLA), now, messages=True) == [
        "ARC107 MLA_ARCHS KestrelV2ForCausalLM: 'KestrelV2ForCausalLM', which the change registers, may belong in "
        "MLA_ARCHS: it subclasses 'KestrelForCausalLM' (`class KestrelV2ForCausalLM(KestrelForCausalLM)` at "
        "models/kestrel.py:11)"]


def test_a_test_of_one_name_is_asked_only_for_a_version_that_runs_its_code(tmp_path):
    """`arch == "KestrelForCausalLM"` singles that model out: a version that overrides its methods is another
    model there (lmdeploy's VL check of a DeepSeek-V2 language model, and DeepSeek-V3.2)."""
    then = (MODELS_THEN, backend(("WrenForCausalLM", "wren"), ("KestrelForCausalLM", "mla")))
    now = (_models_now(f"class KestrelV2ForCausalLM{_OVERRIDES}", "KestrelV2ForCausalLM"),
           backend(("WrenForCausalLM", "wren"), ("KestrelForCausalLM", "mla")))
    assert new_findings(tmp_path, then, now) == []


@pytest.mark.parametrize("new_class", [f"class MagpieForCausalLM{_OVERRIDES}",
                                       "class MagpieForCausalLM(KestrelForCausalLM):\n    pass",
                                       "MagpieForCausalLM = KestrelForCausalLM"])
def test_another_model_built_on_a_held_class_is_not_asked(tmp_path, new_class):
    assert new_findings(tmp_path, (MODELS_THEN, MLA), (_models_now(new_class, "MagpieForCausalLM"), MLA)) == []


def _builder(*searched: str) -> tuple:
    """A vision builder's chain: one branch a name, the last a list of the module (lmdeploy's Qwen3.5 builder and
    its `elif arch in _INTERN_S2_ARCHS:`)."""
    return ("vl/builder.py", f"_S2 = [{', '.join(repr(n) for n in searched)}]\n\n\n"
                             "def build(config):\n    arch = config.architectures[0]\n"
                             "    if arch == \"KestrelForCausalLM\":\n        return 1\n"
                             "    elif arch == \"WrenForCausalLM\":\n        return 2\n"
                             "    elif arch in _S2:\n        return 3\n    raise ValueError(arch)\n")


def test_a_new_name_a_list_searched_by_another_branch_holds_is_handled_there(tmp_path):
    then = (MODELS_THEN, _builder("FinchForCausalLM"))
    assert new_findings(tmp_path / "in", then, (MODELS_NOW, _builder("FinchForCausalLM", "KestrelV2ForCausalLM"))) == []
    assert new_findings(tmp_path / "out", then, (MODELS_NOW, _builder("FinchForCausalLM"))) == [
        "ARC107 build#1 KestrelV2ForCausalLM"]


CHAIN = ("layers/attention.py", "def attention_backend(config):\n    arch = config.architectures[0]\n"
                                "    if arch == \"WrenForCausalLM\":\n        return \"wren\"\n"
                                "    elif arch == \"KestrelForCausalLM\":\n        return \"mla\"\n{}"
                                "    return \"mha\"\n")


@pytest.mark.parametrize("branch, asked", [
    ("", ["ARC107 attention_backend#2 KestrelV2ForCausalLM"]),
    # the change gives the new model a branch of its own, on a field of its config rather than its name
    ("    elif getattr(config, \"kv_lora_rank\", 0) > 0:\n        return \"mla-lite\"\n", []),
])
def test_a_chain_the_change_added_a_branch_to_is_what_its_author_decided(tmp_path, branch, asked):
    """LightLLM's tokenizer chain gained `elif model_cfg.get("thinker_config") is not None:` for Qwen3-Omni, whose
    class subclasses Qwen3-VL-MoE's: its Qwen3-VL branch is not where the change's author put it."""
    then = (MODELS_THEN, (CHAIN[0], CHAIN[1].format("")))
    now = (MODELS_NOW, (CHAIN[0], CHAIN[1].format(branch)))
    assert new_findings(tmp_path, then, now) == asked
