"""Stage 3, resolution: names followed across modules into collections, predicates and families."""
from .chosen import choose_and_build
from .memory import ResolveMemory
from .model import Model, build_model
from .selection import choose_files
from .values import Collection, Occurrence, Predicate, Registration, ResolvedSet

__all__ = ["Collection", "Model", "Occurrence", "Predicate", "Registration", "ResolveMemory", "ResolvedSet",
           "build_model", "choose_and_build", "choose_files"]
