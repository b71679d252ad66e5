"""Registry-shaped tables of another package's classes: what a backend serves, not what the project registers.

`{"LlamaForCausalLM": ("neuronx_distributed_inference.models.llama.modeling_llama",
"NeuronLlamaForCausalLM")}` binds names to classes like a registry, but every class lives in a
package the project does not hold: the table lists which of the project's architectures that
backend runs, and a name the project serves can be missing from it. Such a table is a subject.
Only absolute paths count (`pkg.module`): a registry's bare module (`("llama", "LlamaForCausalLM")`)
is relative to the package that holds the models, and so is a package and module under it (written
`.qwen3_omni.qwen3_omni_thinker`, `extract/registrations.py`).
"""
from __future__ import annotations

from typing import AbstractSet, FrozenSet, Iterable, Set, Tuple

from ..extract.facts import FileFacts, RegistrationFact
from .served import is_not_served


def foreign_registries(facts: Iterable[FileFacts], packages: AbstractSet[str]) -> FrozenSet[Tuple[str, str]]:
    """(module, registry) of each registry whose every implementation is a class of a package not in `packages`."""
    found: Set[Tuple[str, str]] = set()
    for file_facts in facts:
        mine = {r.registry for r in file_facts.registrations if not _foreign(r, packages)}
        found.update((file_facts.module, r.registry) for r in file_facts.registrations
                     if r.registry not in mine and _foreign(r, packages))
    return frozenset(found)


def _foreign(registration: RegistrationFact, packages: AbstractSet[str]) -> bool:
    if not registration.names or len(registration.implementations) != len(registration.names):
        return False
    return all(_outside(implementation, packages) for implementation in registration.implementations)


def _outside(implementation: str, packages: AbstractSet[str]) -> bool:
    module = implementation.rpartition(":")[0]
    return "." in module and not module.startswith(".") and module.partition(".")[0] not in packages


def modules_registered_into(facts: Iterable[FileFacts]) -> FrozenSet[str]:
    """The modules outside the project whose registries its served code registers into (`ModelRegistry.register_model`
    from `vllm`): a test's or an example's registration makes no host (`served.py`)."""
    return frozenset(module for f in facts if not is_not_served(f.path) for module in f.registers_into)
