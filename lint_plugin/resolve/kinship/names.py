"""Evidence read from spellings: name variants, generations of a lineage, slips, and the configured siblings."""
from __future__ import annotations

import functools
import re
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from ..values import Occurrence
from . import weights
from .evidence import GAP, SLIP, Evidence

TASK = re.compile(r"(?:For[A-Z]\w*|LMHeadModel|Model|LM)$")
# a task in a name's own spelling (`...ForSequenceClassification`, `...ForCausalLM`): where its stem ends
SPELT_TASK = re.compile(r"For[A-Z]")
MOE = re.compile(r"Mo[eE]")
VERSION = re.compile(r"(.+?)_?V\d+(?:_\d+)?")
GENERATION = re.compile(r"([A-Za-z]+)(\d+(?:[._]\d+)?)?(.*)")
VISION = re.compile(r"_?VL_?|Vision|(?<=\d)[vV](?![a-zL])")

VARIANT_TEXTS = {  # how each way `variant` tells is said; its weight is `weights.VARIANTS`
    "moe": "is a dense/MoE variant of '{kin}'",
    "version": "is a versioned variant of '{kin}'",
    "earlier": "is an earlier version of '{kin}'",
    "vision": "is the vision-language twin of '{kin}'",
    "generation": "is a newer generation of '{kin}'",
}


@functools.lru_cache(maxsize=1 << 16)  # a pure function of two names: weighed for pair after pair, run after run
def variant(name: str, kin: str) -> Optional[str]:
    """How `name` varies `kin` by its spelling, if it does; both must have one task suffix.

    "moe": `X` / `XMoe`; "version": `XV2` beside `X` ("earlier": `X` beside `XV2`);
    "vision": `Qwen3` / `Qwen3VL`, `Glm4Moe` /
    `Glm4vMoe` (the task suffix may differ); "generation": a newer number of one lineage
    (`Qwen2` -> `Qwen3`, `Qwen2VL` -> `Qwen2_5_VL`, `InternLM` -> `InternLM2`).
    """
    a, b = TASK.search(name), TASK.search(kin)
    if a is None or b is None or a.start() == 0 or b.start() == 0:
        return None
    stem, kin_stem = name[:a.start()], kin[:b.start()]
    if stem == kin_stem:
        return None
    if VISION.sub("", stem) == VISION.sub("", kin_stem) and bool(VISION.search(stem)) != bool(
            VISION.search(kin_stem)):
        return "vision"
    if a.group() != b.group():
        return None
    if MOE.sub("", stem) == MOE.sub("", kin_stem) and bool(MOE.search(stem)) != bool(MOE.search(kin_stem)):
        return "moe"
    for versioned, plain, kind in ((stem, kin_stem, "version"), (kin_stem, stem, "earlier")):
        match = VERSION.fullmatch(versioned)
        if match and match.group(1) == plain and len(plain) >= 4:
            return kind
    mine, theirs = GENERATION.fullmatch(stem), GENERATION.fullmatch(kin_stem)
    if mine and theirs and mine.group(1) == theirs.group(1) and \
            MOE.sub("", mine.group(3)).strip("_") == MOE.sub("", theirs.group(3)).strip("_") and \
            generation_number(mine.group(2)) > generation_number(theirs.group(2)):
        return "generation"
    return None


def spells_experts(name: str) -> bool:
    """Does a name's stem say it is a mixture-of-experts model (`Qwen3_5MoeForConditionalGeneration`)?"""
    task = TASK.search(name)
    return MOE.search(name[:task.start()] if task and task.start() else name) is not None


def generation_number(version: Optional[str]) -> float:
    """`2_5` -> 2.5; no number is the first generation."""
    return float(version.replace("_", ".")) if version else 1.0


@functools.lru_cache(maxsize=1 << 14)  # asked of every registered name in every run
def variant_keys(name: str) -> Tuple[str, ...]:
    """Keys two variants share: the stem without `Moe`, and a versioned stem's unversioned one."""
    task = TASK.search(name)
    if task is None or task.start() == 0:
        return ()
    stem, suffix = name[:task.start()], task.group()
    keys = [f"moe:{MOE.sub('', stem)}{suffix}", f"vision:{VISION.sub('', stem)}"]
    match = VERSION.fullmatch(stem)
    keys.append(f"version:{match.group(1) if match else stem}{suffix}")
    generation = GENERATION.fullmatch(stem)
    if generation:
        keys.append(f"generation:{generation.group(1)}:{MOE.sub('', generation.group(3)).strip('_')}{suffix}")
    return tuple(keys)


@functools.lru_cache(maxsize=1 << 14)
def generation(name: str) -> Optional[Tuple[str, float, str, str]]:
    """(lineage, number, the rest of the stem, task) of `Gemma3nForCausalLM`: ("Gemma", 3.0, "n", "ForCausalLM").

    A number of several digits run together (`DeepseekV32`: 3.2, not 32) says no order.
    """
    task = TASK.search(name)
    if task is None or task.start() == 0:
        return None
    match = GENERATION.fullmatch(name[:task.start()])
    if match is None or match.group(2) is None or len(match.group(2)) > 1 and match.group(2).isdigit():
        return None
    return match.group(1), generation_number(match.group(2)), MOE.sub("", match.group(3)).strip("_"), task.group()


def gaps(name: str, held: Iterable[str]) -> List[Evidence]:
    """A generation of a lineage between two the subject holds: the list skipped it.

    A list of `Gemma2ForCausalLM` and `Gemma3nForCausalLM` (a variant of the third generation) that
    lacks `Gemma3ForCausalLM`, a newer generation of the one and no newer than the other, holds the
    lineage on both sides of it. The name must be a newer generation of a held name (same lineage,
    task suffix and kind of model), so the lineage's first model, its other kinds (`Qwen3Next`,
    a vision twin) and anything past the newest held generation are not asked for. The upper bound
    is a newer generation of the same kind, or a variant of the name itself at its generation
    (`Gemma3n` of `Gemma3`): another kind of the same generation (`Qwen3Omni` for `Qwen3VL`) is not.
    """
    mine = generation(name)
    if mine is None:
        return []
    held = sorted(held)
    for lower in held:
        if variant(name, lower) != "generation":
            continue
        for upper in held:
            theirs = generation(upper)
            if theirs and theirs[0] == mine[0] and theirs[3] == mine[3] and (
                    theirs[1] > mine[1] and theirs[2] == mine[2] or theirs[1] == mine[1] and theirs[2] != mine[2]
                    and theirs[2].startswith(mine[2])):
                return [Evidence(GAP, weights.GAP_IN_GENERATIONS,
                                 upper, f"is a generation between '{lower}' and '{upper}', which "
                                        "the subject holds")]
    return []


def slips(name: str, literals: Iterable[Sequence[Occurrence]]) -> List[Evidence]:
    """A literal that writes one name twice and lacks a spelling variant of it: the copy meant the variant.

    `["BailingMoeV2ForCausalLM", "BailingMoeV2ForCausalLM"]` where `BailingMoeForCausalLM` is
    registered is an edit that copied a line and did not finish renaming it.
    """
    found = []
    for literal in literals:
        seen: Set[str] = set()
        for occurrence in literal:
            if occurrence.name in seen and variant(name, occurrence.name):
                found.append(Evidence(SLIP, weights.SLIP_OF_A_COPY,
                                      occurrence.name, f"may be what the second '{occurrence.name}' "
                                                       f"(line {occurrence.line}) was meant to say"))
            seen.add(occurrence.name)
    return found


def siblings_of(name: str, siblings: Sequence[Tuple[str, str]]) -> Iterator[Tuple[str, Tuple[str, str]]]:
    """Each sibling `name` has by the configured suffix pairs, with (its suffix, the sibling's)."""
    for first, second in siblings:
        for suffix, other in ((first, second), (second, first)):
            if name.endswith(suffix) and len(name) > len(suffix):
                yield name[: -len(suffix)] + other, (suffix, other)


def sibling_pair(name: str, kin: str, siblings: Sequence[Tuple[str, str]]) -> Optional[Tuple[str, str]]:
    """The configured suffix pair (kin's suffix, name's) that makes `name` the sibling of `kin`, if one does."""
    return next((pair for sibling, pair in siblings_of(kin, siblings) if sibling == name), None)


def missing_siblings(held: Iterable[str], registered: Mapping[str, object],
                     siblings: Sequence[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """(held name, its registered sibling that is not held): what ARC104 asks for."""
    held = frozenset(held)
    found: Dict[str, str] = {}
    for name in held:
        for sibling, _ in siblings_of(name, siblings):
            if sibling in registered and sibling not in held:
                found.setdefault(sibling, name)
    return [(name, sibling) for sibling, name in found.items()]
