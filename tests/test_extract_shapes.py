"""Shapes read from one file, in process: whole-list equality, constants in tables, backend and support tables."""
from __future__ import annotations

from lint_plugin.config import DEFAULT_NAME_PATTERN
from lint_plugin.extract.facts import FileFacts, Literal, Member, Pattern, Ref, RegistrationFact, piece_at_a_word
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.resolve.foreign import foreign_registries
from lint_plugin.resolve.support_tables import names_support_table


def _facts(source: str) -> FileFacts:
    return extract_file(source.encode(), "pkg/m.py", "pkg.m", ["EntryClass"], False, DEFAULT_NAME_PATTERN)


def _subjects(source: str):
    return {c.name: [m.name for p in c.parts if isinstance(p, Literal) for m in p.members]
            for c in _facts(source).collections}


# -- `architectures == ["A"]` ---------------------------------------------------------------------------

def test_a_list_of_one_name_compared_whole_is_a_test_of_that_name():
    source = ('def adjust(config):\n'
              '    if config.architectures == ["AlphaForCausalLM"]:\n'
              '        return 1\n'
              '    if ["BetaForCausalLM"] != config.architectures:\n'
              '        return 2\n')
    assert _subjects(source) == {"adjust#1": ["AlphaForCausalLM"], "adjust#2": ["BetaForCausalLM"]}


def test_an_or_chain_of_whole_list_tests_is_one_literal_of_its_names():
    source = ('def adjust(config):\n'
              '    if config.architectures == ["AlphaForCausalLM"] or config.architectures == ("BetaForCausalLM",) \\\n'
              '            or config.architectures == "GammaForCausalLM":\n'
              '        return 1\n')
    assert _subjects(source) == {"adjust#1": ["AlphaForCausalLM", "BetaForCausalLM", "GammaForCausalLM"]}
    (literal,) = _facts(source).collections[0].parts
    assert literal.members[0] == Member("AlphaForCausalLM", 2, 33)  # the string, not its list (at 32)


def test_an_and_chain_of_whole_list_inequalities_is_one_literal_too():
    source = ('def keep(config):\n'
              '    return config.architectures != ["AlphaForCausalLM"] and \\\n'
              '        config.architectures != ["BetaForCausalLM"]\n')
    assert _subjects(source)["keep#1"] == ["AlphaForCausalLM", "BetaForCausalLM"]


def test_a_list_of_several_names_compared_whole_is_one_combination_not_a_subject():
    source = ('def adjust(config):\n'
              '    if config.architectures == ["AlphaForCausalLM", "BetaForCausalLM"]:\n'
              '        return 1\n'
              '    if ["AlphaForCausalLM"] == ["BetaForCausalLM"]:\n'
              '        return 2\n')
    assert _subjects(source) == {}


# -- what a registry's value may be ---------------------------------------------------------------------

def test_a_constant_is_no_class_and_a_table_of_reasons_registers_nothing():
    source = ('_REASON = "no sliding window"\n'
              'PARTIAL = {"AlphaForCausalLM": _REASON, "BetaForCausalLM": _REASON, "GammaForCausalLM": "no fp32"}\n')
    facts = _facts(source)
    assert facts.registrations == ()
    assert [c.name for c in facts.collections] == ["PARTIAL"]


def test_a_module_and_class_pair_says_its_class_is_one_whatever_its_case():
    facts = _facts('_SPEC = {"EagleModel": ("eagle", "EAGLE"), "MedusaModel": ("medusa", "Medusa")}\n')
    (registration,) = facts.registrations
    assert registration.implementations == ("eagle:EAGLE", "medusa:Medusa")


def test_a_package_module_and_class_triple_registers_relative_to_the_models_package():
    """vLLM-Omni's `_OMNI_MODELS` beside vLLM's pairs: `(package, module, class)` under the models package, so its
    registry is the project's own, not a table of another package's classes."""
    facts = _facts('_OMNI_MODELS = {\n    "OspreyOmniForConditionalGeneration": (\n        "osprey_omni",\n'
                   '        "osprey_omni_thinker",\n        "OspreyOmniThinkerForConditionalGeneration",\n    ),\n'
                   '    "OspreyOmniTalkerModel": ("osprey_omni", "osprey_omni_talker", "OspreyOmniTalker"),\n'
                   '    "OspreyOmniVocoder": ("osprey-omni", "vocoder", "OspreyOmniVocoder"),\n}\n')
    (registration,) = facts.registrations
    assert [m.name for m in registration.names] == ["OspreyOmniForConditionalGeneration", "OspreyOmniTalkerModel"]
    assert registration.implementations == (
        ".osprey_omni.osprey_omni_thinker:OspreyOmniThinkerForConditionalGeneration",
        ".osprey_omni.osprey_omni_talker:OspreyOmniTalker")
    assert foreign_registries([facts], {"pkg"}) == frozenset()


def test_a_dict_in_a_function_that_maps_names_to_their_classes_registers_them():
    """A factory's own table (`classes = {"X": X}`, then `classes[name]`) is a registry, as it is at module level;
    a function's table of helpers (config classes) registers nothing, as there."""
    facts = _facts('def stage_class(name):\n    classes = {"HeronVaeModel": HeronVaeModel, "HeronDualModel": Dual}\n'
                   '    configs = {"HeronVaeModel": HeronVaeConfig}\n    return classes[name], configs[name]\n')
    (registration,) = facts.registrations
    assert (registration.registry, [m.name for m in registration.names], registration.implementations) == \
        ("stage_class.classes", ["HeronVaeModel", "HeronDualModel"], ("pkg.m:HeronVaeModel", "pkg.m:Dual"))


# -- tables of another package's classes ----------------------------------------------------------------

def _registry(module: str, name: str, *implementations: str) -> FileFacts:
    names = tuple(Member(f"Model{i}ForCausalLM", i + 1, 5) for i in range(len(implementations)))
    return FileFacts(f"{module.replace('.', '/')}.py", module,
                     registrations=(RegistrationFact(name, names, implementations),))


def test_a_registry_of_classes_from_a_package_outside_the_project_is_foreign():
    backend = _registry("eng.backends.accel", "_ACCEL_MODELS", "accel_rt.models.a:AccelA", "accel_rt.models.b:AccelB")
    own = _registry("eng.models.registry", "_MODELS", "llama:LlamaForCausalLM", "eng.models.qwen:QwenForCausalLM")
    assert foreign_registries([backend, own], {"eng"}) == {("eng.backends.accel", "_ACCEL_MODELS")}


def test_one_class_of_the_project_or_of_a_dependency_read_keeps_a_registry():
    mixed = _registry("eng.backends.accel", "_ACCEL_MODELS", "accel_rt.models.a:AccelA", "eng.models.b:B")
    plugin = _registry("plug.models", "_MODELS", "vllm.model_executor.models.llama:LlamaForCausalLM")
    assert foreign_registries([mixed, plugin], {"eng", "plug", "vllm"}) == frozenset()


# -- a project's table of what it supports -----------------------------------------------------------------

def test_support_tables_are_named_exactly_so():
    for name in ("SUPPORTED_ARCHS", "_SUPPORTED_ARCHS", "SUPPORTED_MODELS", "_SUPPORTED_ARCHITECTURES",
                 "supported_archs"):
        assert names_support_table(name), name
    for name in ("_NEURON_SUPPORTED_MODELS", "_PREVIOUSLY_SUPPORTED_MODELS", "UNSUPPORTED_ARCHS",
                 "SUPPORTED_ARCHS_V2", "_PP_SUPPORTED_MODELS"):
        assert not names_support_table(name), name


# -- shape tests of a piece of a name ---------------------------------------------------------------

def _patterns(source: str):
    return {p.name: [(t.kind, t.text) for t in p.tests if isinstance(t, Pattern)] for p in _facts(source).predicates}


def test_a_piece_of_two_characters_or_more_is_a_name_test_and_one_character_is_not():
    source = ('def is_llama(c):\n    return c.architectures[0].startswith("Llama")\n'
              'def is_gemma3(c):\n    return "Gemma3" in c.architectures[0]\n'
              'def is_minimax(c):\n    return c.architectures[0].startswith(("MiniMax", "minimax"))\n'
              'def is_moe(c):\n    return "moe" in c.architectures[0].lower()\n'
              'def has_m(c):\n    return "M" in c.architectures[0]\n')
    assert _patterns(source) == {"is_llama": [("prefix", "Llama")], "is_gemma3": [("substring", "Gemma3")],
                                 "is_minimax": [("prefix", "MiniMax"), ("prefix", "minimax")],
                                 "is_moe": [("substring", "moe")]}  # lowercase names exist (`name-pattern`)


def test_a_piece_matches_a_name_where_a_word_of_it_begins():
    assert piece_at_a_word("Moe", "Qwen3MoeForCausalLM")
    assert piece_at_a_word("moe", "qwen3_moe")  # model types (`name-pattern`): words after `_`
    assert piece_at_a_word("3_5", "Qwen3_5ForCausalLM")  # digits after letters
    assert piece_at_a_word("VL", "Qwen2VLForConditionalGeneration")
    assert not piece_at_a_word("moe", "AfmoeForCausalLM")
    assert not piece_at_a_word("dit", "Gemma3ForConditionalGeneration")
    assert Pattern("suffix", "ForCausalLM", 1).matches("LlamaForCausalLM")
    assert not Pattern("suffix", "ration", 1).matches("Gemma3ForConditionalGeneration")


# -- lists of classes -------------------------------------------------------------------------------------------

def test_a_class_attribute_listing_imported_classes_is_a_collection_of_references():
    facts = _facts("from pkg.models.kilo import KiloForCausalLM\n"
                   "from pkg.models import pico\n"
                   "class KiloProcessor(Base):\n"
                   "    models = [KiloForCausalLM, pico.PicoForCausalLM]\n"
                   "    errors = (ValueError, TypeError)\n"
                   "    local = [Helper]\n"
                   "class Helper:\n"
                   "    pass\n")
    assert [(c.name, c.scope, [(p.module, p.name) for p in c.parts if isinstance(p, Ref)]) for c in facts.collections] \
        == [("KiloProcessor.models", "class", [("pkg.models.kilo", "KiloForCausalLM"), ("pkg.models.pico",
                                                                                        "PicoForCausalLM")])]
