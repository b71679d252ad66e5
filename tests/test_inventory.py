"""`archsync inventory` says what archsync saw, and what to set when it saw too little."""
from __future__ import annotations

from conftest import EXIT_CLEAN, FIXTURES, archsync, write

FOV = FIXTURES / "fov"


def test_json_lists_every_registry_shape_with_its_names():
    result = archsync("inventory", "--format", "json", "--no-cache", cwd=FOV / "registries")
    assert result.returncode == EXIT_CLEAN, result
    document = result.json
    assert document["version"] == 1
    assert document["registries"] == [
        {"path": "serve/models/delta.py", "name": "@register_auto_model", "shape": "decorator", "names": 2},
        {"path": "serve/models/delta.py", "name": "@register_models", "shape": "decorator", "names": 2},
        {"path": "serve/registry/plugins.py", "name": "_LOADERS", "shape": "dict", "names": 2},
        {"path": "serve/registry/plugins.py", "name": "register_model()", "shape": "call", "names": 1},
        {"path": "serve/registry/tables.py", "name": "MODULE_MAP", "shape": "dict", "names": 2},
        {"path": "serve/registry/tables.py", "name": "_MULTIMODAL_MODELS", "shape": "dict", "names": 1},
        {"path": "serve/registry/tables.py", "name": "_TEXT_MODELS", "shape": "dict", "names": 3},
    ]
    assert [r["name"] for r in document["registered"]] == [
        "AlphaForCausalLM", "AlphaLegacyForCausalLM", "AlphaMoeForCausalLM", "AlphaVLForConditionalGeneration",
        "BravoForCausalLM", "BravoMoeForCausalLM", "CharlieForCausalLM", "CharlieMoeForCausalLM",
        "DeltaChatForCausalLM", "DeltaForCausalLM", "DeltaMoeChatForCausalLM", "DeltaMoeForCausalLM"]
    # the class each name runs, where the registration writes it
    assert document["registered"][1] == {"name": "AlphaLegacyForCausalLM", "path": "serve/registry/tables.py",
                                         "line": 8, "registry": "_TEXT_MODELS",
                                         "implementation": "alpha:AlphaForCausalLM"}
    assert document["subjects"] == [{"name": "SPEC_DECODE_ARCHS", "path": "serve/config/features.py", "line": 4,
                                     "scope": "module", "declared": True, "names": 5, "partly_analysed": False}]
    assert [(f["name"], f["kind"]) for f in document["families"]] == [
        ("is_alpha", "lineage"), ("is_bravo", "lineage"), ("is_charlie", "lineage"), ("is_delta", "lineage")]
    assert document["external_registries"] == [] and document["universe_from"] == [] and document["hints"] == []


def test_text_names_each_subject_by_where_it_is():
    result = archsync("inventory", "--no-cache", cwd=FOV / "subjects")
    assert result.returncode == EXIT_CLEAN, result
    assert [line for line in result.lines if line.startswith("Subjects")] == [
        "Subjects: 15 (2 declared, 13 found by shape; 1 class, 1 decorator, 9 inline, 2 local, 2 module)"]
    assert "  engine/runtime/choices.py:25: keeps_conv_state.conv_state_archs [local, 2 names] (by shape)" \
        in result.lines


def test_a_plugin_is_told_to_read_its_universe():
    result = archsync("inventory", "--no-cache", cwd=FOV / "plugin")
    assert result.lines[-1] == (
        'hint: the project registers into upstream, outside it: names it serves are registered there, so ARC201 '
        'is off; `universe-from = ["upstream"]` reads them (never imported)')
    assert "  read from the installed upstream (universe-from)" in archsync(
        "inventory", "--no-cache", cwd=FOV / "universe" / "plugin").lines


def test_a_project_where_nothing_is_registered_is_told_what_to_set(tmp_path):
    write(tmp_path / "pyproject.toml", "")
    write(tmp_path / "engine.py", 'def pick(arch):\n    return arch in ("qwen2", "llama")\n')
    result = archsync("inventory", "--no-cache", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.lines == [
        "Registered architectures: 0",
        "Subjects: 0 (0 declared, 0 found by shape)",
        "Families: 0",
        'hint: nothing is registered: no `EntryClass`, registry dict, registration call or registering decorator '
        'was found; name the registry with `registries = ["NAME"]` (or `"path/to/module.py::NAME"`, '
        '`"@decorator"`), so unknown names and families can be checked',
        'hint: no subject found: no `*_ARCHS` collection and no list, test or decorator holding a registered name; '
        'name the collections to check with `guard = ["GLOB"]`',
    ]


def test_universe_from_a_package_that_cannot_be_found_is_a_warning(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nuniverse-from = ["no_such_engine"]\n')
    write(tmp_path / "x.py", "X = 1\n")
    result = archsync("check", "--no-cache", cwd=tmp_path)
    assert result.returncode == EXIT_CLEAN, result
    assert result.warnings == [
        "archsync: warning: universe-from: package 'no_such_engine' not found on this interpreter's path or in the "
        "project's virtual environment; names it registers count as unknown"]


def test_universe_from_the_projects_own_virtual_environment(tmp_path):
    site = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "engine"
    write(tmp_path / ".venv" / "pyvenv.cfg", "home = /usr/bin\n")
    write(site / "__init__.py", "")
    write(site / "registry.py", '_MODELS = {"KiloForCausalLM": ("kilo", "KiloForCausalLM")}\n')
    write(tmp_path / "pyproject.toml", '[tool.archsync]\nuniverse-from = ["engine"]\n')
    write(tmp_path / "plugin.py", 'from engine import ModelRegistry\n\n\ndef register():\n'
                                  '    ModelRegistry.register_model("LimaForCausalLM", "plugin:Lima")\n')
    write(tmp_path / "lists.py", 'PLUGIN_ARCHS = ["LimaForCausalLM", "KiloForCasualLM"]\n')
    result = archsync("check", "--no-cache", cwd=tmp_path)
    assert result.lines == [
        "lists.py:1:36: ARC201 'KiloForCasualLM' in PLUGIN_ARCHS is not a registered architecture; "
        "did you mean 'KiloForCausalLM'?"], result


def test_a_newline_in_a_file_name_cannot_forge_an_inventory_line(tmp_path):
    root = tmp_path / "proj"
    write(root / "pyproject.toml", '[project]\nname = "x"\n')
    write(root / "a\nb/m.py", "class AForCausalLM:\n    pass\n\n\nEntryClass = [AForCausalLM]\n")
    write(root / "t.py", 'X_ARCHS = ["AForCausalLM"]\n')
    result = archsync("inventory", cwd=root)
    assert result.lines[:2] == ["Registered architectures: 1", "  a\\x0ab/m.py: EntryClass (statement, 1 name)"], result
