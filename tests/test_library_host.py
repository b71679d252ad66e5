"""A project that serves transformers' models reads what transformers registers, zero-config.

The case itself (a quantizer's table lacking the text-only sibling of a model it holds) is the fixture
`fixtures/hosts/transformers_served`; these tests hold when a project is served by transformers and when it
is not, the two guards that keep such a project's lists quiet (a model it has not taken up, a dense model
among experts), ARC201, the snapshot and its generator, and `universe-from = ["transformers"]`.
"""
from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, archsync, copy_tree, write
from lint_plugin.extract.facts import FileFacts, Member, RegistrationFact
from lint_plugin.frontends import model_type_snapshot
from lint_plugin.project.hosts import LIBRARY, Lineage, Snapshot, SnapshotError, load_snapshot, snapshot_document

SERVED = FIXTURES / "hosts" / "transformers_served"


def _registered(root) -> dict:
    document = archsync("inventory", "--format", "json", "--no-cache", cwd=root).json
    return {"snapshots": document["host_snapshots"], "registered": len(document["registered"])}


def test_inventory_says_the_project_serves_transformers_models():
    lines = archsync("inventory", "--no-cache", cwd=SERVED).lines
    assert f"  read from archsync's snapshot of {load_snapshot(LIBRARY).label}: the project serves its models (it " \
           "imports it, and registers none of its own or fewer than its files write of the library's, quoted or " \
           "as the model types they test)" in lines


def test_a_project_that_registers_the_models_its_lists_name_is_not_served_by_transformers(tmp_path):
    """An engine (SGLang, vLLM, lmdeploy) imports transformers for configs and tokenizers; its lists are about the
    models it registers, and so is its universe: only the quoted names decide, not the import."""
    write(tmp_path / "engine" / "models" / "kestrel.py",
          "from transformers import PretrainedConfig\n\n\nclass KestrelForCausalLM:\n    pass\n\n\n"
          "class MistralForCausalLM:\n    pass\n\n\nEntryClass = [KestrelForCausalLM, MistralForCausalLM]\n")
    write(tmp_path / "engine" / "attention.py",
          'SLIDING_WINDOW_ARCHS = ["KestrelForCausalLM", "MistralForCausalLM", "Gemma3ForCausalLM"]\n')
    assert _registered(tmp_path) == {"snapshots": [], "registered": 2}
    # one more of transformers' names than of its own: the files are about transformers' models
    write(tmp_path / "engine" / "attention.py",
          'SLIDING_WINDOW_ARCHS = ["KestrelForCausalLM", "MistralForCausalLM", "Gemma3ForCausalLM",\n'
          '                        "Gemma2ForCausalLM", "Qwen3ForCausalLM"]\n')
    served = _registered(tmp_path)
    assert served["snapshots"] == [load_snapshot(LIBRARY).label] and served["registered"] > 200


def test_the_model_types_a_project_tests_vote_as_the_architectures_they_name(tmp_path):
    """ipex-llm registers LangChain wrappers by shape (`"LlamaLLM": LlamaLLM`) and quotes no architecture: what its
    files write is transformers' model types, which the vote counts as the architectures they name."""
    write(tmp_path / "speedup" / "wrappers.py",
          "from transformers import AutoModelForCausalLM\n\n\nclass LlamaLLM:\n    pass\n\n\nclass BloomLLM:\n"
          "    pass\n\n\nWRAPPERS = {\"LlamaLLM\": LlamaLLM, \"BloomLLM\": BloomLLM}\n")
    write(tmp_path / "speedup" / "convert.py",
          "def optimize(model):\n    if model.config.model_type in (\"qwen2\", \"qwen2_moe\"):\n        fuse(model)\n")
    assert _registered(tmp_path) == {"snapshots": [], "registered": 2}
    convert = tmp_path / "speedup" / "convert.py"
    convert.write_text(convert.read_text()
                       + "    if model.config.model_type == \"gemma3_text\":\n        scale(model)\n")
    served = _registered(tmp_path)  # three of transformers' architectures against two of its own
    assert served["snapshots"] == [load_snapshot(LIBRARY).label] and served["registered"] > 200


def test_a_hosts_registry_is_named_as_the_host_names_it_from_above_the_project(tmp_path):
    """Run from above a project (LoRAX's `server/`), its files are shown from there; transformers' mappings are no
    file of it, and stay `transformers/...` (they read `server/transformers/...`, a path that does not exist)."""
    write(tmp_path / "server" / "pyproject.toml", "[project]\nname = \"server\"\n")
    write(tmp_path / "server" / "serve" / "load.py",
          "import transformers\n\nSLIDING = [\"Gemma3ForCausalLM\", \"MistralForCausalLM\"]\n")
    write(tmp_path / "client" / "pyproject.toml", "[project]\nname = \"client\"\n")
    lines = archsync("inventory", "--no-cache", cwd=tmp_path).lines
    assert "Project server:" in lines
    mapping = [line for line in lines if "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES" in line]
    assert len(mapping) == 1 and mapping[0].startswith("  transformers/models/auto/modeling_auto.py: "), mapping
    projects = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json["projects"]
    served = next(p for p in projects if p["root"].endswith("server"))
    assert {r["path"] for r in served["registries"]} == {"transformers/models/auto/modeling_auto.py"}


def test_a_project_that_does_not_import_transformers_has_nothing_registered(tmp_path):
    write(tmp_path / "tool" / "lists.py", 'SLIDING_WINDOW_ARCHS = ["Gemma3ForCausalLM", "MistralForCausalLM"]\n')
    assert _registered(tmp_path) == {"snapshots": [], "registered": 0}
    write(tmp_path / "tool" / "load.py", "import transformers\n")
    assert _registered(tmp_path)["snapshots"] == [load_snapshot(LIBRARY).label]
    write(tmp_path / "transformers" / "__init__.py", "")  # transformers' own tree is no user of it
    assert _registered(tmp_path) == {"snapshots": [], "registered": 0}


@pytest.mark.parametrize("taken_up", ["subject", "port"])
def test_a_model_the_project_names_nowhere_is_not_asked_of_a_list_until_it_does(tmp_path, taken_up):
    """Named in a subject (a model type the loader tests), or written in any file: optimum-habana ports the models
    it serves by subclassing transformers' classes, and names them in no list."""
    root = copy_tree(SERVED, tmp_path / "served")
    assert archsync("why", "SLIDING_WINDOW_ARCHS", "Gemma3ForCausalLM", "--no-cache", cwd=root).lines[-1] == (
        "ARC105 stays quiet: only transformers registers it, and the project names it nowhere: a model the project "
        "has not taken up")
    if taken_up == "subject":
        loader = root / "quantkit" / "loader.py"
        loader.write_text(loader.read_text().replace('("llama4_text", "qwen3")',
                                                     '("llama4_text", "qwen3", "gemma3_text")'))
    else:
        write(root / "quantkit" / "ports" / "gemma3.py", "from transformers import Gemma3ForCausalLM\n\n\n"
              "class FusedGemma3ForCausalLM(Gemma3ForCausalLM):\n    pass\n")
    assert archsync("check", "--no-cache", cwd=root).lines[1:] == [
        "quantkit/sliding.py:1:1: ARC104 'Gemma3ForCausalLM' is missing from SLIDING_WINDOW_ARCHS, which holds its "
        "sibling 'Gemma3ForConditionalGeneration' ('Gemma3ForCausalLM' is registered by transformers at "
        "transformers/models/auto/modeling_auto.py:762)"]


def test_a_dense_model_stays_out_of_a_table_of_experts_as_transformers_modules_say(tmp_path):
    """`qwen3` is a generation between two model types the table holds, and the dense twin of a third: read alone,
    the names tie it. transformers' `modeling_qwen3.py` defines no experts, every held model's module does."""
    assert archsync("why", "EXPERT_LAYERS", "Qwen3ForCausalLM", "--no-cache", cwd=SERVED).lines[-1] == (
        "ARC105 stays quiet: the subject holds mixture-of-experts models only (their code builds expert layers), "
        "and it is dense")
    assert dict(load_snapshot(LIBRARY).experts)["Qwen3MoeForCausalLM"] is True


def test_arc201_is_off_where_transformers_is_the_registry(tmp_path):
    """A checkpoint of a project serving transformers' models may name remote code, or a model newer than the
    release read: a name transformers lacks is no slip. The same list in an engine registering the names is told."""
    listed = 'MOE_ARCHS = ["Qwen3MoeForCausalLM", "Qwen2MoeForCausalLM", "Qwen3MoeForCasualLM"]\n'
    write(tmp_path / "served" / "quant" / "moe.py", "import transformers\n\n" + listed)
    assert archsync("check", "--no-cache", cwd=tmp_path / "served").lines == []
    write(tmp_path / "engine" / "engine" / "moe.py", listed)
    write(tmp_path / "engine" / "engine" / "models.py",
          "class Qwen3MoeForCausalLM:\n    pass\n\n\nclass Qwen2MoeForCausalLM:\n    pass\n\n\n"
          "EntryClass = [Qwen3MoeForCausalLM, Qwen2MoeForCausalLM]\n")
    assert [line.split(": ")[1][:6] for line in archsync("check", "--no-cache", cwd=tmp_path / "engine").lines] == \
        ["ARC201"]


def test_a_snapshot_keeps_what_its_modules_say_of_experts_and_lineage(tmp_path):
    facts = FileFacts("enginex/registry.py", "enginex.registry",
                      registrations=(RegistrationFact("_MODELS", (Member("AlphaForCausalLM", 2, 5),)),))
    snapshot = Snapshot("enginex", "example/enginex", "0123abc", "2026-01-02", (facts,),
                        experts=(("AlphaForCausalLM", True), ("BetaForCausalLM", False)),
                        lineage=(Lineage("BetaForCausalLM", "AlphaForCausalLM", "enginex/beta.py", 7),))
    write(tmp_path / "enginex.json", snapshot_document(snapshot).decode())
    assert load_snapshot("enginex", tmp_path) == snapshot
    older = json.loads(snapshot_document(snapshot))
    del older["lineage"]
    older["format"] = 4
    write(tmp_path / "enginex.json", json.dumps(older))
    assert load_snapshot("enginex", tmp_path).lineage == ()  # a format-4 snapshot knows none
    del older["experts"]
    older["format"] = 3
    write(tmp_path / "enginex.json", json.dumps(older))
    assert load_snapshot("enginex", tmp_path).experts == ()  # a format-3 snapshot knows none
    for bad in ({"format": 4, "experts": [["AlphaForCausalLM", "yes"]]},
                {"format": 5, "lineage": [["BetaForCausalLM", "AlphaForCausalLM", "enginex/beta.py"]]}):
        write(tmp_path / "enginex.json", json.dumps({**older, **bad}))
        with pytest.raises(SnapshotError):
            load_snapshot("enginex", tmp_path)


AUTO = b'''from collections import OrderedDict

MODEL_MAPPING_NAMES = OrderedDict([("alpha", "AlphaModel"), ("gamma", "GammaForConditionalGeneration")])
MODEL_FOR_PRETRAINING_MAPPING_NAMES = OrderedDict([("beta", "BetaForCausalLM")])
MODEL_FOR_CAUSAL_LM_MAPPING_NAMES = OrderedDict(
    [
        ("alpha", "AlphaForCausalLM"),
        ("beta", "BetaForCausalLM"),
    ]
)
'''


def _transformers(root):
    """A transformers source: its version, auto mappings, two modeling modules (one of experts) and a modular file
    deriving one model from the other."""
    package = root / "transformers"
    write(package / "__init__.py", '__version__ = "9.9.0"\n')
    write(package / "models" / "auto" / "modeling_auto.py", AUTO.decode())
    write(package / "models" / "alpha" / "modeling_alpha.py",
          "class AlphaSparseMoeBlock:\n    pass\n\n\nclass AlphaForCausalLM:\n    pass\n")
    write(package / "models" / "beta" / "modeling_beta.py", "class BetaForCausalLM:\n    pass\n")
    write(package / "models" / "beta" / "modular_beta.py",
          "from ..alpha import modeling_alpha\nfrom ..alpha.modeling_alpha import AlphaModel\n\n\n"
          "class BetaModel(AlphaModel):\n    pass\n\n\nclass BetaForCausalLM(\n    modeling_alpha.AlphaForCausalLM,"
          " GenerationMixin\n):\n    pass\n")
    return package


def test_the_generator_writes_where_each_architecture_is_looked_up_and_which_build_experts(tmp_path, capsys):
    _transformers(tmp_path / "src")
    host = tmp_path / "transformers.json"
    assert model_type_snapshot.main([str(tmp_path / "src"), "--date", "2026-09-30", "--out",
                                     str(tmp_path / "types.json"), "--host-out", str(host)]) == 0
    snapshot = load_snapshot(LIBRARY, tmp_path)
    # the causal-LM mapping first, wherever else a name is written (`BetaForCausalLM` is under pre-training first)
    assert [(r.registry, [(m.name, m.line) for m in r.names]) for f in snapshot.facts for r in f.registrations] == [
        ("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", [("AlphaForCausalLM", 7), ("BetaForCausalLM", 8)]),
        ("MODEL_MAPPING_NAMES", [("GammaForConditionalGeneration", 3)])]
    assert snapshot.experts == (("AlphaForCausalLM", True), ("BetaForCausalLM", False))
    # registered classes only (`AlphaModel` is no checkpoint's), a base written through its module too
    assert snapshot.lineage == (
        Lineage("BetaForCausalLM", "AlphaForCausalLM", "transformers/models/beta/modular_beta.py", 9),)
    assert snapshot.label == "transformers v9.9.0 of 2026-09-30 (huggingface/transformers)"
    capsys.readouterr()
    with pytest.raises(SystemExit):
        model_type_snapshot.main([str(tmp_path / "src"), "--date", "30.09.2026"])
    assert "--date takes a YYYY-MM-DD date" in capsys.readouterr().err


def test_universe_from_reads_an_installed_transformers_as_the_snapshot_is_written(tmp_path):
    _transformers(tmp_path / "vendor")
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nuniverse-from = ["./vendor/transformers"]\n')
    write(tmp_path / "quant" / "moe.py",
          'EXPERT_LAYERS = {"alpha": "AlphaSparseMoeBlock", "beta": "BetaMLP"}\n\n\n'
          "def experts_of(config):\n    return EXPERT_LAYERS.get(config.model_type)\n")
    document = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json
    assert sorted(r["name"] for r in document["registered"]) == [
        "AlphaForCausalLM", "BetaForCausalLM", "GammaForConditionalGeneration"]
    assert document["universe_from"] == ["transformers"]
    # its lineage too, read as the host's where the project does not hold the source (inside, its edges are its
    # own), where the names say the two are one model's versions: Beta's code is copied from Alpha's, no more
    auto = tmp_path / "vendor" / "transformers" / "models" / "auto" / "modeling_auto.py"
    auto.write_text(auto.read_text() + 'MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES = OrderedDict([("alpha2", '
                    '"Alpha2ForCausalLM")])\n')
    write(tmp_path / "vendor" / "transformers" / "models" / "alpha2" / "modular_alpha2.py",
          "from ..alpha.modeling_alpha import AlphaForCausalLM\n\n\nclass Alpha2ForCausalLM(AlphaForCausalLM):\n"
          "    pass\n")
    write(tmp_path / "outside" / "pyproject.toml", '[tool.archsync]\nuniverse-from = ["../vendor/transformers"]\n')
    write(tmp_path / "outside" / "fuse.py", 'def fused(config):\n    return config.model_type in ("alpha", "gamma")\n')
    evidence = [line for name in ("Alpha2ForCausalLM", "BetaForCausalLM") for line in archsync(
        "why", "fused#1", name, "--no-cache", cwd=tmp_path / "outside").lines if "0.60  subclass" in line]
    assert evidence == ["  0.60  subclass        subclasses 'AlphaForCausalLM' (`class Alpha2ForCausalLM("
                        "AlphaForCausalLM)` at transformers/models/alpha2/modular_alpha2.py:4)"]
    (tmp_path / "vendor" / "transformers" / "models" / "auto" / "modeling_auto.py").write_text("x = (")
    result = archsync("check", "--no-cache", cwd=tmp_path)
    assert "universe-from: " in result.stderr and "holds no readable transformers/models/auto/modeling_auto.py" \
        in result.stderr
