"""A plugin sees the names its host registers, zero-config, from the snapshot archsync ships.

The case itself (a vLLM plugin's list missing a name only vLLM registers) is the fixture
`fixtures/hosts/vllm_plugin`; these tests hold what the fixture cannot: where the snapshot is said
to come from, the host's own tree, a cache that must not outlive the entry points, an unreadable
snapshot, and the generator that writes one.
"""
from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, age_files, archsync, copy_tree, write
from lint_plugin.config.loading import config_from_text
from lint_plugin.frontends import host_snapshot
from lint_plugin.project.hosts import HostList, SnapshotError, declared_hosts, load_snapshot
from lint_plugin.project.universe import read_universe

PLUGIN = FIXTURES / "hosts" / "vllm_plugin"
FINDING = ("tpu_plugin/attention.py:5:1: ARC104 'Gemma3ForCausalLM' is missing from _FUSED_SLIDING_WINDOW_ARCHS, "
           "which holds its sibling 'Gemma3ForConditionalGeneration' ('Gemma3ForCausalLM' is registered by vllm at "
           "vllm/model_executor/models/registry.py:115)")


def test_inventory_says_which_snapshot_the_names_come_from():
    lines = archsync("inventory", "--no-cache", cwd=PLUGIN).lines
    assert f"  read from archsync's snapshot of {load_snapshot('vllm').label}: the project is its plugin (it " \
           "declares the host's entry points or registers into its registry)" in lines
    assert lines[-1] == (
        "hint: the project registers into vllm, outside it: names it serves are registered there, so ARC201 is "
        "off; archsync's snapshot of its names is read, and may be older than the host you run on; "
        '`universe-from = ["vllm"]` reads the installed one (never imported)')


def test_entry_points_declared_in_pyproject_count_too(tmp_path):
    write(tmp_path / "pyproject.toml", '[project.entry-points."vllm.general_plugins"]\nmodels = "p:register"\n')
    assert declared_hosts(tmp_path) == ("vllm",)
    write(tmp_path / "pyproject.toml", '[project.entry-points."flake8.extension"]\nARC = "p:Checker"\n')
    assert declared_hosts(tmp_path) == ()


def test_the_hosts_own_tree_is_no_plugin_of_it(tmp_path):
    """vLLM's own packaging names its plugin groups; its names are its own, not a snapshot's."""
    write(tmp_path / "setup.py", 'GROUPS = ["vllm.general_plugins", "vllm.platform_plugins"]\n')
    write(tmp_path / "vllm" / "__init__.py", "")
    assert declared_hosts(tmp_path) == ()
    assert declared_hosts(tmp_path / "vllm") == ()  # no packaging file there


def test_a_cached_result_does_not_outlive_the_entry_points(tmp_path):
    """A plugin of the platform only (it registers no model into vLLM's registry): vLLM is its host by its entry
    points alone, and the result follows them."""
    root = copy_tree(PLUGIN, tmp_path / "plugin")
    (root / "tpu_plugin" / "__init__.py").write_text('def register_platform() -> str:\n'
                                                     '    return "tpu_plugin.platform.TpuPlatform"\n')
    age_files(root)
    assert archsync("check", cwd=root).lines[:1] == [FINDING]
    assert archsync("check", cwd=root).lines[:1] == [FINDING]  # replayed
    setup = root / "setup.py"
    setup.write_text(setup.read_text().replace("vllm.general_plugins", "other.general").replace(
        "vllm.platform_plugins", "other.platform"))
    assert archsync("check", cwd=root).lines == []


def test_a_project_that_registers_into_the_host_reads_its_snapshot_without_entry_points(tmp_path):
    """`ModelRegistry.register_model(...)` from `vllm` says the project serves vLLM's models, as vLLM-Omni does from
    its own entry point rather than vLLM's plugin groups: the same snapshot is read; a test's registration makes no
    host, nor does the host's own tree."""
    root = copy_tree(PLUGIN, tmp_path / "plugin")
    setup = root / "setup.py"
    setup.write_text(setup.read_text().replace("vllm.general_plugins", "other.general").replace(
        "vllm.platform_plugins", "other.platform"))
    assert archsync("check", "--no-cache", cwd=root).lines == [FINDING]
    registering = root / "tpu_plugin" / "__init__.py"
    (root / "tests").mkdir()
    (root / "tests" / "test_models.py").write_text(registering.read_text())
    registering.write_text('def register_platform() -> str:\n    return "tpu_plugin.platform.TpuPlatform"\n')
    assert archsync("check", "--no-cache", cwd=root).lines == []


def test_a_file_of_a_plugin_that_quotes_only_the_hosts_names_is_read_as_every_file_is(tmp_path):
    """A plugin's own registration (`register_model("KestrelForCausalLM", ...)`) and a test elsewhere of a name only
    the host registers (vllm-ascend's `"Eagle3DeepseekV2ForCausalLM" in model_configs["architectures"]`): the host's
    names choose a file for the prefilter as the project's own do, so `--no-prefilter` sees nothing more."""
    write(tmp_path / "plugin" / "__init__.py",
          "from vllm import ModelRegistry\n\n\ndef register():\n"
          '    ModelRegistry.register_model("KestrelForCausalLM", "plugin.kestrel:KestrelForCausalLM")\n')
    write(tmp_path / "plugin" / "drafter.py",
          "def drafter_is_moe(model_configs):\n"
          '    if "Eagle3DeepseekV2ForCausalLM" in model_configs["architectures"]:\n'
          "        return False\n"
          "    return True\n")
    seen = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json
    every = archsync("inventory", "--format", "json", "--no-cache", "--no-prefilter", cwd=tmp_path).json
    assert [(s["path"], s["name"]) for s in seen["subjects"]] == [("plugin/drafter.py", "drafter_is_moe#1")]
    assert seen == every


def test_a_plugins_test_of_a_piece_of_its_hosts_names_is_read_as_every_file_is(tmp_path):
    """`arch.startswith("Qwen3")` quotes no name: a test of a piece of the host's names chooses its file too, or the
    family it makes would be seen only under `--no-prefilter`."""
    write(tmp_path / "plugin" / "__init__.py",
          "from vllm import ModelRegistry\n\n\ndef register():\n"
          '    ModelRegistry.register_model("KestrelForCausalLM", "plugin.kestrel:KestrelForCausalLM")\n')
    write(tmp_path / "plugin" / "family.py", 'def is_qwen3(arch):\n    return arch.startswith("Qwen3")\n')
    seen = archsync("inventory", "--format", "json", "--no-cache", cwd=tmp_path).json
    every = archsync("inventory", "--format", "json", "--no-cache", "--no-prefilter", cwd=tmp_path).json
    assert [f["name"] for f in seen["families"]] == ["is_qwen3"]
    assert seen == every


def test_an_unreadable_snapshot_is_a_clear_error(tmp_path):
    write(tmp_path / "vllm.json", '{"format": 1, "host": "vllm", "files": [["x.py"]]}')
    with pytest.raises(SnapshotError, match=r"archsync's snapshot of vllm \(.*vllm\.json\) cannot be read \(.*"
                                            r"\); the names vllm registers count as unknown"):
        load_snapshot("vllm", tmp_path)
    write(tmp_path / "vllm.json", "{not json")
    with pytest.raises(SnapshotError):
        load_snapshot("vllm", tmp_path)


def test_the_generator_writes_what_universe_from_reads(tmp_path, capsys):
    host = tmp_path / "host"
    write(host / "enginex" / "__init__.py", "")
    write(host / "enginex" / "models" / "__init__.py", "")
    write(host / "enginex" / "models" / "registry.py",
          '_MODELS = {\n    "AlphaForCausalLM": ("alpha", "AlphaForCausalLM"),\n'
          '    "BetaForCausalLM": ("alpha", "AlphaForCausalLM"),\n'
          '    "GammaForCausalLM": ("alpha", "AlphaForCausalLM"),\n}\n\n\n'
          'class ModelRegistry:\n    models = _MODELS\n')
    write(host / "enginex" / "models" / "backbone.py",  # keyed by model type: the scheme is kept (format 3)
          "def build_backbone(config):\n"
          "    model_type = config.vision_config.model_type\n"
          '    if model_type == "siglip_vision_model":\n'
          "        return SiglipVisionModel(config.vision_config)\n"
          '    elif model_type == "clip_vision_model":\n'
          "        return CLIPVisionModel(config.vision_config)\n"
          '    raise ValueError(model_type)\n')
    write(host / "enginex" / "attention.py",  # a list of three: kept; of two: too few to tell a copy of it
          '_FAST_ARCHS = ["AlphaForCausalLM", "BetaForCausalLM", "GammaForCausalLM"]\n'
          '_SLOW_ARCHS = ["AlphaForCausalLM", "BetaForCausalLM"]\n')
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    assert host_snapshot.main(["enginex", str(host), "--repository", "example/enginex", "--commit", "0123abc",
                               "--date", "2026-11-30", "--out", str(snapshots / "enginex.json")]) == 0
    assert capsys.readouterr().out == (f"wrote {snapshots / 'enginex.json'}: 5 registrations in 2 files and 1 "
                                       "lists of enginex 0123abc of 2026-11-30 (example/enginex)\n")
    snapshot = load_snapshot("enginex", snapshots)
    assert snapshot.lists == (HostList("enginex/attention.py", "_FAST_ARCHS", 1,
                                       ("AlphaForCausalLM", "BetaForCausalLM", "GammaForCausalLM")),)
    installed = read_universe(config_from_text(host, '[tool.archsync]\nuniverse-from = ["./enginex"]\n'))
    assert snapshot.facts == installed.facts
    assert [[f[0], [r[-1] for r in f[2]]] for f in json.loads((snapshots / "enginex.json").read_text())["files"]] == [
        ["enginex/models/backbone.py", ["model-type"]],
        ["enginex/models/registry.py", [["alpha:AlphaForCausalLM"] * 3]]]
    write(tmp_path / "plugin" / "setup.py", 'setup(entry_points={"enginex.general_plugins": ["p = p:r"]})\n')
    assert declared_hosts(tmp_path / "plugin", snapshots) == ("enginex",)


def test_a_snapshot_of_the_first_format_holds_no_lists(tmp_path):
    write(tmp_path / "enginex.json", json.dumps({
        "format": 1, "host": "enginex", "repository": "example/enginex", "commit": "0123abc", "date": "2026-11-30",
        "files": [["enginex/registry.py", "enginex.registry", [["_MODELS", [["AlphaForCausalLM", 1, 13]], []]]]]}))
    snapshot = load_snapshot("enginex", tmp_path)
    assert [m.name for f in snapshot.facts for r in f.registrations for m in r.names] == ["AlphaForCausalLM"]
    assert snapshot.lists == ()


def test_the_generator_says_why_it_cannot_write(tmp_path, capsys):
    host = tmp_path / "host"
    write(host / "enginex" / "__init__.py", "")
    write(host / "enginex" / "registry.py", '_MODELS = {"AlphaForCausalLM": ("alpha", "AlphaForCausalLM")}\n')
    with pytest.raises(SystemExit) as exited:
        host_snapshot.main(["enginex", str(host), "--repository", "example/enginex", "--commit", "0123abc",
                            "--date", "2026-11-30", "--out", str(tmp_path / "missing" / "enginex.json")])
    assert exited.value.code == 2
    assert capsys.readouterr().err == (f"python -m lint_plugin.frontends.host_snapshot: error: cannot write "
                                       f"{tmp_path / 'missing' / 'enginex.json'}: No such file or directory\n")


def test_sglang_plugin_entry_points_name_sglang_as_the_host(tmp_path):
    write(tmp_path / "pyproject.toml", '[project.entry-points."sglang.srt.plugins"]\nk = "p.sglang:register"\n'
                                       '[project.entry-points."sglang.srt.platforms"]\nk = "p.platform:activate"\n')
    assert declared_hosts(tmp_path) == ("sglang",)
    write(tmp_path / "pyproject.toml", '[project.entry-points."vllm.general_plugins"]\nk = "p.vllm:register"\n'
                                       '[project.entry-points."sglang.srt.plugins"]\nk = "p.sglang:register"\n')
    assert declared_hosts(tmp_path) == ("vllm", "sglang")


TWO_HOSTS = FIXTURES / "hosts" / "two_hosts"


def test_a_list_of_a_plugin_of_two_hosts_is_not_told_of_names_only_the_other_host_registers():
    """The case is `fixtures/hosts/two_hosts`; `why` says why the vLLM side is quiet."""
    lines = archsync("why", "--no-cache", "FUSED_ARCHS", "Qwen3_5ForCausalLM", "rocket/plugin/vllm",
                     cwd=TWO_HOSTS).lines
    assert lines[0].startswith("FUSED_ARCHS at rocket/plugin/sglang/register.py:2:1 holds 4 registered names")
    assert lines[2] == "serves, of the hosts vllm, sglang: sglang"
    assert "serves, of the hosts vllm, sglang: vllm" in lines
    assert "ARC105 stays quiet: only sglang registers it, a host the subject does not serve" in lines


def test_the_generator_keeps_what_is_under_the_path_it_is_given(tmp_path, capsys):
    host = tmp_path / "host"
    write(host / "enginex" / "__init__.py", "")
    write(host / "enginex" / "srt" / "models" / "alpha.py", "class AlphaForCausalLM: pass\n\n\n"
                                                          "EntryClass = [AlphaForCausalLM]\n")
    write(host / "enginex" / "diffusion" / "registry.py",  # another registry, of other models
          '_MODELS = {"BetaPipeline": ("beta", "BetaPipeline"), "GammaDiT": ("gamma", "GammaDiT")}\n')
    out = tmp_path / "enginex.json"
    assert host_snapshot.main(["enginex", str(host), "--repository", "example/enginex", "--commit", "0123abc",
                               "--date", "2026-11-30", "--under", "enginex/srt", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: 1 registrations in 1 files and 0 lists")
    assert [f.path for f in load_snapshot("enginex", tmp_path).facts] == ["enginex/srt/models/alpha.py"]
    with pytest.raises(SystemExit) as exited:
        host_snapshot.main(["enginex", str(host), "--repository", "example/enginex", "--commit", "0123abc",
                            "--date", "2026-11-30", "--under", "elsewhere", "--out", str(out)])
    assert exited.value.code == 2
    assert "--under takes a directory of the enginex package" in capsys.readouterr().err


def test_the_hint_says_a_snapshot_is_read_only_of_a_host_archsync_ships_one_of(tmp_path):
    write(tmp_path / "setup.py", 'setup(entry_points={"vllm.general_plugins": ["p = p.models:register"]})\n')
    write(tmp_path / "p" / "__init__.py", "")
    write(tmp_path / "p" / "models.py",
          "from rtp_llm.model_factory_register import register_model\n"
          "from vllm import ModelRegistry\n\n\n"
          "def register():\n"
          '    ModelRegistry.register_model("KestrelForCausalLM", "p.kestrel:KestrelForCausalLM")\n'
          '    register_model("KestrelForCausalLM", "p.kestrel:KestrelForCausalLM")\n')
    assert archsync("inventory", "--no-cache", cwd=tmp_path).lines[-2] == (
        "hint: the project registers into rtp_llm.model_factory_register, vllm, outside it: names it serves are "
        "registered there, so ARC201 is off; archsync's snapshot of vllm's names is read, and may be older than "
        'the host you run on; `universe-from = ["rtp_llm", "vllm"]` reads them (never imported)')
