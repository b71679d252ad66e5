"""ARC107 new-name-missing: a change registers an architecture and leaves out a list that, as the code stands, takes it.

Judged only against a baseline commit (`archsync check --baseline-commit REV`): what is new is the evidence.
"""
from __future__ import annotations

from typing import AbstractSet, Dict, FrozenSet, List, Optional, Tuple

from ..diagnostics import Diagnostic
from ..resolve import Collection, Model
from ..resolve.kinship import IMPLEMENTATION, SUBCLASS, Evidence, of_one_line, weights
from ..resolve.namesakes import namesakes
from .arc105_kin_missing import add_beside_kin, not_models_of
from .chains import function_of
from .fixes import add_to
from .kin_guards import blocked, not_a_list_to_complete, one_name_test
from .kinds import CLASSIFICATION, DRAFT, MULTIMODAL, accepts, kind
from .rule import Example, Rule

# A list of one kind of model that held this share of the kind's registered names at the baseline is the
# project's list of that kind (lmdeploy's `check_vl_llm()`, SGLang's `multimodal_model_archs`): a name of the
# kind the change registers belongs in it. Measured on the history replays of new models (bench/history,
# `--new-models`, the tuned half) and on twelve real trees, where only such master lists reach it.
COVERAGE = 0.85
PURITY = 0.9  # the share of the list's registered names that are of the kind
MIN_KIND = 5  # names of the kind registered at the baseline, at least: fewer say nothing of a habit
_KINDS = (MULTIMODAL, DRAFT, CLASSIFICATION)  # text is what every other list holds: no list is "of text"
_KIND = "kind"  # the evidence of a list of one kind (`_of_its_kind`)
_KIND_WORDS = {MULTIMODAL: "multimodal", DRAFT: "draft (speculative)", CLASSIFICATION: "classification or embedding"}


def check_new(model: Model, baseline: Model) -> List[Diagnostic]:
    """Each name `model` registers and `baseline` did not, asked of the lists that take it (module docstring)."""
    new = frozenset(model.registered) - frozenset(baseline.registered)
    if not new:
        return []
    then = {(c.path, c.subject): c for c in baseline.collections}
    copies = namesakes(model.collections)
    tested = _tested_by_function(model)
    of_kinds = _by_kind(baseline)
    decided = _decided_by_predicates(baseline)
    extended = _extended_chains(model, baseline)
    found: List[Diagnostic] = []
    for c in model.collections:
        held = c.members.names & model.registered.keys()
        before = then.get((c.path, c.subject))
        one_name = one_name_test(c, held)
        if before is None or before.members.names & baseline.registered.keys() != held - new or not held \
                or (not_a_list_to_complete(c, held) and not one_name) or (c.path, c.subject) in extended:
            continue  # a list the change wrote, or changed but by adding new names, is what its author decided
        names = sorted(new - c.members.names - tested.get((c.path, function_of(c.subject)), frozenset()))
        if not names:
            continue
        others = copies.get((c.path, c.subject), ())
        predicate = _predicate_of(before, decided)
        shares = _shares(baseline, before, of_kinds, decided.get((c.path, predicate), frozenset()), predicate) \
            if not one_name else {}
        for name in names:
            evidence = _of_its_kind(model, shares, name) or (
                None if c.table else _runs_held_code(model, held, name, one_name))
            if evidence is None or blocked(model, c, held, name, [evidence], others) \
                    or not accepts(c.members.names, name, said=model.said):
                continue  # ARC105's guards, the kind guard among them: a draft is not asked of served models
            of_kind = evidence.kind == _KIND
            found.append(Diagnostic(c.path, c.line, c.column, RULE.code,
                                    f"'{name}', which the change registers, may belong in {c.label}: "
                                    f"{evidence.text if of_kind else 'it ' + evidence.text}",
                                    subject=c.subject, member=name,
                                    fix=add_to(c, name, ()) if of_kind else add_beside_kin(c, name, [evidence])))
    return found


def _extended_chains(model: Model, baseline: Model) -> FrozenSet[Tuple[str, str]]:
    """(path, subject) of each list tested in a branch of an if/elif chain to which the change added a test: its
    author decided what the chain does with the model it adds, in a branch of its own that may name none (LightLLM's
    tokenizer chain took Qwen3-Omni with `elif model_cfg.get("thinker_config") is not None:`, and its Qwen3-VL
    branch, whose class Omni's subclasses, is not where it goes)."""
    then = {(d.path, subject): d.tests for chains in baseline.dispatches.values() for d in chains
            for subject in d.subjects}
    return frozenset((d.path, subject) for chains in model.dispatches.values() for d in chains
                     for subject in d.subjects if d.tests > then.get((d.path, subject), d.tests))


def _tested_by_function(model: Model) -> Dict[Tuple[str, str], FrozenSet[str]]:
    """By (path, function), the names its inline tests hold: a new name one of them tests is handled there
    (vLLM's `hf_config_override` renames MiMo-V2-Pro in one `if` and tests MiMo-V2-Flash, its base, in the
    next: the change put the name where the function takes it)."""
    found: Dict[Tuple[str, str], FrozenSet[str]] = {}
    for c in model.collections:
        function = function_of(c.subject)
        if function:
            key = (c.path, function)
            found[key] = found.get(key, frozenset()) | c.members.names
    return found


def _by_kind(baseline: Model) -> Dict[str, List[str]]:
    """The paths of the baseline's registrations of each kind a list may be of."""
    found: Dict[str, List[str]] = {wanted: [] for wanted in _KINDS}
    for name, where in baseline.registered.items():
        paths = found.get(kind(name, baseline.said))
        if paths is not None:
            paths.append(where.path)
    return found


def _decided_by_predicates(baseline: Model) -> Dict[Tuple[str, str], FrozenSet[str]]:
    """By (path, predicate), the names the inline tests of a predicate function hold at the baseline: what it
    decides (lmdeploy's `check_vl_llm()` tests a list, and ChatGLM's multimodal checkpoint in a branch of its own)."""
    return {(path, function): names for (path, function), names in _tested_by_function(baseline).items()
            if function in baseline.predicates and baseline.predicates[function].path == path}


def _predicate_of(collection: Collection, decided: Dict[Tuple[str, str], FrozenSet[str]]) -> str:
    """The predicate function a list or test is written in, or ""."""
    function = function_of(collection.subject) or (
        collection.subject.rpartition(".")[0] if collection.scope == "local" else "")
    return function if (collection.path, function) in decided else ""


def _shares(baseline: Model, before: Collection, of_kinds: Dict[str, List[str]], decided: FrozenSet[str] = frozenset(),
            predicate: str = "") -> Dict[str, Tuple[int, int, str, str]]:
    """By kind, for a list that was the baseline's list of that kind: (names of the kind it held, names of the
    kind registered beside it, where that is: `_beside`, and how much of the kind it held with the other tests of
    its predicate function, `decided`, where those held more). The list is of one kind by what it holds itself;
    the predicate it is written in decides with all of its tests."""
    part = _beside(before.path)
    held = before.members.names & baseline.registered.keys()
    beside = [n for n in held if _within(baseline.registered[n].path, part)]
    with_predicate = [n for n in (decided | held) & baseline.registered.keys()
                      if _within(baseline.registered[n].path, part)]
    found = {}
    for wanted, paths in of_kinds.items():
        of_kind = sum(1 for path in paths if _within(path, part))
        mine = sum(1 for n in beside if kind(n, baseline.said) == wanted)
        covered = sum(1 for n in with_predicate if kind(n, baseline.said) == wanted)
        if of_kind >= MIN_KIND and mine >= PURITY * len(held) and covered >= COVERAGE * of_kind:
            found[wanted] = (mine, of_kind, part,
                             f" ({covered} with the other tests of {predicate}())" if covered > mine else "")
    return found


def _of_its_kind(model: Model, shares: Dict[str, Tuple[int, int, str, str]], name: str) -> Optional[Evidence]:
    """Why the list of a kind takes a new name of that kind, registered beside it; or None."""
    wanted = kind(name, model.said)
    if wanted not in shares or not _within(model.registered[name].path, shares[wanted][2]):
        return None
    mine, of_kind, part, with_predicate = shares[wanted]
    where = f"under {part}/" if part else "in the project"
    return Evidence(_KIND, 1.0, "", f"it held {mine}{with_predicate} of the {of_kind} {_KIND_WORDS[wanted]} "
                                     f"architectures registered {where} at the baseline, and this is one")


def _runs_held_code(model: Model, held: AbstractSet[str], name: str, one_name: bool) -> Optional[Evidence]:
    """The strongest tie saying the new name, a model of a held name's line (a version of it, or of its lineage and
    task), runs that name's code, or None: registered to its class (or an alias of it), or a subclass of its class;
    of a list, a subclass whatever it overrides (what it does not override is the held model's, and the change's
    author decides what the list gates), of a test of one name (`one_name`) only one that defines no method: the
    same code, which the test takes under a second name. Another model that reuses the code (Mistral, for Llama's
    class; a model built by subclassing Llama's) is left to the lists that say so (ARC105); classes that build
    no model (a converter's) run no model's code (ARC105's `_set_aside`)."""
    def runs_its_code(e: Evidence) -> bool:
        if e.kind == IMPLEMENTATION:
            return True
        same_code = e.weight >= weights.THIN_SUBCLASS  # a subclass that defines no method
        return e.kind == SUBCLASS and model.kinship.subclasses(name, e.kin) and (same_code or not one_name)

    ties = [e for e in model.kinship.evidence(name, held)
            if of_one_line(name, e.kin) and runs_its_code(e) and not not_models_of(model, name, e.kin)]
    return ties[0] if ties else None


def _beside(path: str) -> str:
    """Where the registrations a list at `path` is weighed against are: under the directory above the list's
    own ("" for the whole project). SGLang's `multimodal_model_archs`, in `sglang/srt/configs/`, beside the
    models of `sglang/srt/models/`, not the diffusion models of `sglang/multimodal_gen/`; lmdeploy's
    `check_vl_llm()`, in `lmdeploy/`, beside every engine's."""
    return path.rpartition("/")[0].rpartition("/")[0]


def _within(path: str, part: str) -> bool:
    """Is a registration at `path` under the directory `part` ("": anywhere in the project)?"""
    return not part or path.startswith(part + "/")


_MODELS_THEN = ("models/registry.py", "from .kestrel import KestrelForCausalLM\n"
                                      "from .kestrel_vl import KestrelVLForConditionalGeneration\n"
                                      "from .magpie_vl import MagpieVLForConditionalGeneration\n"
                                      "from .wren_vl import WrenVLForConditionalGeneration\n"
                                      "from .robin_vl import RobinVLForConditionalGeneration\n"
                                      "from .finch_vl import FinchVLForConditionalGeneration\n\n"
                                      "EntryClass = [KestrelForCausalLM, KestrelVLForConditionalGeneration, "
                                      "MagpieVLForConditionalGeneration,\n"
                                      "              WrenVLForConditionalGeneration, RobinVLForConditionalGeneration, "
                                      "FinchVLForConditionalGeneration]\n")
_MODELS_NOW = ("models/registry.py", _MODELS_THEN[1].replace(
    "from .finch_vl import FinchVLForConditionalGeneration\n",
    "from .finch_vl import FinchVLForConditionalGeneration\nfrom .heron_vl import HeronVLForConditionalGeneration\n")
    .replace("FinchVLForConditionalGeneration]", "FinchVLForConditionalGeneration,\n"
                                                 "              HeronVLForConditionalGeneration]"))
_VL_LIST = ("configs/multimodal.py", "MULTIMODAL_ARCHS = [\n" + "".join(
    f"    \"{stem}VLForConditionalGeneration\",\n" for stem in ("Kestrel", "Magpie", "Wren", "Robin", "Finch")) + "]\n")
_KESTREL_THEN = ("models/kestrel.py", "class KestrelForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                                      "EntryClass = [KestrelForCausalLM]\n")
_KESTREL_NOW = ("models/kestrel.py", "class KestrelForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                                     "class KestrelV2ForCausalLM(KestrelForCausalLM):\n    pass\n\n\n"
                                     "class MagpieForCausalLM(KestrelForCausalLM):\n    pass\n\n\n"
                                     "EntryClass = [KestrelForCausalLM, KestrelV2ForCausalLM, MagpieForCausalLM]\n")
_TEMPLATES = ("chat/templates.py", "CHAT_TEMPLATES = {\n    \"KestrelForCausalLM\": \"kestrel-chat\",\n"
                                   "    \"MagpieForCausalLM\": \"magpie-chat\",\n}\n")
_MLA = ("layers/attention.py", "def attention_backend(config):\n"
                               "    if config.architectures[0] == \"KestrelForCausalLM\":\n"
                               "        return \"mla\"\n"
                               "    return \"mha\"\n")

RULE = Rule(
    code="ARC107",
    name="new-name-missing",
    summary="a change registers an architecture and leaves out a list that takes it",
    what="\n\n".join((
        "Judged against a baseline commit only: `archsync check --baseline-commit REV` (pull-request CI, or "
        "`HEAD` before a commit) and `archsync fix --baseline-commit REV`. A name the tree registers and the "
        "baseline did not is a model the change adds, and no list holds it yet: ARC105's test that the project "
        "treats two names alike in its lists cannot be met by a name that is in none. What the change shows "
        "instead, ARC107 asks of every list it applies to:",
        "\n".join((
            f"- a list of one kind of model (multimodal, draft, or classification and embedding: at least "
            f"{PURITY:.0%} of its registered names) that held at least {COVERAGE:.0%} of the {MIN_KIND} or more "
            "names of that kind registered beside it at the baseline (under the directory above its own: SGLang's "
            "`multimodal_model_archs`, in `sglang/srt/configs/`, counts the models of `sglang/srt/`, not the "
            "diffusion models of `sglang/multimodal_gen/`) is the project's list of that kind, and a new name of the "
            "kind registered there belongs in it (lmdeploy's `check_vl_llm()`, SGLang's `is_generation_model()`). "
            "A list in a predicate function holds, for this count, what the predicate's other tests hold too: "
            "`check_vl_llm()` tests ChatGLM's multimodal checkpoint in a branch of its own. A name that names no "
            "task (`BertModel`, `Contriever`) is of the classification and embedding kind when the class serving "
            "it and every base the project gives that class are spelt as no generation head (`...ForCausalLM`, "
            "`...ForConditionalGeneration`, `...LMHeadModel`, `...LM`) and its module imports none;",
            "- a list or a test of one name that holds a name whose code the new name runs (registered to its "
            "class, or a subclass of its class that defines no method), where the new name is of that name's line: "
            "a version of it, or of its lineage and task (`DeepseekV3ForCausalLM`, subclassing "
            "`DeepseekV2ForCausalLM`, in `\"DeepseekV2ForCausalLM\" in architectures`). A list is asked for a "
            "subclass of its name's line that overrides methods too (vLLM's `Qwen3_5ForConditionalGeneration`, "
            "subclassing `Qwen3VLForConditionalGeneration`, in its speculative decoding's list of models whose "
            "image token the config names): what the subclass does not override is the held model's code, and the "
            "change's author decides what the list gates; a test of one name singles that model out, and takes "
            "only its code under a second name. Another model that reuses the code (Mistral, for Llama's class, or "
            "a model built by subclassing Llama's) is held by a list one by one: ARC105 weighs them.",
        )),
        "Only a list or test the baseline had, holding what it held then (new names aside), is asked: one the "
        "change writes or rewrites is its author's decision, taken with the new names in view. A table of "
        "per-name values (a dict whose values differ from key to key: another engine's model kinds, chat "
        "templates) is asked only as the list of its kind: what code a name runs says nothing of its value there.",
        "ARC105's guards hold, the kind guard among them (a draft variant is not asked of a list of served models, "
        "nor a text model of a list of multimodal ones), and so do the chains: a name another branch of the list's "
        "chain tests, or a chain of its function tells apart, or a test inside a test of the same value against "
        "a list that lacks it (`if arch in SUPPORTED_ARCHS:`), is not asked; nor is one another test of the same "
        "function holds (the change put it where the function takes it), nor a list of a chain the change added "
        "a test to, one that names no model among them (LightLLM's tokenizer chain gained `elif "
        "model_cfg.get(\"thinker_config\") is not None:` for Qwen3-Omni: its Qwen3-VL branch is not where Omni "
        "goes, though Omni's class subclasses Qwen3-VL-MoE's). What ARC105 refuses a second spelling "
        "of a class, or a test of one name, it does not refuse a new name of the held name's line, registered to "
        "its class or subclassing it: `arch == X` becomes `arch in (X, Y)`. A pair ARC105 reports is reported "
        "once, by ARC105.",
    )),
    why="A new model lands with its registration and a few of the lists it needs; the others are found at launch. "
        "In SGLang, `DeepseekV3ForCausalLM` was registered as a subclass of `DeepseekV2ForCausalLM` in the same "
        "change that had to widen `\"DeepseekV2ForCausalLM\" in architectures` for MLA; in lmdeploy, each new "
        "vision-language model had to be added to `check_vl_llm()`, which held every other one.",
    fix_doc="Add the name, or exempt it when the list leaves the new model out on purpose.",
    exempt_doc="`[[tool.archsync.exempt]]` or `# noqa: ARC107`.",
    examples=(
        Example("the change registers a sixth vision-language model; the list that held the other five lacks it", (
            _MODELS_NOW, _VL_LIST,
        ), ("configs/multimodal.py:1:1: ARC107 'HeronVLForConditionalGeneration', which the change registers, may "
            "belong in MULTIMODAL_ARCHS: it held 5 of the 5 multimodal architectures registered in the project at "
            "the baseline, and this is one",),
            corrected=(("configs/multimodal.py", _VL_LIST[1].replace(
                "]\n", "    \"HeronVLForConditionalGeneration\",\n]\n")),),
            baseline=(_MODELS_THEN,)),
        Example("the change registers the next version of a model, subclassing it; a test of the first lacks it", (
            _KESTREL_NOW, _MLA,
        ), ("layers/attention.py:2:8: ARC107 'KestrelV2ForCausalLM', which the change registers, may belong in "
            "attention_backend#1: it runs the code of 'KestrelForCausalLM' (`class KestrelV2ForCausalLM("
            "KestrelForCausalLM)` defines no method, at models/kestrel.py:6)",),
            corrected=(("layers/attention.py", _MLA[1].replace(
                "== \"KestrelForCausalLM\"", "in (\"KestrelForCausalLM\", \"KestrelV2ForCausalLM\")")),),
            baseline=(_KESTREL_THEN,)),
        Example("another model that reuses the code is not asked: Magpie is not of Kestrel's line", (
            _KESTREL_NOW,
            ("layers/rope.py", "SCALED_ROPE_ARCHS = [\"KestrelForCausalLM\", \"KestrelV2ForCausalLM\"]\n"),
        ), baseline=(_KESTREL_THEN, ("layers/rope.py", "SCALED_ROPE_ARCHS = [\"KestrelForCausalLM\"]\n"))),
        Example("the change tests the new version in a branch of its own, in the function that tests the first", (
            _KESTREL_NOW, ("layers/attention.py", _MLA[1].replace(
                "def attention_backend(config):\n",
                "def attention_backend(config):\n    if config.architectures[0] == \"KestrelV2ForCausalLM\":\n"
                "        return \"mla-v2\"\n")),
        ), baseline=(_KESTREL_THEN, ("layers/attention.py", _MLA[1]))),
        Example("the change writes the test too: its author decided what it holds", (
            _KESTREL_NOW, _MLA,
        ), baseline=(_KESTREL_THEN, ("layers/attention.py", None))),
        Example("a table of per-name values: the code a name runs says nothing of its value", (
            _KESTREL_NOW, _TEMPLATES,
        ), baseline=(_KESTREL_THEN,)),
        Example("without a baseline nothing is new: `archsync check` alone never reports it", (
            _KESTREL_NOW, _MLA,
        )),
    ),
    check_new=check_new,
    severity="warning",
    fix="add",
    one_per_pair=True,
    one_per_cause=True,
    settings=("guard", "registries", "universe-from", "exempt"),
)

