"""The new-model replay's reverted file: only the lines that added the case's names go back to the parent's."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.history.new_model import reverted  # noqa: E402
from bench.history.sweep import registered_keys, registered_strings  # noqa: E402

PARENT = '''from .kestrel import KestrelForCausalLM

MLA_ARCHS = [
    "KestrelForCausalLM",
]


def uses_mla(arch):
    return arch in ["KestrelForCausalLM"]
'''

FIX = '''from .kestrel import KestrelForCausalLM, KestrelV2ForCausalLM

MLA_ARCHS = [
    "KestrelForCausalLM",
    "KestrelV2ForCausalLM",
]


def uses_mla(arch):
    return arch in ["KestrelForCausalLM", "KestrelV2ForCausalLM"]
'''


def test_the_lines_that_quote_a_new_name_go_back_and_the_rest_of_the_commit_stays():
    assert reverted(PARENT, FIX, ["KestrelV2ForCausalLM"]) == '''\
from .kestrel import KestrelForCausalLM, KestrelV2ForCausalLM

MLA_ARCHS = [
    "KestrelForCausalLM",
]


def uses_mla(arch):
    return arch in ["KestrelForCausalLM"]
'''


def test_a_line_that_quoted_the_name_already_is_kept():
    parent = PARENT.replace('["KestrelForCausalLM"]', "['KestrelV2ForCausalLM', 'KestrelForCausalLM']")
    fix = FIX.replace('["KestrelForCausalLM", "KestrelV2ForCausalLM"]',
                      "('KestrelV2ForCausalLM', 'KestrelForCausalLM')")
    assert reverted(parent, fix, ["KestrelV2ForCausalLM"]).endswith(
        "    return arch in ('KestrelV2ForCausalLM', 'KestrelForCausalLM')\n")


def test_nothing_to_revert_or_a_text_that_does_not_parse_is_none():
    assert reverted(PARENT, FIX, ["MagpieForCausalLM"]) is None
    # the run that quotes the name goes back, the run that opened its bracket stays: no text to replay
    opened = 'X = (\n    1,\n    "KestrelV2ForCausalLM")\n'
    assert reverted("X = [\n    1,\n]\n", opened, ["KestrelV2ForCausalLM"]) is None


def test_the_sweep_takes_the_keys_a_registry_diff_adds_and_not_those_it_moves():
    diff = ('@@ -10,6 +10,8 @@\n     "KestrelForCausalLM": ("kestrel", "KestrelForCausalLM"),\n'
            '+    "KestrelV2ForCausalLM": ("kestrel", "KestrelV2ForCausalLM"),\n'
            "+    'MagpieForCausalLM': ('magpie', 'MagpieForCausalLM'),\n"
            '-    "WrenForCausalLM": ("wren", "WrenForCausalLM"),\n'
            '+    "WrenForCausalLM": ("wren2", "WrenForCausalLM"),\n'
            '+    # "FinchForCausalLM": ("finch", "FinchForCausalLM"),\n')
    assert registered_keys(diff) == ["KestrelV2ForCausalLM", "MagpieForCausalLM"]


def test_the_sweep_reads_a_plugins_registrations_by_the_names_its_file_gains():
    """A call spanning lines (`register_model(\n    "X",\n    "pkg.mod:Cls")`) or a subscript store: the diff
    line of the name says neither, so the names the file holds after the commit and not before are what it adds."""
    before = ('def register():\n    ModelRegistry.register_model("KestrelForCausalLM", "plugin.kestrel:Kestrel")\n')
    after = before + ('    ModelRegistry.register_model(\n        "MagpieForCausalLM",\n'
                      '        "plugin.magpie:MagpieForCausalLM",\n    )\n    _MODELS["WrenForCausalLM"] = Wren\n')
    assert registered_strings(before, after) == ["MagpieForCausalLM", "WrenForCausalLM"]
