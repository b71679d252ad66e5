"""ARC101 family-member-missing: a guarded collection holds part of a family but not all of it."""
from __future__ import annotations

from collections import defaultdict
from typing import AbstractSet, Dict, FrozenSet, List, Mapping, Sequence, Tuple

from ..diagnostics import Diagnostic
from ..resolve import Collection, Model, Predicate
from ..resolve.handlers import alternatives, handles
from ..resolve.host_scope import out_of_sight
from ..resolve.said_kinds import NOTHING_SAID, SaidKinds
from .fixes import add_to
from .kinds import accepts, never_looked_up
from .rule import Example, Rule

_MODELS = ("models/qwen3_5.py", "class Qwen3_5ForConditionalGeneration: pass\n"
                                "class Qwen3_5ForCausalLM: pass\n"
                                "class Qwen3NextForCausalLM: pass\n"
                                "class Qwen2VLForConditionalGeneration: pass\n"
                                "EntryClass = [Qwen3_5ForConditionalGeneration, Qwen3_5ForCausalLM, "
                                "Qwen3NextForCausalLM,\n"
                                "              Qwen2VLForConditionalGeneration]\n")
_PREDICATE = ("configs/model_config.py", "def is_qwen3_5(config):\n"
                                         "    return config.architectures[0] in (\"Qwen3_5ForConditionalGeneration\", "
                                         "\"Qwen3_5ForCausalLM\")\n")


def check(model: Model) -> List[Diagnostic]:
    """One diagnostic per (collection, missing name), naming every family that implies the name.

    A collection meets a family when they share a name; a declared cover (collection,
    family) needs all of the family without that. Delegating families whose parts already
    name the missing name are left out of the evidence.
    """
    return family_member_missing(model.collections, model.overlapping, model.covers, model.config.siblings,
                                 model.said, model.kinship.model_class, model.host_only, model.brought,
                                 model.not_taken_up)


def family_member_missing(collections: Sequence[Collection], families: Sequence[Predicate],
                          covers: Sequence[Tuple[Collection, Predicate]] = (),
                          siblings: Sequence[Tuple[str, str]] = (),
                          said: SaidKinds = NOTHING_SAID,
                          served_by: Mapping[str, str] = {},
                          host_only: Mapping[str, FrozenSet[str]] = {},
                          brought: Mapping[str, FrozenSet[str]] = {},
                          not_taken_up: AbstractSet[str] = frozenset()) -> List[Diagnostic]:
    found: Dict[Tuple[Collection, str], List[Predicate]] = defaultdict(list)
    pairs = [(c, f) for c in collections for f in families
             if c.members.names & f.names and c.completable]
    for collection, family in pairs:
        held = collection.members.names
        for name in family.names - held:
            if accepts(held, name, family.names, said) \
                    and not never_looked_up(collection.keyed, name, served_by) \
                    and not out_of_sight(collection, name, host_only, brought, not_taken_up):
                found[(collection, name)].append(family)
    for collection, family in covers:  # a declared cover wants the whole family, kinds and all
        for name in family.names - collection.members.names:
            if family not in found[(collection, name)]:
                found[(collection, name)].append(family)
    diagnostics = []
    for (collection, name), reporters in found.items():
        if handles(collection) and not _the_handler(collection, name, reporters, found):
            continue
        keys = {f.key for f in reporters}
        reporters = sorted((f for f in reporters if not (f.delegates & keys)),
                           key=lambda f: (f.path, f.line, f.subject))
        diagnostics.append(diagnostic(collection, name, reporters, siblings))
    return diagnostics


def _the_handler(collection: Collection, name: str, reporters: Sequence[Predicate],
                 found: Mapping[Tuple[Collection, str], Sequence[Predicate]]) -> bool:
    """Is it the handler a name missing from several handlers' lists is asked of (`resolve/handlers.py`): the one
    holding the most of its families, the first in the project of those? One handler serves a model."""
    family = frozenset().union(*(f.names for f in reporters))

    def rank(c: Collection) -> Tuple[int, str, int]:
        return -len(c.members.names & family), c.path, c.line

    return all(rank(collection) <= rank(other) for other, missing in found
               if missing == name and alternatives(collection, other))


def diagnostic(collection: Collection, name: str, families: Sequence[Predicate],
               siblings: Sequence[Tuple[str, str]] = ()) -> Diagnostic:
    evidence = " and ".join(f.where + _condition(f, name) for f in families)
    return Diagnostic(collection.path, collection.line, collection.column, RULE.code,
                      f"'{name}' is matched by {evidence} but missing from {collection.label}",
                      subject=collection.subject, member=name, fix=add_to(collection, name, siblings))


def _condition(family: Predicate, name: str) -> str:
    condition = family.condition_of(name)
    return f" [only {condition}]" if condition else ""


RULE = Rule(
    code="ARC101",
    name="family-member-missing",
    summary="a guarded collection holds part of a family but not all of it",
    what="A subject (a `*_ARCHS` collection, or any list, set, decorator argument list or inline test that holds "
         "a registered name) holds at least one name of a family (the names a predicate such as `is_qwen3_5()` "
         "matches, limited to registered names) but not all of them. Reported once per (subject, missing name) at "
         "the subject's definition, naming every family that implies the name. The kind guard keeps a subject "
         "from being told to hold a kind of name it does not hold: a multimodal list is not told to hold text-only "
         "twins, nor a list of served models draft variants (a kind is asked for where it is a fifth of the "
         "subject's names; see `lint_plugin/rules/kinds.py`: a name's spelling says its kind, and where it names "
         "no task, the project does: a list it names multimodal, or a class with no generation head serving it, "
         "as `BertModel`'s, which makes it an embedding model), unless every name of the subject is in the family "
         "(a draft, even then, only of a subject that holds one). An inline test of one name is not a subject "
         "here. How a subject is read counts too (ARC101, ARC104 and ARC105 alike): one found by shape that "
         "nothing reads (a predicate no "
         "code calls, a list whose name appears nowhere else) is not completed, nor an inline test whose branch "
         "does nothing (`elif arch in [...]: pass`, with no `else` and only tests of written names after it) or "
         "what the chain's `else` does (`elif arch in [...]: return 3` ... `else: return 3`); a "
         "table looked up with a Python class name (`MAP[type(model).__name__]`) is not told to hold a name "
         "the registry serves with another name's class. `archsync inventory` says which subjects these are. No "
         "list is asked for a name another branch of its if/elif chain tests (`elif arch in [...]`): that "
         "branch handles it on purpose; nor for one the other side of an `or` takes (`archs & {...} or "
         "model_type in {...}`); nor for one a chain of the list's own function tests in a branch apart from "
         "the list's names (lmdeploy's vision builder loads its InternS2 checkpoints in a branch of their own, "
         "and the test after that chain is about its two Qwen3.5 models). Nor for a name an if/elif chain of "
         "the list's module has no branch for, "
         "where that chain takes most of the list's names (three at least), one by one, in two branches or more "
         "(`get_hybrid_layer_ids` beside `is_hybrid_swa_model`'s list): that chain is the per-model half of what "
         "the list gates, and the name added to the list alone would reach code that does not handle it (unless "
         "one of its tests searches the list itself, `elif arch in HYBRID_ARCHS`, which takes whatever the list "
         "holds). Nor is a test written where only the values another list holds reach it (`if arch in "
         "SUPPORTED_ARCHS: ... elif arch in [...]`; the `elif`s of `if arch not in SUPPORTED_ARCHS`; the rest of "
         "a block after `if arch not in SUPPORTED_ARCHS: return` or `assert arch in SUPPORTED_ARCHS`; the terms "
         "after `arch in SUPPORTED_ARCHS and`) asked for a name that list lacks: only the names it holds reach "
         "the test (lmdeploy's TurboMind support check refines, model by model, what its table already "
         "supports).\n\n"
         "Lists of model types count too (ARC101, ARC102, ARC104 and ARC105 alike). A list a checkpoint's "
         "`model_type` is tested against (`config.model_type in (...)`, `TABLE[config.model_type]`, "
         "`TABLE.get(hf_config.model_type)`, `getattr(config, \"model_type\", None) == \"...\"`; the key "
         "spells `model_type`) whose strings are model types (`qwen3_5_moe`) is read as the registered "
         "architectures they name, and what it lacks is written as a model type. Which architectures a model "
         "type names comes from the auto-model mappings of a `transformers` release that ships with archsync "
         "(`lint_plugin/hosts/transformers.model_types.json`), or else from the stem an architecture spells "
         "(`deepseek_v3` and `DeepseekV3ForCausalLM`). An architecture two model types name is asked for by "
         "neither, and a test of one model type is a test of one name, however many architectures it names.",
    why="A new variant lands in the predicate and the registry but not in the whitelist; the server takes the "
        "wrong branch at launch (SGLang PR #35297).",
    fix_doc="Add the name to the collection (`archsync fix` does it where the collection is a literal).",
    exempt_doc="`# noqa: ARC101` on the reported line, or an exemption in `pyproject.toml`:\n\n"
               "```toml\n"
               "[[tool.archsync.exempt]]\n"
               "subject = \"_MAMBA_EXTRA_BUFFER_ARCHS\"\n"
               "members = [\"Qwen3_5ForCausalLM\"]\n"
               "reason = \"why this difference is intended\"\n"
               "```",
    examples=(
        Example("a whitelist of hybrid models that holds the multimodal Qwen3.5 but not its text-only twin", (
            _MODELS, _PREDICATE,
            ("arg_groups/overrides.py",
             "_MAMBA_EXTRA_BUFFER_ARCHS = frozenset({\"Qwen3NextForCausalLM\", "
             "\"Qwen3_5ForConditionalGeneration\"})\n"),
        ), ("arg_groups/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
            "(configs/model_config.py:1) but missing from _MAMBA_EXTRA_BUFFER_ARCHS",), corrected=(
            ("arg_groups/overrides.py",
             "_MAMBA_EXTRA_BUFFER_ARCHS = frozenset({\"Qwen3NextForCausalLM\", "
             "\"Qwen3_5ForConditionalGeneration\", \"Qwen3_5ForCausalLM\"})\n"),
        )),
        Example("a whitelist that holds the whole family", (
            _MODELS, _PREDICATE,
            ("arg_groups/overrides.py", "_MAMBA_EXTRA_BUFFER_ARCHS = frozenset({\n"
                                        "    \"Qwen3NextForCausalLM\",\n"
                                        "    \"Qwen3_5ForConditionalGeneration\",\n"
                                        "    \"Qwen3_5ForCausalLM\",\n})\n"),
        )),
        Example("a multimodal list is not told to hold text-only twins (the kind guard)", (
            _MODELS, _PREDICATE,
            ("managers/mm_utils.py", "_IMAGE_ARCHS = [\"Qwen3_5ForConditionalGeneration\", "
                                     "\"Qwen2VLForConditionalGeneration\"]\n"),
        )),
    ),
    check=check,
    fix="add",
    one_per_pair=True,
    one_per_cause=True,
    settings=("guard", "families", "registries", "universe-from", "name-pattern", "config-maps", "cover", "exempt"),
)
