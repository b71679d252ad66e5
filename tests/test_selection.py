"""Which names carry architecture names onward, so that the files using them are parsed too.

A predicate carries when it tests a name or a pattern, or tests or delegates to a name that
carries (or that no chosen file defines, which may hold anything); a predicate of other things
(`get_bool_env_var`: `value in ("true", "1")`) carries nothing, and the many files calling it
are not parsed for it. In-process for the rule, then a real `archsync` run for the promise:
the same diagnostics with every file parsed, and fewer files analysed.
"""
from __future__ import annotations

import re
import textwrap

from conftest import EXIT_FINDINGS, archsync
from lint_plugin.extract.facts import CollectionFact, FileFacts, Literal, Member, Pattern, PredicateFact, Ref
from lint_plugin.resolve.selection import _Carried

NAME = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*").fullmatch


def literal(*names: str) -> Literal:
    return Literal(tuple(Member(n, 1, 1) for n in names))


def predicate(name: str, *tests, delegates=()) -> PredicateFact:
    return PredicateFact(name, 1, 1, tuple(tests), tuple(delegates))


def carrying(*predicates: PredicateFact, collections=(), known=frozenset()):
    facts = FileFacts("m.py", "m", collections=tuple(collections), predicates=predicates)
    carried = _Carried(NAME)
    carried.found.update(known)
    return carried.add([facts, None])[0] | frozenset(known)


def test_a_predicate_of_other_things_carries_nothing():
    assert carrying(predicate("get_bool_env_var", literal("true", "1"))) == frozenset()


def test_a_predicate_of_names_or_patterns_carries():
    assert carrying(predicate("is_qwen", literal("Qwen3ForCausalLM")),
                    predicate("is_llama", Pattern("prefix", "Llama", 1))) == {"is_qwen", "is_llama"}


def test_delegation_carries_what_the_delegate_carries():
    found = carrying(predicate("is_flag", literal("true")),
                     predicate("is_served", delegates=[Ref("m", "is_qwen", 1)]),
                     predicate("is_off", delegates=[Ref("m", "is_flag", 1)]),
                     predicate("is_qwen", literal("Qwen3ForCausalLM")))
    assert found == {"is_qwen", "is_served"}


def test_a_reference_out_of_the_chosen_files_may_carry_anything():
    found = carrying(predicate("is_remote", delegates=[Ref("other", "is_elsewhere", 1)]),
                     predicate("in_remote", Ref("other", "ELSEWHERE_ARCHS", 1)))
    assert found == {"is_remote", "in_remote"}


def test_a_reference_to_what_a_chosen_module_does_not_define_leads_nowhere():
    """`gcn_arch in ...` (a local the predicate reader could not follow), `helper()` (no predicate)."""
    found = carrying(predicate("is_gfx95", Ref("m", "gcn_arch", 1)),
                     predicate("is_tp", delegates=[Ref("m", "helper", 1), Ref("m", "Base.method", 1)]))
    assert found == frozenset()


def test_a_chosen_module_may_still_lead_out_through_an_import_or_a_star_import():
    imported = FileFacts("m.py", "m", imports=(("helper", "other", "helper"),),
                         predicates=(predicate("is_tp", delegates=[Ref("m", "helper", 1)]),))
    starred = FileFacts("s.py", "s", star_imports=("other",),
                        predicates=(predicate("is_sp", delegates=[Ref("s", "helper", 1)]),))
    assert _Carried(NAME).add([imported, starred]) == ({"is_tp", "is_sp"}, {"m", "s"})


def test_a_module_carries_when_it_binds_a_name_that_carries_or_star_imports_one_that_does():
    """What a file must reach, through its imports, to be chosen next (`extract/bindings.reaches`)."""
    names = FileFacts("pkg/names.py", "pkg.names", constants=(("ALPHA", "AlphaForCausalLM", 1),))
    reexport = FileFacts("pkg/__init__.py", "pkg", imports=(("ALPHA", "pkg.names", "ALPHA"),))
    star = FileFacts("pkg/all.py", "pkg.all", star_imports=("pkg",))
    other = FileFacts("pkg/util.py", "pkg.util", constants=(("GREETING", "hello, world", 1),))
    assert _Carried(NAME).add([names, reexport, star, other]) == ({"ALPHA"}, {"pkg.names", "pkg", "pkg.all"})


def test_a_test_of_a_collection_carries_what_the_collection_does():
    found = carrying(predicate("is_mm", Ref("m", "MM_ARCHS", 1)), predicate("is_bool", Ref("m", "BOOLS", 1)),
                     collections=[CollectionFact("MM_ARCHS", 1, 1, (literal("LlavaForConditionalGeneration"),)),
                                  CollectionFact("BOOLS", 1, 1, (literal("true", "false"),))])
    assert found == {"MM_ARCHS", "is_mm"}


def test_what_an_earlier_pass_found_still_carries():
    assert carrying(predicate("is_flag", literal("true")), known={"is_flag"}) == {"is_flag"}


FILES = {
    "pkg/__init__.py": "",
    "pkg/models.py": textwrap.dedent("""\
        class Qwen3_5ForCausalLM:
            pass


        class Qwen3_5ForConditionalGeneration:
            pass


        EntryClass = [Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration]
    """),
    "pkg/utils.py": textwrap.dedent("""\
        import os


        def is_qwen3_5(config):
            return config.architectures[0] in ("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration")


        def get_bool_env_var(name):
            return os.environ.get(name, "0") in ("true", "1")
    """),
    # calls a predicate that carries names: parsed
    "pkg/family.py": textwrap.dedent("""\
        from pkg.utils import get_bool_env_var, is_qwen3_5


        def is_served(config):
            return is_qwen3_5(config) and not get_bool_env_var("NO_QWEN")
    """),
    # calls only the predicate of something else: nothing to add
    "pkg/flags.py": textwrap.dedent("""\
        from pkg.utils import get_bool_env_var


        def debug():
            return get_bool_env_var("DEBUG")
    """),
    "pkg/overrides.py": 'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n',
}


def test_callers_of_a_predicate_of_other_things_are_not_parsed(tmp_path):
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    expected = ["pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/utils.py:4) "
                "but missing from X_ARCHS"]
    filtered = archsync("check", "--no-cache", cwd=root)
    everything = archsync("check", "--no-cache", "--no-prefilter", cwd=root)
    assert filtered.lines == everything.lines == expected, (filtered, everything)
    assert filtered.returncode == everything.returncode == EXIT_FINDINGS
    # utils (quotes registered names), family (calls is_qwen3_5) and overrides (guarded); never flags
    assert filtered.err_lines == ["archsync: 1 problem (6 files, 3 analysed)"], filtered
    assert everything.err_lines == ["archsync: 1 problem (6 files, 6 analysed)"], everything


def test_a_file_importing_a_registered_class_and_defining_none_may_list_classes():
    from lint_plugin.project.prefilter import Signals
    from lint_plugin.resolve.selection import _lists_classes

    registered = frozenset({"LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM"})

    def signals(imported, classes=()):
        return Signals(False, False, frozenset(), imported=frozenset(imported), classes=frozenset(classes))

    # a processor's `models = [LlamaForCausalLM]`: its own classes are no model the registry serves
    assert _lists_classes(signals({"LlamaForCausalLM", "torch"}, {"LlamaImageProcessor"}), registered)
    # a model file imports another's class to build its own models
    assert not _lists_classes(signals({"LlamaForCausalLM"}, {"MistralForCausalLM", "MistralMLP"}), registered)
    assert not _lists_classes(signals({"AutoModel"}), registered)
