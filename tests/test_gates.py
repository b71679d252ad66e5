"""Which tests sit where only another list's names reach them (`extract/gates.py`): the facts extraction
records, each form shown by the source it reads."""
from __future__ import annotations

import pytest

from lint_plugin.config import DEFAULT_NAME_PATTERN
from lint_plugin.extract.from_bytes import extract_file

_A, _B = '"AlphaForCausalLM"', '"BetaForCausalLM"'


def _gates(body: str):
    source = "TABLE = {}\n\n\ndef f(config, archs, flag):\n    arch = config.architectures[0]\n" + body
    return extract_file(source.encode(), "pkg/m.py", "pkg.m", [], False, DEFAULT_NAME_PATTERN).gates


@pytest.mark.parametrize("body, gates", [
    (f"    if arch in TABLE:\n        return arch in [{_A}, {_B}]\n", (("f#1", "=TABLE"),)),
    (f"    if arch in TABLE.keys() and flag:\n        return arch in [{_A}, {_B}]\n", (("f#1", "=TABLE"),)),
    (f"    if arch in [{_A}, {_B}]:\n        if arch == {_A}:\n            return 1\n", (("f#2", "f#1"),)),
    (f"    if not (arch in TABLE) or flag:\n        raise ValueError(arch)\n    return arch in [{_A}, {_B}]\n",
     (("f#1", "=TABLE"),)),
    (f"    assert arch in TABLE, arch\n    return arch in [{_A}, {_B}]\n", (("f#1", "=TABLE"),)),
    (f"    if arch not in TABLE:\n        return 0\n    elif arch in [{_A}, {_B}]:\n        return 1\n",
     (("f#1", "=TABLE"),)),
    (f"    return arch in TABLE and arch in [{_A}, {_B}]\n", (("f#1", "=TABLE"),)),
    (f"    return arch not in TABLE or arch not in [{_A}, {_B}]\n", (("f#1", "=TABLE"),)),
    (f"    return arch in [{_A}, {_B}] and arch in TABLE\n", ()),
    (f"    for arch in archs:\n        if arch not in TABLE:\n            continue\n"
     f"        if arch in [{_A}, {_B}]:\n            return 1\n", (("f#1", "=TABLE"),)),
    (f"    if config.architectures[0] in TABLE:\n        return config.architectures[0] in [{_A}, {_B}]\n",
     (("f#1", "=TABLE"),)),
    (f"    if arch in TABLE:\n        if flag:\n            return {_A} in config.architectures\n", ()),
    (f"    if arch in TABLE:\n        return 1\n    elif arch in [{_A}, {_B}]:\n        return 2\n", ()),
    (f"    if arch in TABLE:\n        return 1\n    else:\n        return arch in [{_A}, {_B}]\n", ()),
    (f"    if arch not in TABLE:\n        print(arch)\n    return arch in [{_A}, {_B}]\n", ()),
    (f"    if arch not in TABLE:\n        return 0\n    arch = config.text_config.architectures[0]\n"
     f"    return arch in [{_A}, {_B}]\n", ()),
    (f"    if flag in TABLE:\n        return arch in [{_A}, {_B}]\n", ()),
    (f"    if arch in TABLE:\n        def inner(arch):\n            return arch in [{_A}, {_B}]\n"
     "        return inner\n", ()),
    (f"    if arch in [{_A}, {_B}] or flag:\n        if arch == {_A}:\n            return 1\n", (("f#2", "~f#1"),)),
    (f"    if flag or arch in TABLE:\n        return arch in [{_A}, {_B}]\n", (("f#1", "~=TABLE"),)),
], ids=["branch", "keys-and", "literal-gate", "not-or-raise", "assert", "elif-of-negative", "and-term", "or-term",
        "before-the-gate", "continue", "same-subscript",
        "other-value-read", "elif", "else", "no-exit", "bound-again", "other-value", "nested-function",
        "loose-literal", "loose-name"])
def test_a_test_is_gated_by_the_lists_every_value_reaching_it_is_in(body, gates):
    assert _gates(body) == gates
