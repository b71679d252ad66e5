"""How a subject is read changes what it is asked to hold (issue 27): the reader forms beyond the
fixtures under `fixtures/consumers/`, each proved by the line that appears or goes away."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, archsync, places, write
from lint_plugin.project.mentions import words

_WANTED = ("serve/quant/calibrate.py:15:1: ARC104 'KestrelForCausalLM' is missing from SMOOTH_ARCHS, which holds its "
           "sibling 'KestrelForConditionalGeneration' ('KestrelForCausalLM' is registered at "
           "serve/models/module_map.py:7)")


def _layer_table_finding(table: str) -> str:
    line = {"LAYER_TYPE_MAP": 3, "NORM_TYPE_MAP": 9}[table]
    return (f"serve/quant/calibrate.py:{line}:1: ARC104 'KestrelForCausalLM' is missing from {table}, which holds "
            "its sibling 'KestrelForConditionalGeneration' ('KestrelForCausalLM' is registered at "
            "serve/models/module_map.py:7)")


def _unkeyed(root):
    """The calibration module looking its tables up with the checkpoint's architecture string: both are
    asked for the alias."""
    calibrate = root / "serve/quant/calibrate.py"
    text = calibrate.read_text(encoding="utf-8")
    write(calibrate, text[:text.index("def calibrate")] + "def calibrate(config):\n    arch = config.architectures[0]\n"
          "    return LAYER_TYPE_MAP[arch], NORM_TYPE_MAP[arch], arch in SMOOTH_ARCHS\n\n\n")


def test_a_table_another_module_looks_up_with_a_class_name(tree):
    root = tree("consumers/class_name_keys")
    _unkeyed(root)
    # one cause (the alias of a held class), three tables of one file: reported once
    assert archsync("check", "--no-cache", cwd=root).lines == [
        _layer_table_finding("LAYER_TYPE_MAP") + "; the same for 'KestrelForCausalLM' in NORM_TYPE_MAP (line 9) and "
                                                 "SMOOTH_ARCHS (line 15)"]
    assert places("--no-cache", cwd=root) == [
        _layer_table_finding("LAYER_TYPE_MAP"), _layer_table_finding("NORM_TYPE_MAP"), _WANTED]
    write(root / "serve/quant/smooth.py",
          "from serve.quant import calibrate\nfrom serve.quant.calibrate import LAYER_TYPE_MAP as LAYERS\n\n\n"
          "def smooth(model):\n    layer = LAYERS.get(type(model).__name__)\n"
          "    norm = calibrate.NORM_TYPE_MAP[model.__class__.__name__]\n    return layer, norm\n")
    assert places("--no-cache", cwd=root) == [_WANTED]


def test_a_table_a_function_imports_itself_and_looks_up_with_a_class_name(tree):
    """auto-round's `SPECIAL_SHARED_CACHE_KEYS`, imported in the body of the function that reads it
    (`from auto_round.special_model_handler import ...`): that function's import says whose table it is."""
    root = tree("consumers/class_name_keys")
    _unkeyed(root)
    write(root / "serve/quant/smooth.py",
          "def smooth(model):\n    from serve.quant.calibrate import LAYER_TYPE_MAP as LAYERS\n"
          "    from .calibrate import NORM_TYPE_MAP\n\n"
          "    return LAYERS.get(type(model).__name__), NORM_TYPE_MAP[model.__class__.__name__]\n")
    assert places("--no-cache", cwd=root) == [_WANTED]


def test_a_class_name_tested_against_the_keys(tree):
    root = tree("consumers/class_name_keys")
    _unkeyed(root)
    with (root / "serve/quant/calibrate.py").open("a", encoding="utf-8") as handle:
        handle.write("def supported(model):\n    return type(model).__name__ in NORM_TYPE_MAP.keys()\n")
    assert places("--no-cache", cwd=root) == [_layer_table_finding("LAYER_TYPE_MAP"), _WANTED]


def test_a_caller_in_another_file_makes_a_predicate_read(tree):
    root = tree("consumers/unread")
    lines = places("--no-cache", cwd=root)
    write(root / "serve/attention.py", "from serve.utils import is_fa3_default_architecture as fa3_default\n\n\n"
                                       "def backend(config):\n    return 'fa3' if fa3_default(config) else 'triton'\n")
    assert places("--no-cache", cwd=root) == lines[:1] + [
        "serve/utils.py:12:21: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (serve/families.py:4) but "
        "missing from is_fa3_default_architecture.default_archs"] + lines[1:]


def test_a_mention_through_the_module_is_a_reader(tree):
    root = tree("consumers/unread")
    assert not [line for line in places("--no-cache", cwd=root) if "_old_graph_models" in line]
    write(root / "serve/attention.py", "import serve.utils\n\n\ndef backend(config):\n"
                                       "    return serve.utils._old_graph_models\n")
    assert "serve/utils.py:4:1: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (serve/families.py:4) but " \
           "missing from _old_graph_models" in places("--no-cache", cwd=root)


def test_an_import_inside_a_function_of_an_analysed_module_is_a_reader(tree):
    """The reader quotes a registered name (so its facts are read) and imports the table in a function
    (vLLM's `MODELS_CONFIG_MAP` is read so): its bindings, not its facts' module-level imports, say so."""
    root = tree("consumers/unread")
    write(root / "serve/config.py", 'DEFAULT_ARCH = "BravoForCausalLM"\n\n\n'
                                    "def capture(config):\n    from serve.utils import _old_graph_models\n\n"
                                    "    return config.architectures[0] in _old_graph_models\n")
    assert "serve/utils.py:4:1: ARC101 'AlphaMoeForCausalLM' is matched by is_alpha() (serve/families.py:4) but " \
           "missing from _old_graph_models" in places("--no-cache", cwd=root)


def test_a_class_name_looked_up_in_a_method_of_a_class(tree):
    """Only the statements that write a class-name key are walked (`keys.near_keys`): a method's, inside
    its class, and the local it assigns there."""
    root = tree("consumers/class_name_keys")
    _unkeyed(root)
    with (root / "serve/quant/calibrate.py").open("a", encoding="utf-8") as handle:
        handle.write("class Calibrator:\n    def __init__(self, model):\n        self.model = model\n\n"
                     "    def norm(self):\n        name = self.model.__class__.__name__\n"
                     "        return NORM_TYPE_MAP.get(name)\n")
    assert places("--no-cache", cwd=root) == [_layer_table_finding("LAYER_TYPE_MAP"), _WANTED]


def test_why_says_who_reads_a_subject_and_with_what_key():
    """`why` prints what decided whether the subject is completed, on its second line."""
    lines = archsync("why", "--no-cache", "LAYER_TYPE_MAP", "KestrelForCausalLM",
                     cwd=FIXTURES / "consumers" / "class_name_keys").lines
    assert lines[1] == ("read: by its name (a call, an import or a mention beyond its definition); looked up with a "
                        "Python class name (`type(model).__name__`): not asked for names served by another's class")
    lines = archsync("why", "--no-cache", "_old_graph_models", "AlphaMoeForCausalLM",
                     cwd=FIXTURES / "consumers" / "unread").lines
    assert lines[1] == "read: not completed: nothing in the project reads it: its name appears only where it is defined"
    lines = archsync("why", "--no-cache", "_GRAPH_ARCHS", "AlphaMoeForCausalLM",
                     cwd=FIXTURES / "consumers" / "unread").lines
    assert lines[1] == "read: by its name (a call, an import or a mention beyond its definition); looked up with an " \
                       "architecture name"


_SLIDING_WINDOW_TWIN = ("serve/layers/attention.py:3:1: ARC104 'Llama4ForCausalLM' is missing from "
                        "SLIDING_WINDOW_ARCHS, which holds its sibling 'Llama4ForConditionalGeneration' "
                        "('Llama4ForCausalLM' is registered at serve/models/registry.py:29)")
_TWIN_IN_THE_SWA_LIST = ("serve/configs/model_config.py:13:24: ARC104 'Llama4ForCausalLM' is missing from "
                         "is_hybrid_swa_model.hybrid_swa_archs, which holds its sibling "
                         "'Llama4ForConditionalGeneration' ('Llama4ForCausalLM' is registered at "
                         "serve/models/registry.py:29)")


def test_a_chain_beside_the_list_with_a_branch_for_the_name_lets_it_be_asked_for(tree):
    """The per-model chain (`get_hybrid_layer_ids`) is what keeps the twin out of the list: give the twin a
    branch there and the list is asked for it like any other."""
    root = tree("consumers/per_model_branches")
    config = root / "serve/configs/model_config.py"
    quiet = places("--no-cache", cwd=root)
    text = config.read_text(encoding="utf-8")
    write(config, text.replace('    if "Llama4ForConditionalGeneration" in architectures:',
                               '    if "Llama4ForConditionalGeneration" in architectures or "Llama4ForCausalLM" in '
                               'architectures:'))
    assert places("--no-cache", cwd=root) == [_TWIN_IN_THE_SWA_LIST] + quiet


def test_a_chain_that_takes_only_some_of_the_lists_names_does_not_keep_it_quiet(tree):
    """Two of the list's four names in the chain is not most of them: the chain is about something else."""
    root = tree("consumers/per_model_branches")
    config = root / "serve/configs/model_config.py"
    text = config.read_text(encoding="utf-8")
    write(config, text.replace('"Gemma3ForCausalLM" in architectures or "Step3p5ForCausalLM" in architectures',
                               'getattr(architectures, "layer_types", None)'))
    assert _TWIN_IN_THE_SWA_LIST in places("--no-cache", cwd=root)


def test_a_chain_that_searches_the_list_itself_takes_the_name_once_the_list_holds_it(tree):
    """A last branch that searches the list (`elif any(arch in HYBRID_SWA_ARCHS ...)`) handles any name the
    list holds: the twin lacks no code there, and the list is asked for it."""
    root = tree("consumers/per_model_branches")
    config = root / "serve/configs/model_config.py"
    text = config.read_text(encoding="utf-8")
    module_level = "    return any(arch in HYBRID_SWA_ARCHS for arch in architectures)\n\n\nHYBRID_SWA_ARCHS = {"
    write(config, text.replace("    hybrid_swa_archs = {", module_level)
          .replace("    }\n    return any(arch in hybrid_swa_archs for arch in architectures)\n", "}\n")
          .replace("    else:\n        return None, None",
                   "    elif any(arch in HYBRID_SWA_ARCHS for arch in architectures):\n        swa = []\n"
                   "    else:\n        return None, None"))
    assert places("--no-cache", cwd=root) == [
        "serve/configs/model_config.py:16:1: ARC104 'Llama4ForCausalLM' is missing from HYBRID_SWA_ARCHS, which holds "
        "its sibling 'Llama4ForConditionalGeneration' ('Llama4ForCausalLM' is registered at "
        "serve/models/registry.py:29)", _SLIDING_WINDOW_TWIN]
    write(config, config.read_text(encoding="utf-8").replace(
        "    elif any(arch in HYBRID_SWA_ARCHS for arch in architectures):\n        swa = []\n", ""))
    assert places("--no-cache", cwd=root) == [_SLIDING_WINDOW_TWIN]


def test_why_names_the_chain_that_lacks_a_branch_for_the_name():
    lines = archsync("why", "--no-cache", "is_hybrid_swa_model.hybrid_swa_archs", "Llama4ForCausalLM",
                     cwd=FIXTURES / "consumers" / "per_model_branches").lines
    reason = ("the if/elif chain at serve/configs/model_config.py:24 takes 4 of the subject's 4 names one by one and "
              "has no branch for 'Llama4ForCausalLM': added to the list alone, the model would reach code that does "
              "not handle it")
    assert f"  not reported: {reason}" in lines
    assert lines[-1] == f"ARC105 stays quiet: {reason}"


_OSPREY = ("serve/vision/builder.py:23:20: ARC105 'OspreyPreviewForConditionalGeneration' may belong in "
           "VisionBuilder.build_model#3: it runs the code of 'KestrelMoeForConditionalGeneration' (`class "
           "OspreyPreviewForConditionalGeneration(KestrelMoeForConditionalGeneration)` defines no method, at "
           "serve/models/registry.py:15) (confidence 0.85)")


def test_a_chain_of_the_same_function_that_tests_the_name_apart_keeps_the_list_quiet(tree):
    """lmdeploy's Qwen3.5 vision builder: its chain loads the InternS2 checkpoints in a branch of their own,
    and the test after it is about the two Qwen3.5 names only. Without that branch, the test is asked."""
    root = tree("consumers/told_apart")
    reason = ("the if/elif chain at serve/vision/builder.py:16, in the same function, tests "
              "'OspreyPreviewForConditionalGeneration' in a branch apart from the subject's names: the function "
              "tells them apart")
    assert archsync("why", "--no-cache", "VisionBuilder.build_model#3", "OspreyPreviewForConditionalGeneration",
                    cwd=root).lines[-1] == f"ARC105 stays quiet: {reason}"
    builder = root / "serve/vision/builder.py"
    write(builder, builder.read_text(encoding="utf-8").replace(
        "        elif arch in _OSPREY_ARCHS:\n            model_class = loader.auto\n", ""))
    assert places("--no-cache", cwd=root) == [_OSPREY]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab_1 .\né(", max_size=40), st.sampled_from(["a", "ab", "a_1", "b."]))
def test_a_mention_is_a_name_standing_alone_as_a_bytes_word_boundary_says(text, name):
    """The counting the unread check relies on is the regular expression it replaced, to the count."""
    data, word = text.encode(), name.encode()
    expected = len(re.findall(rb"(?<!\w)" + re.escape(word) + rb"(?!\w)", data))
    assert words(word, data, 3) == min(3, expected)


_EGRET_BESIDE_HERON = ("it runs the code of 'HeronMoeForConditionalGeneration' (`class "
                       "EgretPreviewForConditionalGeneration(HeronMoeForConditionalGeneration)` defines no method, at "
                       "serve/models/egret.py:5) (confidence 0.85)")
_EGRET_SUPPORT = ("serve/engine/support.py:{line}:16: ARC105 'EgretPreviewForConditionalGeneration' may belong in "
                  "is_supported#{number}: " + _EGRET_BESIDE_HERON)
_EGRET_TABLE = ("serve/engine/support.py:3:1: ARC105 'EgretPreviewForConditionalGeneration' may belong in "
                "SUPPORTED_ARCHS: " + _EGRET_BESIDE_HERON)
_SUPPORT_HEAD = ('"""The fused engine."""\n\nSUPPORTED_ARCHS = dict(\n    HeronForConditionalGeneration="heron",\n'
                 '    HeronMoeForConditionalGeneration="heron",\n    StarlingForCausalLM="starling",\n)\n\n\n'
                 'def is_supported(config):\n    arch = config.architectures[0]\n')
_HERON_TEST = 'arch in ["HeronForConditionalGeneration", "HeronMoeForConditionalGeneration"]:'


def test_a_test_inside_a_test_of_the_same_value_against_a_table_is_asked_only_what_the_table_holds(tree):
    """lmdeploy's TurboMind support check: the per-model tests sit in the branch of `arch in SUPPORTED_ARCHS`,
    so a name the table lacks never reaches them. Out of that branch, the test is asked (and the table too,
    no chain taking its names one by one any more)."""
    root = tree("consumers/gated")
    assert archsync("why", "--no-cache", "is_supported#2", "EgretPreviewForConditionalGeneration",
                    cwd=root).lines[-1] == (
        "ARC105 stays quiet: the test sits inside a test of the same value against SUPPORTED_ARCHS "
        "(serve/engine/support.py:3), which does not hold 'EgretPreviewForConditionalGeneration': only the names "
        "it holds reach it")
    assert ("  serve/engine/support.py:17: is_supported#2 [inline, 2 names] (by shape): tested inside a test of the "
            "same value against SUPPORTED_ARCHS (serve/engine/support.py:3): asked only for the names it holds"
            ) in archsync("inventory", "--no-cache", cwd=root).lines
    write(root / "serve/engine/support.py", _SUPPORT_HEAD + "    supported = arch in SUPPORTED_ARCHS.keys()\n"
          "    if arch == 'StarlingForCausalLM':\n        supported = config.num_attention_heads != 40\n"
          f"    if {_HERON_TEST}\n        supported = supported and config.vision_config.patch_size == 14\n"
          "    return supported\n")
    assert places("--no-cache", cwd=root) == [_EGRET_TABLE, _EGRET_SUPPORT.format(line=15, number=2)]


def test_after_an_early_return_for_a_name_the_table_lacks_only_its_names_reach_a_test(tree):
    """`if arch not in TABLE: return` leaves the rest of its block to the table's names; binding the value
    again after it (`arch = ...`) makes the test one of another value, asked as any."""
    root = tree("consumers/gated")
    guarded = (_SUPPORT_HEAD + "    if not arch or arch not in SUPPORTED_ARCHS:\n        return False\n"
               "    {rebind}if {heron}\n        return config.vision_config.patch_size == 14\n    return True\n")
    write(root / "serve/engine/support.py", guarded.format(rebind="", heron=_HERON_TEST))
    assert places("--no-cache", cwd=root) == [_EGRET_TABLE]
    write(root / "serve/engine/support.py", guarded.format(
        rebind="arch = config.text_config.architectures[0]\n    ", heron=_HERON_TEST))
    assert places("--no-cache", cwd=root) == [_EGRET_TABLE, _EGRET_SUPPORT.format(line=15, number=1)]


_KESTREL = ("class KestrelMoeForCausalLM:\n    def forward(self):\n        pass\n\n\n"
            "class KestrelMoeV2ForCausalLM(KestrelMoeForCausalLM):\n    pass\n\n\n"
            "class HeronMoeForCausalLM:\n    def forward(self):\n        pass\n\n\n"
            "EntryClass = [KestrelMoeForCausalLM, KestrelMoeV2ForCausalLM, HeronMoeForCausalLM]\n")
_CONVERT = ("def convert(config):\n    arch = config.architectures[0]\n    found = {{}}\n"
            '    if arch in ["KestrelMoeForCausalLM", "KestrelMoeV2ForCausalLM", "HeronMoeForCausalLM"] or \\\n'
            "            config.moe:\n"
            '        found["moe"] = True\n'
            '{indent}if arch in ["KestrelMoeForCausalLM", "HeronMoeForCausalLM"]:\n'
            '{indent}    found["shared_expert_gate"] = True\n    return found\n')


def test_a_test_that_picks_some_of_what_an_enclosing_test_admits_leaves_the_rest_out_by_choice(tmp_path):
    """ms-swift's shared-expert gate: inside `if mt in {qwen2_moe, qwen3_moe, qwen3_next} or ...:`, the test of
    `{qwen2_moe, qwen3_next}` was written where Qwen3-MoE reaches it, and leaves it out (it has no shared expert).
    The V2 subclass here runs V1's code, and two lists hold both: written beside the enclosing test, not inside it,
    the inner test is asked for it."""
    write(tmp_path / "engine" / "models" / "moe.py", _KESTREL)
    write(tmp_path / "engine" / "kernels.py", 'FUSED_MOE_ARCHS = ["KestrelMoeForCausalLM", "KestrelMoeV2ForCausalLM"]\n'
          'EP_MOE_ARCHS = ["KestrelMoeForCausalLM", "KestrelMoeV2ForCausalLM", "HeronMoeForCausalLM"]\n')
    write(tmp_path / "engine" / "loader.py", "from engine.convert import convert\n"
          "from engine.kernels import EP_MOE_ARCHS, FUSED_MOE_ARCHS\n\n\ndef load(config):\n"
          "    arch = config.architectures[0]\n"
          "    return convert(config), arch in FUSED_MOE_ARCHS, arch in EP_MOE_ARCHS\n")
    write(tmp_path / "engine" / "convert.py", _CONVERT.format(indent="        "))
    assert archsync("check", "--no-cache", cwd=tmp_path).lines == []
    assert archsync("why", "--no-cache", "convert#2", "KestrelMoeV2ForCausalLM", cwd=tmp_path).lines[-1] == (
        "ARC105 stays quiet: the test sits inside a test of the same value against convert#1 (engine/convert.py:4), "
        "which holds 'KestrelMoeV2ForCausalLM' and the subject's names: the subject picks some of them, and leaves it "
        "out by choice")
    write(tmp_path / "engine" / "convert.py", _CONVERT.format(indent="    "))
    assert [line.partition(": ARC105 ")[2][:50] for line in archsync("check", "--no-cache", cwd=tmp_path).lines] == [
        "'KestrelMoeV2ForCausalLM' may belong in convert#2:"]


def test_a_function_only_an_example_calls_is_read_as_every_file_is(tmp_path):
    """optimum-habana's `model_on_meta()` is called by its text-generation example alone (a directory no module
    name can spell, `examples/text-generation/`, imported from inside a function): the example reads the list, and
    the prefilter, which chooses no example for its facts, must see that caller as parsing every file does."""
    write(tmp_path / "pkg" / "models.py", "class AlphaForCausalLM:\n    pass\n\n\n"
          "class BetaForCausalLM:\n    pass\n\n\nEntryClass = [AlphaForCausalLM, BetaForCausalLM]\n")
    write(tmp_path / "pkg" / "checks.py", "def on_meta(config):\n"
          '    return config.architectures[0] in ["AlphaForCausalLM", "BetaForCausalLM"]\n')
    write(tmp_path / "examples" / "text-generation" / "utils.py",
          "def setup(config):\n    from pkg.checks import on_meta\n\n    return on_meta(config)\n")
    seen = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json
    every = archsync("inventory", "--format", "json", "--no-cache", "--no-prefilter", cwd=tmp_path).json
    assert [(s["name"], s["read"]) for s in seen["subjects"]] == [("on_meta#1", "")]
    assert seen == every
