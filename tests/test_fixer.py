"""The byte-safe editing core of `archsync fix`: each literal form and layout, exact bytes.

Every case also checks that the reported TextEdits, applied to the original text, give
exactly the new file, and that applying the same requests again changes nothing.
"""
from __future__ import annotations

import ast
import dataclasses
import io
import random
import re
import textwrap
import tokenize
from typing import Optional, Sequence

import pytest

from lint_plugin.diagnostics import FixRequest
from lint_plugin.fix.editor import FixResult, TextEdit, add_member, apply_fixes
from lint_plugin.fix.editor.edits import compose, splice, touch


def AddMember(collection, line, name, peers=()):
    return FixRequest("add", "f.py", collection, line, name, tuple(peers))


def RemoveMember(line, column, name):
    return FixRequest("remove", "f.py", "", line, name, (), column)

_NEWLINE = re.compile(r"\r\n?|\n")


def apply_text_edits(source: bytes, edits: Sequence[TextEdit]) -> bytes:
    """Apply LSP-style edits (1-based lines and character columns of the decoded text)."""
    encoding = tokenize.detect_encoding(io.BytesIO(source).readline)[0]
    text = source.decode(encoding)
    starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    spans = sorted(((offset(e.start_line, e.start_column), offset(e.end_line, e.end_column), e.new_text)
                    for e in edits), reverse=True)
    for start, end, new in spans:
        assert 0 <= start <= end <= len(text)
        text = text[:start] + new + text[end:]
    return text.encode(encoding)


def src(text: str, newline: str = "\n") -> bytes:
    return textwrap.dedent(text).lstrip("\n").replace("\n", newline).encode()


def shifted(request, edits: Sequence[TextEdit]):
    """The request with its line moved past the lines the edits inserted or deleted above it."""
    delta = 0
    for edit in edits:
        if (edit.end_line, edit.end_column) <= (request.line, getattr(request, "column", 1)):
            delta += len(_NEWLINE.findall(edit.new_text)) - (edit.end_line - edit.start_line)
    return dataclasses.replace(request, line=request.line + delta)


def check(source: bytes, requests: Sequence[object], expected: bytes,
          refused: Optional[Sequence[str]] = None) -> FixResult:
    """The fix gives exactly `expected`, its edits reproduce it, and a second run is a no-op."""
    result = apply_fixes(source, requests)
    assert result.source == expected, result.source.decode("utf-8", "replace")
    assert apply_text_edits(source, result.edits) == expected
    assert [r.reason for r in result.refused] == list(refused or [])
    if expected != source:
        ast.parse(expected)
        assert result.applied
    else:
        assert result.applied == () and result.edits == ()
    refused_requests = {x.request for x in result.refused}
    again = apply_fixes(expected, [shifted(r, result.edits) for r in requests if r not in refused_requests])
    assert again.source == expected and again.applied == () and again.edits == ()
    assert again.refused == ()
    return result


# -- sets, frozensets, lists, tuples: one name per line ---------------------------------------

SGLANG = src('''
    _MAMBA_EXTRA_BUFFER_ARCHS = frozenset(
        {
            # Keep in sync with supports_mamba_cache_extra_buffer() below.
            "Qwen3NextForCausalLM",
            "Qwen3_5ForConditionalGeneration",  # the VL one
            "Qwen3_5MoeForConditionalGeneration",
            "KimiLinearForCausalLM",
        }
    )
''')


def test_frozenset_one_per_line_after_peer_keeps_the_peer_comment():
    requests = [
        AddMember("_MAMBA_EXTRA_BUFFER_ARCHS", 1, "Qwen3_5ForCausalLM", ("Qwen3_5ForConditionalGeneration",)),
        AddMember("_MAMBA_EXTRA_BUFFER_ARCHS", 1, "Qwen3_5MoeForCausalLM",
                  ("NotThere", "Qwen3_5MoeForConditionalGeneration")),
    ]
    result = check(SGLANG, requests, src('''
        _MAMBA_EXTRA_BUFFER_ARCHS = frozenset(
            {
                # Keep in sync with supports_mamba_cache_extra_buffer() below.
                "Qwen3NextForCausalLM",
                "Qwen3_5ForConditionalGeneration",  # the VL one
                "Qwen3_5ForCausalLM",
                "Qwen3_5MoeForConditionalGeneration",
                "Qwen3_5MoeForCausalLM",
                "KimiLinearForCausalLM",
            }
        )
    '''))
    assert result.applied == tuple(requests)
    assert result.edits == (
        TextEdit(6, 1, 6, 1, '        "Qwen3_5ForCausalLM",\n'),
        TextEdit(7, 1, 7, 1, '        "Qwen3_5MoeForCausalLM",\n'),
    )


def test_unsorted_without_peer_goes_at_the_end():
    check(SGLANG, [AddMember("_MAMBA_EXTRA_BUFFER_ARCHS", 1, "AaaForCausalLM")], src('''
        _MAMBA_EXTRA_BUFFER_ARCHS = frozenset(
            {
                # Keep in sync with supports_mamba_cache_extra_buffer() below.
                "Qwen3NextForCausalLM",
                "Qwen3_5ForConditionalGeneration",  # the VL one
                "Qwen3_5MoeForConditionalGeneration",
                "KimiLinearForCausalLM",
                "AaaForCausalLM",
            }
        )
    '''))


def test_sorted_list_gets_sorted_position_without_trailing_comma():
    source = src('''
        ARCHS = [
            "Alpha",
            "Beta",  # b
            "Delta"
        ]
    ''')
    check(source, [AddMember("ARCHS", 1, "Gamma"), AddMember("ARCHS", 1, "Zeta"), AddMember("ARCHS", 1, "Aardvark")],
          src('''
        ARCHS = [
            "Aardvark",
            "Alpha",
            "Beta",  # b
            "Delta",
            "Gamma",
            "Zeta"
        ]
    '''))


def test_sorted_case_insensitively():
    source = src('ARCHS = {"alpha", "Beta", "gamma"}\n')
    check(source, [AddMember("ARCHS", 1, "Delta")], src('ARCHS = {"alpha", "Beta", "Delta", "gamma"}\n'))


def test_last_element_without_trailing_comma_and_with_comment():
    source = src('''
        X = (
            "A",
            "B"  # last
        )
    ''')
    check(source, [AddMember("X", 1, "C", ("B",))], src('''
        X = (
            "A",
            "B",  # last
            "C"
        )
    '''))


def test_hanging_closing_bracket():
    source = src('''
        X = {"Zed",
             "Alpha"}
        Y = ["Zed",
             "Alpha",]
    ''')
    check(source, [AddMember("X", 1, "New"), AddMember("Y", 3, "New")], src('''
        X = {"Zed",
             "Alpha",
             "New"}
        Y = ["Zed",
             "Alpha",
             "New",]
    '''))


def test_mixed_layout_stays_on_the_peer_line():
    source = src('''
        X = {"A", "B",
             "C", "D"}
    ''')
    check(source, [AddMember("X", 1, "B2", ("B",)), AddMember("X", 1, "A2", ("A",))], src('''
        X = {"A", "A2", "B", "B2",
             "C", "D"}
    '''))


def test_tabs_and_comment_lines_inside_the_literal():
    source = b'X = [\n\t"Zed",\n\t# the second group\n\t"Alpha",\n]\n'
    check(source, [AddMember("X", 1, "Zed2", ("Zed",))],
          b'X = [\n\t"Zed",\n\t"Zed2",\n\t# the second group\n\t"Alpha",\n]\n')


# -- single line ------------------------------------------------------------------------------

@pytest.mark.parametrize("before, after", [
    ('X = ("A", "B")\n', 'X = ("A", "B", "C")\n'),
    ('X = ("A", "B",)\n', 'X = ("A", "B", "C",)\n'),
    ('X = ("A",)\n', 'X = ("A", "C",)\n'),
    ('X = ["B", "A"]\n', 'X = ["B", "A", "C"]\n'),
    ('X = {"A","B"}\n', 'X = {"A","B","C"}\n'),
    ("X = {'A', 'B'}\n", "X = {'A', 'B', 'C'}\n"),
    ("X = [u'A', u'B']\n", "X = [u'A', u'B', u'C']\n"),
    ('X = "A", "B"\n', 'X = "A", "B", "C"\n'),
    ('X = "A",\n', 'X = "A", "C",\n'),
    ('X = frozenset(["A", "B"])\n', 'X = frozenset(["A", "B", "C"])\n'),
    ('X = set(("A", "B"))\n', 'X = set(("A", "B", "C"))\n'),
    ('X = tuple(sorted({"A", "B"}))\n', 'X = tuple(sorted({"A", "B", "C"}))\n'),
    ('X = list()\n', 'X = list(["C"])\n'),
    ('X = frozenset()\n', 'X = frozenset({"C"})\n'),
    ('X = tuple()\n', 'X = tuple(("C",))\n'),
    ('X = ()\n', 'X = ("C",)\n'),
    ('X = []\n', 'X = ["C"]\n'),
    ('X: FrozenSet[str] = frozenset({"A"})\n', 'X: FrozenSet[str] = frozenset({"A", "C"})\n'),
    ('X = (("A", "B"))\n', 'X = (("A", "B", "C"))\n'),
])
def test_single_line_append(before, after):
    check(before.encode(), [AddMember("X", 1, "C")], after.encode())


@pytest.mark.parametrize("before, after", [
    ('X = ("A", "B")\n', 'X = ("A", "New", "B")\n'),
    ("X = ['A','B']\n", "X = ['A','New','B']\n"),
    ("X = {r'A', r'B'}\n", "X = {r'A', r'New', r'B'}\n"),
    ('X = {"""A""", "B"}\n', 'X = {"""A""", """New""", "B"}\n'),
])
def test_single_line_after_peer(before, after):
    check(before.encode(), [AddMember("X", 1, "New", ("A",))], after.encode())


def test_quote_style_of_the_peer_and_names_needing_escapes():
    check(b"X = ['A', \"B\"]\n", [AddMember("X", 1, "C", ("B",))], b"X = ['A', \"B\", \"C\"]\n")
    check(b"X = ['A']\n", [AddMember("X", 1, "it's")], b"X = ['A', \"it's\"]\n")
    check(b"X = [r'A']\n", [AddMember("X", 1, "a\\b")], b"X = [r'A', r'a\\b']\n")  # raw keeps it
    check(b"X = ['A']\n", [AddMember("X", 1, "a\\b")], b"X = ['A', 'a\\\\b']\n")


def test_union_and_concatenation_edit_the_literal_part():
    source = src('''
        from base import BASE
        X = BASE | {"A", "B"}
        Y = BASE + [
            "A",
        ]
        Z = {"A"} | BASE | {"Q", "R"}
        W = BASE.union({"A"})
    ''')
    check(source, [AddMember("X", 2, "C"), AddMember("Y", 3, "C"), AddMember("Z", 6, "B", ("A",)),
                   AddMember("Z", 6, "S"), AddMember("W", 7, "B")], src('''
        from base import BASE
        X = BASE | {"A", "B", "C"}
        Y = BASE + [
            "A",
            "C",
        ]
        Z = {"A", "B"} | BASE | {"Q", "R", "S"}
        W = BASE.union({"A", "B"})
    '''))


def test_name_already_present_is_a_no_op():
    source = src('X = BASE | {"A", "B"}\nY = {"A"} | {"B"}\n')
    check(source, [AddMember("X", 1, "B"), AddMember("Y", 2, "A", ("B",)), AddMember("Y", 2, "B")], source)


def test_peer_in_the_later_part_wins_over_the_last_part():
    check(b'X = {"A"} | {"B"}\n', [AddMember("X", 1, "A2", ("A",))], b'X = {"A", "A2"} | {"B"}\n')


# -- dicts --------------------------------------------------------------------------------------

DICT = src('''
    import torch
    DTYPES = {
        "LlamaForCausalLM": torch.float16,  # default
        "GemmaForCausalLM": DEFAULT,
        "Other": make(1),
        "Neg": -1,
    }
''')


def test_dict_copies_the_peer_value():
    check(DICT, [AddMember("DTYPES", 2, "Llama4ForCausalLM", ("LlamaForCausalLM",)),
                 AddMember("DTYPES", 2, "Gemma2ForCausalLM", ("GemmaForCausalLM",)),
                 AddMember("DTYPES", 2, "Neg2", ("Neg",))], src('''
        import torch
        DTYPES = {
            "LlamaForCausalLM": torch.float16,  # default
            "Llama4ForCausalLM": torch.float16,
            "GemmaForCausalLM": DEFAULT,
            "Gemma2ForCausalLM": DEFAULT,
            "Other": make(1),
            "Neg": -1,
            "Neg2": -1,
        }
    '''))


def test_dict_single_line_keeps_the_colon_spacing():
    check(b"D = {'A' : 1, 'B' : 2}\n", [AddMember("D", 1, "A2", ("A",))], b"D = {'A' : 1, 'A2' : 1, 'B' : 2}\n")


def test_dict_refusals():
    result = check(DICT, [AddMember("DTYPES", 2, "NewForCausalLM"),
                          AddMember("DTYPES", 2, "Other2", ("Other",))], DICT, refused=[
        "DTYPES maps names to values, and with no peer entry to copy archsync cannot tell what "
        "'NewForCausalLM' should map to",
        "DTYPES: the value of 'Other' is not a simple name, attribute or constant, so archsync cannot "
        "derive the value for 'Other2'",
    ])
    assert result.source is DICT


def test_dict_keyword_call():
    source = src('''
        MAP = dict(
            LlamaForCausalLM=Llama,
            GemmaForCausalLM = Gemma,
        )
        ONE = dict(A=1, **EXTRA)
    ''')
    check(source, [AddMember("MAP", 1, "Gemma2ForCausalLM", ("GemmaForCausalLM",)),
                   AddMember("ONE", 5, "B", ("A",))], src('''
        MAP = dict(
            LlamaForCausalLM=Llama,
            GemmaForCausalLM = Gemma,
            Gemma2ForCausalLM = Gemma,
        )
        ONE = dict(A=1, B=1, **EXTRA)
    '''))
    check(source, [AddMember("MAP", 1, "Not-An-Identifier", ("GemmaForCausalLM",)),
                   AddMember("MAP", 1, "class", ("GemmaForCausalLM",))], source, refused=[
        "'Not-An-Identifier' is not a valid keyword argument for the dict(...) call of MAP",
        "'class' is not a valid keyword argument for the dict(...) call of MAP",
    ])


def test_dict_call_of_a_dict_literal_and_keywords():
    check(b'M = dict({"A": 1})\n', [AddMember("M", 1, "B", ("A",))], b'M = dict({"A": 1, "B": 1})\n')
    check(b'M = dict({"A": 1}, C=X.y)\n', [AddMember("M", 1, "B", ("A",)), AddMember("M", 1, "D", ("C",))],
          b'M = dict({"A": 1, "B": 1}, C=X.y, D=X.y)\n')
    check(b'M = dict(BASE, C=2)\n', [AddMember("M", 1, "D", ("C",))], b'M = dict(BASE, C=2, D=2)\n')


# -- decorators, function-local literals, membership tests --------------------------------------

def test_decorator_argument_list():
    source = src('''
        class Registry:
            @_register_for("Qwen3NextForCausalLM", "Qwen3_5ForConditionalGeneration", priority=2)
            def _qwen3_5_hybrid_overrides(self):
                pass


        @_register_for(
            "A",
            "B",
        )
        @other("A")
        def g():
            pass
    ''')
    check(source, [
        AddMember("@_register_for:_qwen3_5_hybrid_overrides", 2, "Qwen3_5ForCausalLM",
                  ("Qwen3_5ForConditionalGeneration",)),
        AddMember("@_register_for:g", 7, "C"),
        AddMember("@_register_for:g", 7, "Z", ("Nope",)),
    ], src('''
        class Registry:
            @_register_for("Qwen3NextForCausalLM", "Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM", priority=2)
            def _qwen3_5_hybrid_overrides(self):
                pass


        @_register_for(
            "A",
            "B",
            "C",
            "Z",
        )
        @other("A")
        def g():
            pass
    '''))


def test_decorator_with_only_keywords_or_empty():
    source = b'@reg(kind=1)\ndef f(): pass\n@reg()\ndef g(): pass\n'
    check(source, [AddMember("@reg:f", 1, "A"), AddMember("@reg:g", 3, "A")],
          b'@reg("A", kind=1)\ndef f(): pass\n@reg("A")\ndef g(): pass\n')


def test_function_local_literal_and_membership_test():
    source = src('''
        def supports(model_arch):
            archs = frozenset({
                "A",
                "B",
            })
            if model_arch in archs:
                return True
            elif model_arch in ["X", "Y"]:
                return True
            return model_arch not in (
                'P',
            )
    ''')
    check(source, [AddMember("archs", 2, "C", ("B",)), AddMember("supports#1", 8, "Z"),
                   AddMember("supports#2", 10, "Q")], src('''
        def supports(model_arch):
            archs = frozenset({
                "A",
                "B",
                "C",
            })
            if model_arch in archs:
                return True
            elif model_arch in ["X", "Y", "Z"]:
                return True
            return model_arch not in (
                'P',
                'Q',
            )
    '''))


# -- refusals -----------------------------------------------------------------------------------

def test_collections_that_are_not_literals_are_refused():
    source = src('''
        from .registry import IMPORTED
        import archs as a
        LOADED = load_archs()
        COMP = {name for name in NAMES}
        COMP2 = frozenset(n for n in NAMES)
        ALIAS = IMPORTED
        SORTED = sorted(NAMES)
        MOD = a.ARCHS
        SUB = NAMES[1:]
        NUMBERS = {"A": 1} | load()
        BOTH = A | B
        EMPTY = sorted()
        @plain
        def f(): pass
    ''')
    requests = [AddMember("LOADED", 3, "X"), AddMember("COMP", 4, "X"), AddMember("COMP2", 5, "X"),
                AddMember("ALIAS", 6, "X"), AddMember("SORTED", 7, "X"), AddMember("MOD", 8, "X"),
                AddMember("SUB", 9, "X"), AddMember("NUMBERS", 10, "X"), AddMember("MISSING", 3, "X"),
                AddMember("LOADED", 4, "X"), AddMember("@plain:f", 13, "X"), AddMember("@reg:f", 13, "X"),
                AddMember("f#1", 14, "X"), AddMember("LOADED", 999, "X"), AddMember("BOTH", 11, "X"),
                AddMember("EMPTY", 12, "X"), AddMember("LOADED", 0, "X")]
    check(source, requests, source, refused=[
        "LOADED is built by a call to load_archs(), not a literal archsync can edit",
        "COMP is built by a comprehension, not a literal archsync can edit",
        "COMP2 is built by a comprehension, not a literal archsync can edit",
        "ALIAS is bound to `IMPORTED` and it is imported from .registry; add the name where `IMPORTED` is defined",
        "SORTED is built by a call to sorted() of `NAMES`, not a literal archsync can edit",
        "MOD is bound to `a.ARCHS` and it is imported from archs; add the name where `a.ARCHS` is defined",
        "SUB is built by `NAMES[1:]`, not a literal archsync can edit",
        "NUMBERS maps names to values, and with no peer entry to copy archsync cannot tell what 'X' should map to",
        "no assignment to MISSING at line 3",
        "no assignment to LOADED at line 4",
        "@plain on f has no argument list to add 'X' to",
        "no @reg(...) decorator on f at line 13",
        "no membership test against a literal at line 14",
        "line 999 is not in the file",
        "BOTH is built by `A | B`, which has no literal part archsync can edit",
        "EMPTY is built by a call to sorted() with no argument",
        "line 0 is not in the file",
    ])


def test_an_alias_is_edited_in_the_literal_it_names():
    """`ALIAS = _BASE` names `_BASE`'s literal, assigned before it in this file: that literal is edited,
    through a chain of aliases too; a name assigned only after it, or an alias cycle, is refused."""
    source = src('''
        _BASE = {"A"}
        ALIAS = _BASE
        AGAIN = ALIAS
        LATER = _AFTER
        _AFTER = ["B"]
        LOOP = LOOP
    ''')
    check(source, [AddMember("ALIAS", 2, "C"), AddMember("AGAIN", 3, "D"), AddMember("LATER", 4, "E"),
                   AddMember("LOOP", 6, "F")], src('''
        _BASE = {"A", "C", "D"}
        ALIAS = _BASE
        AGAIN = ALIAS
        LATER = _AFTER
        _AFTER = ["B"]
        LOOP = LOOP
    '''), refused=[
        "LATER is bound to `_AFTER` and this file assigns it nothing before; add the name where `_AFTER` is defined",
        "LOOP is bound to `LOOP` and this file assigns it nothing before; add the name where `LOOP` is defined",
    ])


def test_tests_of_one_name_at_a_time_are_refused_with_what_to_do():
    source = src('''
        def uses_kernels(arch):
            return arch.startswith("A") or "B" in arch or arch == "C"
    ''')
    check(source, [AddMember("uses_kernels#1", 2, "D")], source, refused=[
        'uses_kernels#1 tests one name at a time (`==`, `startswith`, `"A" in arch`), not a literal list archsync '
        "can edit; add a test for 'D' by hand"])


@pytest.mark.parametrize("before, after", [
    ('if arch == "A":', 'if arch in ("A", "B"):'),
    ("if arch != 'A':", "if arch not in ('A', 'B'):"),
    ('if arch=="A":', 'if arch in ("A", "B"):'),
    ('if cfg.architectures[0]  ==  "A" and x:', 'if cfg.architectures[0]  in  ("A", "B") and x:'),
])
def test_a_test_of_one_name_becomes_a_test_against_a_tuple(before, after):
    source = src(f'''
        def load(arch, cfg, x):
            {before}
                return 1
    ''')
    check(source, [AddMember("load#1", 2, "B", peers=("A",))], source.replace(before.encode(), after.encode()))


def test_a_test_of_one_name_in_a_latin_1_file_with_crlf_keeps_every_other_byte():
    text = '# -*- coding: latin-1 -*-\r\n# caf\xe9\r\ndef load(arch):\r\n    return arch == "A"\r\n'
    source = text.encode("latin-1")
    check(source, [AddMember("load#1", 4, "B", peers=("A",))],
          text.replace('arch == "A"', 'arch in ("A", "B")').encode("latin-1"))


def test_two_names_added_to_a_test_of_one_name_go_into_one_tuple():
    source = src('''
        def load(arch):
            return arch == "A"
    ''')
    check(source, [AddMember("load#1", 2, "B", peers=("A",)), AddMember("load#1", 2, "C", peers=("A",))],
          source.replace(b'arch == "A"', b'arch in ("A", "B", "C")'))


def test_the_test_of_the_kin_is_the_one_completed_and_a_name_on_the_left_is_refused():
    source = src('''
        def load(arch):
            return arch == "A" or arch == "C"
    ''')
    check(source, [AddMember("load#1", 2, "B", peers=("C",))],
          source.replace(b'arch == "C"', b'arch in ("C", "B")'))
    reversed_test = src('''
        def load(arch):
            return "A" == arch
    ''')
    check(reversed_test, [AddMember("load#1", 2, "B", peers=("A",))], reversed_test, refused=[
        'load#1 tests one name at a time (`==`, `startswith`, `"A" in arch`), not a literal list archsync '
        "can edit; add a test for 'B' by hand"])


def test_request_in_the_header_and_of_unknown_type():
    source = b'# header\nX = ["A"]\n'
    check(source, [AddMember("X", 1, "B")], source, refused=["no assignment to X at line 1"])
    result = apply_fixes(source, [FixRequest("move", "f.py", "X", 2, "B")])
    assert [r.reason for r in result.refused] == ["unknown fix action 'move'"] and result.source is source


def test_refusal_leaves_other_requests_applied():
    source = b'A = load()\nB = ["x"]\n'
    result = check(source, [AddMember("A", 1, "y"), AddMember("B", 2, "y")], b'A = load()\nB = ["x", "y"]\n',
                   refused=["A is built by a call to load(), not a literal archsync can edit"])
    assert result.applied == (AddMember("B", 2, "y"),)


def test_unparsable_or_unfaithful_files_are_refused_whole():
    bad = b"X = {\n"
    result = apply_fixes(bad, [AddMember("X", 1, "A")])
    assert result.source is bad and result.applied == () and result.edits == ()
    assert result.refused[0].reason.startswith("libcst cannot parse the file")


def test_bare_cr_line_ends():
    # libcst's Module.code drops this file's last "\r", but its statements add up to the text.
    cr_only = b'X = {"A",\r  "B"}\r'
    check(cr_only, [AddMember("X", 1, "C")], b'X = {"A",\r  "B",\r  "C"}\r')


def test_an_edit_that_does_not_parse_returns_the_original(monkeypatch):
    monkeypatch.setattr(add_member, "_quote", lambda name, style: '"' + name)
    source = b'X = {"A"}\nY = {"B"}\n'
    requests = [AddMember("X", 1, "C"), AddMember("Y", 2, "D")]
    result = apply_fixes(source, requests)
    assert result.source is source and result.applied == () and result.edits == ()
    assert [(r.request, r.reason) for r in result.refused] == [
        (request, "internal error: the edit did not parse") for request in requests]


def test_deeply_nested_code_is_refused_not_crashed():
    source = ("X = " + " | ".join(f'{{"A{i}"}}' for i in range(1000)) + "\n").encode()
    result = apply_fixes(source, [AddMember("X", 1, "Z")])
    assert result.source is source and result.applied == ()
    assert [r.reason for r in result.refused] == ["the code is nested too deeply for archsync to edit"]


def test_name_not_encodable_in_the_file_encoding():
    source = b'# -*- coding: latin-1 -*-\nX = ["A"]\n'
    check(source, [AddMember("X", 2, "\u4e2d")], source,
          refused=["'\u4e2d' cannot be written in this file's encoding (iso-8859-1)"])


# -- bytes: encodings, BOM, line endings --------------------------------------------------------

def test_crlf_stays_crlf():
    source = src('''
        X = [
            "A",  # a
            "B",
        ]
        Y = ("A", "B")
    ''', newline="\r\n")
    result = check(source, [AddMember("X", 1, "A2", ("A",)), AddMember("Y", 5, "C")], src('''
        X = [
            "A",  # a
            "A2",
            "B",
        ]
        Y = ("A", "B", "C")
    ''', newline="\r\n"))
    assert result.edits[0] == TextEdit(3, 1, 3, 1, '    "A2",\r\n')


def test_bom_and_encoding_declaration_are_kept():
    source = b'\xef\xbb\xbf# -*- coding: utf-8 -*-\nX = {\n    "\xc3\xa9",\n}\n'
    check(source, [AddMember("X", 2, "F")],
          b'\xef\xbb\xbf# -*- coding: utf-8 -*-\nX = {\n    "\xc3\xa9",\n    "F",\n}\n')
    latin = b'# -*- coding: latin-1 -*-\n# caf\xe9\nX = ("\xe9", "A")\n'
    result = check(latin, [AddMember("X", 3, "B", ("A",))],
                   b'# -*- coding: latin-1 -*-\n# caf\xe9\nX = ("\xe9", "A", "B")\n')
    assert result.edits == (TextEdit(3, 14, 3, 14, ', "B"'),)


def test_columns_count_characters_not_bytes():
    source = 'X = {"\u00e9\u00e9", "A"}\n'.encode()
    result = check(source, [AddMember("X", 1, "B")], 'X = {"\u00e9\u00e9", "A", "B"}\n'.encode())
    assert result.edits == (TextEdit(1, 15, 1, 15, ', "B"'),)


def test_file_ending_in_a_comment_without_newline():
    source = b'X = [\n    "A",\n]\n# end'
    check(source, [AddMember("X", 1, "B"), AddMember("X", 1, "C")], b'X = [\n    "A",\n    "B",\n    "C",\n]\n# end')


def test_call_with_space_before_its_parenthesis():
    check(b'X = frozenset ()\n', [AddMember("X", 1, "A")], b'X = frozenset ({"A"})\n')
    check(b'@reg  ("A")  # r\ndef f(): pass\n', [AddMember("@reg:f", 1, "B")],
          b'@reg  ("A", "B")  # r\ndef f(): pass\n')


def test_non_string_elements_are_kept_and_skipped():
    check(b'X = {"B", OTHER, "A"}\n', [AddMember("X", 1, "C")], b'X = {"B", OTHER, "A", "C"}\n')
    check(b'@reg("B", "A")\ndef f(): pass\n', [AddMember("@reg:f", 1, "C")], b'@reg("B", "A", "C")\ndef f(): pass\n')


def test_file_without_final_newline():
    check(b'X = ["A",\n     "B"]', [AddMember("X", 1, "C")], b'X = ["A",\n     "B",\n     "C"]')
    check(b'X = ["A", "B"]', [AddMember("X", 1, "C")], b'X = ["A", "B", "C"]')


def test_untouched_file_is_returned_as_is():
    source = b'\xef\xbb\xbfX = {"A"}\r\n'
    result = apply_fixes(source, [])
    assert result == FixResult(source, (), (), ())
    assert result.source is source


# -- removing duplicates ------------------------------------------------------------------------

@pytest.mark.parametrize("before, line, column, after", [
    ('X = ["A", "B", "A"]\n', 1, 16, 'X = ["A", "B"]\n'),
    ('X = ["A", "A", "B"]\n', 1, 11, 'X = ["A", "B"]\n'),
    ('X = ["A", "B", "A",]\n', 1, 16, 'X = ["A", "B",]\n'),
    ('X = ("A", "A")\n', 1, 11, 'X = ("A",)\n'),
    ('X = {"A", "A"}\n', 1, 11, 'X = {"A"}\n'),
    ('X = "A", "A"\n', 1, 10, 'X = "A",\n'),
    ('X = [\n    "A",\n    "B",  # b\n    "A",  # dup\n]\n', 4, 5, 'X = [\n    "A",\n    "B",  # b\n]\n'),
    ('X = [\n    "A",\n    "B",  # b\n    "A"\n]\n', 4, 5, 'X = [\n    "A",\n    "B"  # b\n]\n'),
    ('X = (\n    "A",\n    "A"\n)\n', 3, 5, 'X = (\n    "A",\n)\n'),
    ('X = [\n    "A",\n    "B",  # b\n    "A"]\n', 4, 5, 'X = [\n    "A",\n    "B"  # b\n    ]\n'),
    ('X = {"A", "B",\n     "A", "C"}\n', 2, 6, 'X = {"A", "B",\n     "C"}\n'),
    ('X = {"A", "B", "A",\n     "C"}\n', 1, 16, 'X = {"A", "B",\n     "C"}\n'),
    ('D = {"A": 1, "B": 2, "A": 3}\n', 1, 22, 'D = {"A": 1, "B": 2}\n'),
    ('@reg("A", "A", k=1)\ndef f(): pass\n', 1, 11, '@reg("A", k=1)\ndef f(): pass\n'),
    ('def f(x):\n    return x in ["A", "B", "A"]\n', 2, 28, 'def f(x):\n    return x in ["A", "B"]\n'),
    ('X = {"A",\n     "B", "A"}\n', 1, 6, 'X = {\n     "B", "A"}\n'),
    ('X = ("A",  # c\n     "A")\n', 2, 6, 'X = ("A",  # c\n     )\n'),
])
def test_remove_duplicate(before, line, column, after):
    check(before.encode(), [RemoveMember(line, column, "A")], after.encode())


def test_remove_refusals_and_no_ops():
    source = b'X = ["A", "B", "A"]\nY = {"A"} | {"A"}\nZ = ["A", "B"]\n'
    check(source, [RemoveMember(1, 11, "A"), RemoveMember(1, 5, "Q"), RemoveMember(2, 6, "A"),
                   RemoveMember(3, 6, "A")], source, refused=[
        "no string 'A' at line 1, column 11",
        "no string 'Q' at line 1, column 5",
    ])  # a name once in its own literal is no duplicate to remove


def test_remove_and_add_in_the_same_literal():
    source = src('''
        X = [
            "A",
            "B",
            "A",
        ]
    ''')
    check(source, [RemoveMember(4, 5, "A"), AddMember("X", 1, "C", ("B",)), AddMember("X", 1, "D")], src('''
        X = [
            "A",
            "B",
            "C",
            "D",
        ]
    '''))


def test_same_removal_twice_in_one_run():
    request = RemoveMember(3, 5, "A")
    result = check(b'X = [\n    "A",\n    "A",\n]\n', [request, request], b'X = [\n    "A",\n]\n')
    assert result.applied == (request,)


def test_same_request_twice_in_one_run():
    request = AddMember("X", 1, "C")
    result = check(b'X = ["A"]\n', [request, request], b'X = ["A", "C"]\n')
    assert result.applied == (request,)


def test_edits_of_later_rounds_are_against_the_original():
    source = src('''
        X = [
            "A",
        ]
        Y = ["B"]
    ''')
    requests = [AddMember("X", 1, "A1"), AddMember("X", 1, "A2"), AddMember("X", 1, "A3"), AddMember("Y", 4, "C"),
                AddMember("Y", 4, "D")]
    result = check(source, requests, src('''
        X = [
            "A",
            "A1",
            "A2",
            "A3",
        ]
        Y = ["B", "C", "D"]
    '''))
    assert result.edits == (TextEdit(3, 1, 3, 1, '    "A1",\n    "A2",\n    "A3",\n'),
                            TextEdit(4, 9, 4, 9, ', "C", "D"'))


def test_names_sharing_a_peer_keep_the_request_order():
    source = src('''
        X = [
            "Qwen3_5ForConditionalGeneration",
            "Other",
        ]
        Y = ("P", "Q")
    ''')
    check(source, [AddMember("X", 1, "Qwen3_5ForCausalLM", ("Qwen3_5ForConditionalGeneration",)),
                   AddMember("X", 1, "Qwen3_5TextForCausalLM", ("Qwen3_5ForConditionalGeneration",)),
                   AddMember("Y", 5, "P1", ("P",)), AddMember("Y", 5, "P2", ("P",)), AddMember("Y", 5, "P3", ("P",))],
          src('''
        X = [
            "Qwen3_5ForConditionalGeneration",
            "Qwen3_5ForCausalLM",
            "Qwen3_5TextForCausalLM",
            "Other",
        ]
        Y = ("P", "P1", "P2", "P3", "Q")
    '''))


def test_edits_of_several_rounds_compose_against_the_original():
    rng = random.Random(3)
    for _ in range(3000):
        original = "".join(rng.choice("ab\n") for _ in range(rng.randint(0, 20)))
        text, composed = original, []
        for _ in range(rng.randint(1, 4)):
            planned = []
            for _ in range(rng.randint(1, 3)):
                start = rng.randint(0, len(text))
                edit = (start, min(len(text), start + rng.choice([0, 0, 1, 3])), rng.choice(["", "X", "Y\n"]))
                if not any(touch(edit, other) for other in planned):
                    planned.append(edit)
            composed = compose(composed, text, planned)
            text = splice(text, planned)
            assert splice(original, composed) == text
            assert all(a[1] < b[0] for a, b in zip(composed, composed[1:]))


def test_requests_accept_peers_as_a_list():
    request = AddMember("X", 1, "C", ["A"])  # type: ignore[arg-type]
    assert request.peers == ("A",) and hash(request)
    check(b'X = ["A", "B"]\n', [request], b'X = ["A", "C", "B"]\n')


def test_a_large_file_only_touches_the_edited_statement():
    body = "".join(f"V{i} = {{'N{i}', 'M{i}'}}\n" for i in range(2000))
    source = ("import os\n" + body + "def f():\n    return 1\n").encode()
    result = check(source, [AddMember("V1500", 1502, "Z")],
                   source.replace(b"V1500 = {'N1500', 'M1500'}", b"V1500 = {'N1500', 'M1500', 'Z'}"))
    assert result.edits == (TextEdit(1502, 26, 1502, 26, ", 'Z'"),)


# -- property: random literals ------------------------------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

_names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,12}", fullmatch=True)


@st.composite
def literals(draw):
    kind = draw(st.sampled_from(["set", "list", "tuple", "frozenset", "bare"]))
    members = draw(st.lists(_names, min_size=1, max_size=6, unique=True))
    if draw(st.booleans()):
        members = sorted(members)
    quote = draw(st.sampled_from(['"', "'"]))
    one_per_line = kind != "bare" and draw(st.booleans())
    trailing = draw(st.booleans()) or (kind in ("tuple", "bare") and len(members) == 1)
    comments = one_per_line and draw(st.booleans())
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    indent = draw(st.sampled_from(["    ", "\t", "  "]))
    strings = [f"{quote}{m}{quote}" for m in members]
    if one_per_line:
        lines = []
        for i, s in enumerate(strings):
            comma = "," if (i < len(strings) - 1 or trailing) else ""
            note = f"  # note {i}" if comments and draw(st.booleans()) else ""
            lines.append(f"{indent}{s}{comma}{note}{newline}")
            if comments and draw(st.booleans()):
                lines.append(f"{indent}# group{newline}")
        inner = newline + "".join(lines)
    else:
        inner = ", ".join(strings) + ("," if trailing else "")
    opening, closing = {"set": ("{", "}"), "list": ("[", "]"), "tuple": ("(", ")"),
                        "frozenset": ("frozenset({", "})"), "bare": ("", "")}[kind]
    text = f"# header{newline}X = {opening}{inner}{closing}{newline}Y = 1{newline}"
    return text, members, newline, quote


@hypothesis.settings(max_examples=150, deadline=None, database=None)
@hypothesis.given(literals(), _names, st.lists(_names, max_size=2), st.integers(0, 2))
def test_property_random_literals(case, name, peers, peer_index):
    text, members, newline, quote = case
    if peer_index < len(members):
        peers = [members[peer_index]] + peers
    source = text.encode()
    result = apply_fixes(source, [AddMember("X", 2, name, tuple(peers))])
    assert result.refused == ()
    new = result.source.decode()
    tree = ast.parse(new)
    value = tree.body[0].value
    if isinstance(value, ast.Call):
        value = value.args[0]
    assert set(ast.literal_eval(value)) == set(members) | {name}
    assert apply_text_edits(source, result.edits) == result.source
    if name in members:
        assert result.source == source and result.applied == ()
        return
    assert [element.value for element in value.elts] == expected_order(members, name, peers)
    # Every byte of the input survives in order: the edits only insert, and what they
    # insert is the new name, commas and layout whitespace.
    for edit in result.edits:
        assert (edit.start_line, edit.start_column) == (edit.end_line, edit.end_column)
        rest = edit.new_text.replace(f"{quote}{name}{quote}", "", 1)
        assert set(rest) <= set(", \t\r\n"), edit.new_text
        assert newline == "\r\n" or "\r" not in edit.new_text
    assert sum(name in e.new_text for e in result.edits) == 1
    # Taking the inserted text back out of the output gives the input, byte for byte.
    starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
    inserted = sorted((starts[e.start_line - 1] + e.start_column - 1, e.new_text) for e in result.edits)
    stripped = new
    for offset, new_text in inserted:  # in order: earlier insertions are already taken out
        assert stripped[offset:offset + len(new_text)] == new_text
        stripped = stripped[:offset] + stripped[offset + len(new_text):]
    assert stripped.encode() == source
    assert again_is_noop(result.source, name, peers)


def expected_order(members, name, peers):
    """Right after the first peer present; else in sorted position if sorted; else last."""
    for peer in peers:
        if peer in members:
            index = members.index(peer) + 1
            return members[:index] + [name] + members[index:]
    for fold in (str, str.casefold):
        keys = [fold(m) for m in members]
        if len(members) >= 2 and keys == sorted(keys):
            index = sum(key <= fold(name) for key in keys)
            return members[:index] + [name] + members[index:]
    return members + [name]


def again_is_noop(source: bytes, name: str, peers) -> bool:
    again = apply_fixes(source, [AddMember("X", 2, name, tuple(peers))])
    return again.source == source and again.applied == () and again.refused == ()


def test_fixes_planned_alone_on_one_parse_are_the_fixes_planned_one_by_one():
    """`apply_each` (the payloads of one file's findings: JSON, flake8, an editor) parses the file once
    and plans each fix alone; each result is what `apply_fixes` gives for that fix on its own, whether
    the edit is in a large function (only the lines around it are walked), a refusal, or a removal."""
    from lint_plugin.fix.editor.apply import apply_each

    body = "".join(f"    x{i} = {i}\n" for i in range(300))
    source = (b'A = frozenset({"Alpha", "Beta"})\n\n\ndef settings(arch):\n' + body.encode()
              + b'    if arch in ["Alpha", "Beta"]:\n        return 1\n    return 0\n\n\n'
              + b'B = ["Alpha", "Alpha", "Beta"]\nC = compute()\n')
    line_in = 4 + 300 + 1
    requests = [AddMember("A", 1, "Gamma", ["Alpha"]), AddMember("settings#1", line_in, "Gamma", ["Beta"]),
                RemoveMember(line_in + 5, 15, "Alpha"), AddMember("C", line_in + 6, "Gamma")]
    alone = [apply_fixes(source, [request]) for request in requests]
    assert apply_each(source, [[request] for request in requests]) == alone
    assert [len(result.applied) for result in alone] == [1, 1, 1, 0]


# -- the region libcst parses: the statements on the request's line, at any depth --------------

def parsed_by_libcst(monkeypatch) -> list:
    """The texts libcst is asked to parse from now on (the region of each request, or the whole file)."""
    from lint_plugin.fix.editor import document

    texts: list = []
    parse = document.cst.parse_module

    def recording(source, *args, **kwargs):
        texts.append(source.decode("utf-8", "replace") if isinstance(source, bytes) else source)
        return parse(source, *args, **kwargs)

    monkeypatch.setattr(document.cst, "parse_module", recording)
    return texts


FILLER = "".join(f"        self.option_{i} = {i}\n" for i in range(2000))
SETTINGS = (src('''
    import os


    class ServerArgs:
        attention_backend: str = "auto"

        def _handle_model_specific_adjustments(self):
            model_arch = self.arch
    ''') + FILLER.encode() + "".join(f"{line}\n" for line in [
    '        if model_arch in ["DeepseekV3ForCausalLM"]:',
    '            self.x = 0',
    '        elif model_arch in [',
    '            "Qwen3MoeForCausalLM",  # the MoE one',
    '            "Qwen3NextForCausalLM",',
    '        ]:',
    '            self.x = 1',
    '        elif model_arch in ["Gemma3ForCausalLM", "Gemma2ForCausalLM"]: self.x = 2',
    '        else:',
    '            self.x = 3',
    '',
    '    @register("Alpha", "Beta")',
    '    def adjust(self):',
    '        return 1',
]).encode())


def _line(source: bytes, text: bytes) -> int:
    return source[:source.index(text)].count(b"\n") + 1


def test_a_literal_in_a_large_class_is_edited_from_its_statement_alone(monkeypatch):
    """An `elif` test, a one-line `elif` arm and a decorator of a method, in a class of 2,000 lines: libcst
    parses the header of each (with `pass` for its body), never the class or the file."""
    texts = parsed_by_libcst(monkeypatch)
    elif_line, one_line = _line(SETTINGS, b'elif model_arch in [\n'), _line(SETTINGS, b'elif model_arch in ["Gemma3')
    function = "ServerArgs._handle_model_specific_adjustments"
    requests = [AddMember(f"{function}#2", elif_line, "Qwen3_5MoeForCausalLM", ("Qwen3MoeForCausalLM",)),
                AddMember(f"{function}#2", elif_line, "Qwen3_5ForCausalLM", ("Qwen3MoeForCausalLM",)),
                AddMember(f"{function}#3", one_line, "Gemma4ForCausalLM", ("Gemma3ForCausalLM",)),
                AddMember("@register:adjust", _line(SETTINGS, b"    @register"), "Gamma")]
    expected = (SETTINGS.replace(b'"Qwen3MoeForCausalLM",  # the MoE one\n',
                                 b'"Qwen3MoeForCausalLM",  # the MoE one\n'
                                 b'            "Qwen3_5MoeForCausalLM",\n            "Qwen3_5ForCausalLM",\n')
                .replace(b'["Gemma3ForCausalLM", "Gemma2', b'["Gemma3ForCausalLM", "Gemma4ForCausalLM", "Gemma2')
                .replace(b'@register("Alpha", "Beta")', b'@register("Alpha", "Beta", "Gamma")'))
    check(SETTINGS, requests, expected)
    assert texts and max(len(text) for text in texts) < 400, [text[:80] for text in texts if len(text) >= 400]


def test_nested_regions_keep_every_byte(monkeypatch):
    """Statements in blocks of every kind, indented with tabs, CRLF line ends, a statement after `;`,
    and characters that take more than one byte before the literal on its line (the standard parser
    counts its columns in UTF-8 bytes): each is edited from its own region, never the whole file."""
    texts = parsed_by_libcst(monkeypatch)
    source = src('''
        def f(arch):
        \tnote = "caf\u00e9 \u2014"; ARCHS = ["A",
        \t                             "B"]
        \tLIST = "\u00e9"; K = [
        \t\t"A", "B", "A",
        \t]
        \ttry:
        \t\tpass
        \texcept ValueError:
        \t\tif arch:
        \t\t\tfor x in y:
        \t\t\t\tpass
        \t\t\telse:
        \t\t\t\tKINDS = ("A",)  # kinds
        \twith open(arch) as handle:
        \t\treturn arch in {"A", "B"}
    ''', newline="\r\n")
    check(source, [AddMember("f.ARCHS", 2, "C"), RemoveMember(5, 13, "A"), AddMember("f.KINDS", 14, "B"),
                   AddMember("f#1", 16, "C")],
          source.replace(b'"B"]', b'"B",\r\n\t                             "C"]').replace(b'"B", "A",', b'"B",')
          .replace(b'("A",)', b'("A", "B",)').replace(b'{"A", "B"}', b'{"A", "B", "C"}'))
    latin = '# -*- coding: latin-1 -*-\nclass C:\n    def f(self):\n        x = "\u00e9\u00e9"; ARCHS = ["A"]\n'
    check(latin.encode("latin-1"), [AddMember("f.ARCHS", 4, "B")],
          latin.replace('["A"]', '["A", "B"]').encode("latin-1"))
    assert source.decode() not in texts and latin not in texts


def test_a_decorator_whose_at_sign_is_on_another_line_is_edited_in_the_whole_file(monkeypatch):
    """Where the tree does not say where a statement starts, libcst parses the whole file, as before."""
    texts = parsed_by_libcst(monkeypatch)
    source = b'import os\n\n\n@(\n    register("A")\n)\ndef f():\n    pass\n'
    check(source, [AddMember("@register:f", 4, "B")], source.replace(b'"A")', b'"A", "B")'))
    assert source.decode() in texts


def test_an_alias_is_found_past_a_comment_above_its_literal():
    """`X = _X` edits `_X`'s literal, found from its own line, not from the comment above it."""
    source = src('''
        import os

        # the names, sorted
        _X = ["A", "B"]
        X = _X
    ''')
    check(source, [AddMember("X", 5, "C")], source.replace(b'"B"]', b'"B", "C"]'))


# -- lists of classes: the class by its name, imported where the file does not bind it ----------

def AddClass(collection, line, name, module, peers=()):
    return FixRequest("add", "f.py", collection, line, name, tuple(peers), 1, reference=f"{module}:{name}")


def test_a_class_is_added_after_its_peer_and_to_the_import_of_its_module():
    source = src('''
        """Processors by model class."""
        from relay.models.kilo import KiloForCausalLM
        from relay.models.pico import PicoForCausalLM

        from .base import BaseProcessor


        class KiloProcessor(BaseProcessor):
            models = [
                KiloForCausalLM,
                PicoForCausalLM,
            ]
    ''')
    expected = src('''
        """Processors by model class."""
        from relay.models.kilo import KiloForCausalLM, KiloMoeForCausalLM
        from relay.models.pico import PicoForCausalLM

        from .base import BaseProcessor


        class KiloProcessor(BaseProcessor):
            models = [
                KiloForCausalLM,
                KiloMoeForCausalLM,
                PicoForCausalLM,
            ]
    ''')
    check(source, [AddClass("KiloProcessor.models", 9, "KiloMoeForCausalLM", "relay.models.kilo",
                            ("KiloForCausalLM",))], expected)


def test_a_class_the_file_binds_is_not_imported_again_and_crlf_is_kept():
    source = src('''
        from relay import models
        if TYPE_CHECKING:
            from relay.models.kilo import KiloMoeForCausalLM
        JIT = (models.KiloForCausalLM, PicoForCausalLM)
    ''', newline="\r\n")
    expected = src('''
        from relay import models
        if TYPE_CHECKING:
            from relay.models.kilo import KiloMoeForCausalLM
        JIT = (models.KiloForCausalLM, PicoForCausalLM, KiloMoeForCausalLM)
    ''', newline="\r\n")
    check(source, [AddClass("JIT", 4, "KiloMoeForCausalLM", "relay.models.kilo")], expected)


def test_a_class_goes_after_the_docstring_where_nothing_is_imported_above():
    source = src('''
        """Doc."""
        from __future__ import annotations
        JIT = [KiloForCausalLM]
        from relay.models.kilo import KiloForCausalLM
    ''')
    expected = src('''
        """Doc."""
        from __future__ import annotations
        from relay.models.kilo import KiloMoeForCausalLM
        JIT = [KiloForCausalLM, KiloMoeForCausalLM]
        from relay.models.kilo import KiloForCausalLM
    ''')
    check(source, [AddClass("JIT", 3, "KiloMoeForCausalLM", "relay.models.kilo")], expected)


def test_a_class_is_refused_where_no_module_is_known_or_the_literal_holds_strings():
    source = src('''
        JIT = [KiloForCausalLM]
        NAMES = ["KiloForCausalLM", PicoForCausalLM]
    ''')
    check(source, [AddClass("JIT", 1, "KiloMoeForCausalLM", ""), AddClass("NAMES", 2, "KiloMoeForCausalLM", "m")],
          source, refused=[
              "KiloMoeForCausalLM is not imported in f.py, and archsync does not know a module to import it from: "
              "add the import, then the class",
              "NAMES is not a literal of classes alone: archsync will not add the class KiloMoeForCausalLM to it"])


@pytest.mark.parametrize("before, after", [
    ("from relay.models.kilo import (KiloForCausalLM)\n",
     "from relay.models.kilo import (KiloForCausalLM, KiloMoeForCausalLM)\n"),
    ("from relay.models.kilo import (KiloForCausalLM,)\n",
     "from relay.models.kilo import (KiloForCausalLM, KiloMoeForCausalLM)\n"),
    # not one line, or something after it on its line: an import of its own below it
    ("from relay.models.kilo import (\n    KiloForCausalLM,\n)\n",
     "from relay.models.kilo import (\n    KiloForCausalLM,\n)\nfrom relay.models.kilo import KiloMoeForCausalLM\n"),
    ("from relay.models.kilo import KiloForCausalLM  # noqa\n",
     "from relay.models.kilo import KiloForCausalLM  # noqa\nfrom relay.models.kilo import KiloMoeForCausalLM\n"),
    ("from .kilo import KiloForCausalLM\n",
     "from .kilo import KiloForCausalLM\nfrom relay.models.kilo import KiloMoeForCausalLM\n"),
])
def test_the_import_of_a_class_joins_a_one_line_import_of_its_module(before, after):
    line = before.count("\n") + 1
    check(before.encode() + b"JIT = [KiloForCausalLM]\n",
          [AddClass("JIT", line, "KiloMoeForCausalLM", "relay.models.kilo")],
          after.encode() + b"JIT = [KiloForCausalLM, KiloMoeForCausalLM]\n")


def test_a_class_bound_below_the_list_is_refused():
    source = src('''
        JIT = [KiloForCausalLM]


        class KiloMoeForCausalLM(KiloForCausalLM):
            pass
    ''')
    check(source, [AddClass("JIT", 1, "KiloMoeForCausalLM", "relay.models.kilo")], source, refused=[
        "KiloMoeForCausalLM is bound below JIT in f.py (line 4): the list cannot name it before it exists; move "
        "one of them, then add the class"])
