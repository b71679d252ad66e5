"""ARC106 host-copy-behind: a plugin's copy of one of its host's lists lacks names the host's holds.

A plugin overrides a piece of its host and copies the list that piece tests (vllm-ascend's proposer
keeps vLLM's list of multimodal targets whose `image_token_id` the draft model takes). The host
adds a model to its list; the copy does not follow, and the plugin runs the new model down the
other branch. The host's lists come from archsync's snapshot of the host (`project/hosts.py`).

A copy holds mostly the host's names (more than half of its names, three at least, are in the
host's list) and sits where the host's list does. In a function or variable of the same name
(`load_model`; not a dunder such as `__init__`, which every class has) that is enough, and the copy
may lag far behind. In a file of the same name alone (`llm_base_proposer.py`: a plugin moves and
renames what it overrides), a weaker tie, the host's list must also be mostly in the copy, so a
small list of a file named like the host's large table (`config.py`) copies nothing. Names alone
do not make a copy: lists of popular models share three of them by chance (`["llama", "qwen2",
"qwen3", "qwen3_moe"]` and a vision model's table of `gemma2`, `llama`, `qwen2`, `qwen3`). Each
list of the plugin is compared with the host's list it shares the most with; a list of model types
with the host's lists of model types.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from ..diagnostics import Diagnostic, FixRequest
from ..project.hosts import HostList
from ..resolve import Collection, Model
from .fixes import add_to
from .rule import Example, Rule

SHARED = 3  # names a copy shares with the host's list at the least
NAME, FILE = "name", "file"  # how a copy's place ties to the host list's (`place_tie`)


def check(model: Model) -> List[Diagnostic]:
    """Each list the completion rules may complete, against the host's list it copies, if any."""
    if not model.host_lists:
        return []
    found: List[Diagnostic] = []
    for collection in model.collections:
        copied = copy_of(collection, model.host_lists)
        if copied is None:
            continue
        label, listed = copied
        held = collection.members.names
        shared = len(held.intersection(listed.names))
        for name in listed.names:
            if name not in held and name in model.registered and name not in collection.beside:
                found.append(diagnostic(collection, label, listed, name, shared, add_to(
                    collection, name, model.config.siblings)))
    return found


def copy_of(collection: Collection, host_lists: Tuple[Tuple[str, HostList], ...]
            ) -> Optional[Tuple[str, HostList]]:
    """The host's list `collection` copies: of those in its place holding most of its names, the one
    sharing the most (then the one it lacks the fewest of); None if there is none, or if `collection` is no
    list the completion rules may complete."""
    if not collection.completable:
        return None
    held = collection.members.names
    best: Optional[Tuple[Tuple[int, int, str, int], Tuple[str, HostList]]] = None
    for label, listed in host_lists:
        if listed.keyed != collection.keyed:
            continue
        shared = len(held.intersection(listed.names))
        if shared < SHARED or 2 * shared <= len(held):
            continue
        tie = place_tie(collection.path, collection.subject, listed.path, listed.subject)
        if tie is None or (tie == FILE and 2 * shared <= len(listed.names)):
            continue
        rank = (-shared, len(listed.names) - shared, listed.path, listed.line)
        if best is None or rank < best[0]:
            best = (rank, (label, listed))
    return None if best is None else best[1]


def place_tie(path: str, subject: str, host_path: str, host_subject: str) -> Optional[str]:
    """How a list sits where the host's does: NAME, in a function or variable of the same name
    (`AscendEagleProposer.load_model#1` and `SpecDecodeBaseProposer.load_model#1`, a dunder aside), else
    FILE, in a file of the same name; None if neither."""
    own, host_own = (s.partition("#")[0].rpartition(".")[2] for s in (subject, host_subject))
    if own == host_own and not own.startswith("__"):
        return NAME
    return FILE if path.rpartition("/")[2] == host_path.rpartition("/")[2] else None


def diagnostic(collection: Collection, label: str, listed: HostList, name: str, shared: int,
               fix: Optional[FixRequest] = None) -> Diagnostic:
    """Where the host's list is, said as written: it is no file of the project's (`place` marks those)."""
    return Diagnostic(collection.path, collection.line, collection.column, RULE.code,
                      f"'{name}' is missing from {collection.label}, which copies the host's list {listed.subject} "
                      f"at {listed.path}:{listed.line} ({shared} of the copy's {len(collection.members.names)} "
                      f"names are there), which holds it (archsync's snapshot of {label})",
                      subject=collection.subject, member=name, fix=fix)


_NAMES = ("Qwen2_5_VLForConditionalGeneration",
          "Qwen3VLForConditionalGeneration",
          "Qwen3VLMoeForConditionalGeneration",
          "Qwen3_5ForConditionalGeneration",
          "Qwen3_5MoeForConditionalGeneration",
          "Gemma4ForConditionalGeneration",
          "HunYuanVLForConditionalGeneration",
          "GlmOcrForConditionalGeneration",
          "Exaone4_5_ForConditionalGeneration",
          "MiMoV2OmniForCausalLM")


def _proposer(names: Tuple[str, ...], method: str = "load_model") -> Tuple[str, str]:
    return ("vllm_kestrel/proposer.py", f"class KestrelProposer:\n    def {method}(self, target):\n"
            "        if target.name in [\n" + "".join(f"            \"{n}\",\n" for n in names)
            + "        ]:\n            self.image_token_index = target.config.image_token_id\n")


_PLUGIN = ("pyproject.toml", "[project]\nname = \"vllm-kestrel\"\n\n"
                             "[project.entry-points.\"vllm.platform_plugins\"]\nkestrel = \"vllm_kestrel:register\"\n")

RULE = Rule(
    code="ARC106",
    name="host-copy-behind",
    summary="a plugin's copy of a list of its host's lacks names the host's list holds",
    what="A project that declares a host's plugin entry points (a vLLM plugin) is compared with archsync's "
         "snapshot of the host, which holds the host's lists of three registered names or more. A list of the "
         "plugin is a copy of one of the host's when more than half of its names, three at least, are in the "
         "host's list and it sits where the host's does: in a function or variable of the same name (a dunder "
         "aside), or in a file of the same name with the host's list also mostly in the copy. A name the host's "
         "list holds and the copy lacks is reported at the copy. The snapshot is dated, and may be older or "
         "newer than the host the plugin runs on (`archsync inventory` says which). `universe-from` reads the "
         "installed host's registrations alone, so with it there is no host list to compare a copy with.",
    why="A plugin that overrides a piece of its host keeps a copy of the list that piece tests, and the host "
        "keeps adding models to its own: vllm-ascend added `Gemma4ForConditionalGeneration` to its copy of vLLM's "
        "image-token list four months after vLLM had (its pull request 12948 says it aligns with upstream).",
    fix_doc="Add the name, as the host did, or exempt it where the plugin does not serve that model.",
    exempt_doc="`[[tool.archsync.exempt]]` with subject = the copy, or `# noqa: ARC106`.",
    examples=(
        Example("a plugin's copy of vLLM's image-token list, behind the host's", (_PLUGIN, _proposer(_NAMES)), (
            "vllm_kestrel/proposer.py:3:27: ARC106 'InternS2PreviewForConditionalGeneration' is missing from "
            "KestrelProposer.load_model#1, which copies the host's list SpecDecodeBaseProposer.load_model#1 at "
            "vllm/v1/spec_decode/llm_base_proposer.py:1301 (10 of the copy's 10 names are there), which holds it "
            "(archsync's snapshot of vllm 28be48fa944d of 2026-05-24 (local-inference-lab/vllm))",),
            corrected=(_proposer(_NAMES + ("InternS2PreviewForConditionalGeneration",)),)),
        Example("the same names somewhere the host's list is not: no copy", (
            _PLUGIN, _proposer(_NAMES, method="pad_token_for"),
        )),
    ),
    check=check,
    fix="add",
    one_per_pair=True,
    one_per_cause=True,
    settings=("universe-from", "exempt"),
    severity="warning",
)
