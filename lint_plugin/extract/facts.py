"""Plain, JSON-friendly facts read from one file, before any cross-module resolution.

Facts never hold parser nodes: they are small frozen values so they can be cached,
compared and handed across processes. Names defined in other modules stay symbolic
(`Ref`) until the project index resolves them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple, Union


@dataclass(frozen=True)
class Member:
    """One string constant inside a collection literal, with its 1-based position."""

    name: str
    line: int
    column: int


@dataclass(frozen=True)
class Literal:
    """Members written out in the source.

    `valued`: the keys of a dict whose values differ from key to key (`{"gemma2": "<unused0>", "llama":
    "<|reserved|>"}`, a table of per-name values: tokens, templates, another engine's classes), not a set of
    names written as a dict (`{"A": True, "B": True}`). `values`: in such a table whose every value is a
    string, the string each member maps to, in order (`dict(DeepseekV2ForCausalLM="deepseek2")`): where it
    is the key of a registry of the project's own, the table says which of its classes serves the name."""

    members: Tuple[Member, ...]
    valued: bool = False
    values: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Ref:
    """A name to resolve later: `name` in module `module` (a dotted module name)."""

    module: str
    name: str
    line: int


@dataclass(frozen=True)
class Unknown:
    """Something the extractor could not follow, and why."""

    reason: str
    line: int


def names_a_piece(text: str) -> bool:
    """Can a shape test of this text be a test of names? One character (`"_" in s`, `"E" in s`)
    is in too many names to tell any apart."""
    return len(text) >= 2


@dataclass(frozen=True)
class Pattern:
    """A name test by shape (`x.startswith("P")`, `"Sub" in x`): matches registered names.

    `kind` is "prefix", "suffix" or "substring".
    """

    kind: str
    text: str
    line: int

    def matches(self, name: str) -> bool:
        if self.kind == "prefix":
            return name.startswith(self.text)
        if self.kind == "suffix":
            return name.endswith(self.text) and starts_a_word(name, len(name) - len(self.text))
        return piece_at_a_word(self.text, name)


@dataclass(frozen=True)
class PatternRef:
    """A name test by shape against a value named elsewhere (`arch.startswith(PREFIX)`).

    Resolution reads what `ref` names (a string, or a collection of them) and tests by each as
    `Pattern(kind, text)` does.
    """

    kind: str
    ref: Ref


def starts_a_word(name: str, at: int) -> bool:
    """Does a word of `name` begin at `at`: its start, after a character that is no letter or digit
    (`_`, `-`, `.`), at a capital, or where letters give way to digits or back
    (`Qwen3_5MoeForCausalLM`: Qwen, 3, 5, Moe, For, ...)?"""
    if at <= 0:
        return True
    before, here = name[at - 1], name[at]
    return not before.isalnum() or here.isupper() or before.isdigit() != here.isdigit()


def piece_at_a_word(text: str, name: str) -> bool:
    """Is `text` in `name` where a word begins? `"Moe"` is in `Qwen3MoeForCausalLM` and `"moe"` in
    `qwen3_moe`; `"moe"` is not in `AfmoeForCausalLM`, nor `"dit"` in `...ConditionalGeneration`."""
    at = name.find(text)
    while at != -1:
        if starts_a_word(name, at):
            return True
        at = name.find(text, at + 1)
    return False


Part = Union[Literal, Ref, Unknown, Pattern, PatternRef]


# Where a collection is written, which decides when it is a subject by default.
MODULE, CLASS, LOCAL, INLINE, DECORATOR = "module", "class", "local", "inline", "decorator"
# an inline test whose branch writes an architecture name (`if arch in [A, B]: arch = "ANextN"`):
# a dispatch, where telling names apart is the point; never a list to complete
DISPATCH = "dispatch"
# an inline test whose branch does nothing (`elif arch in [A, B]: pass`) at the end of a chain of literal
# tests: nothing reads which names it holds, so it is never a list to complete (often a comment kept as code)
INERT = "inert"
SCOPES = (MODULE, CLASS, LOCAL, INLINE, DECORATOR, DISPATCH, INERT)


@dataclass(frozen=True)
class CollectionFact:
    """A set of strings bound to a name, or written where a value is tested: the union of its parts.

    `name` is stable under edits elsewhere in the file: `NAME` at module level,
    `Class.attr`, `function.variable` for a local, `function#2` for the second literal
    tested in a function, `@decorator:function` for a decorator's arguments.
    """

    name: str
    line: int
    column: int
    parts: Tuple[Part, ...]
    scope: str = MODULE


@dataclass(frozen=True)
class PredicateFact:
    """A function whose result is a membership test of a value against string names.

    `tests` are the collections the tested value is compared with (union);
    `delegates` are other predicates whose results are or-ed in.
    """

    name: str
    line: int
    column: int
    tests: Tuple[Part, ...]
    delegates: Tuple[Ref, ...]


# the second scheme models are named by: a checkpoint's `model_type` (`"qwen3_moe"`), not its architecture
MODEL_TYPE_SCHEME = "model-type"


@dataclass(frozen=True)
class RegistrationFact:
    """Architecture names a module registers, and the class each one runs, when written.

    `registry` says where: `EntryClass`, a registry dict's name, `register_model()`,
    `@register_auto_model`. `implementations[i]` is the class that serves `names[i]`
    (`"llama:LlamaForCausalLM"`, a class name, or "" when not written).
    """

    registry: str
    names: Tuple[Member, ...]
    implementations: Tuple[str, ...] = ()
    # "model-type": `names` are model types (`@ModelRegistry("llama")`), registering the architectures they
    # name (`resolve/model_types.py`); "": architecture names
    scheme: str = ""

    def implementation(self, index: int) -> str:
        return self.implementations[index] if index < len(self.implementations) else ""


@dataclass(frozen=True)
class ClassFact:
    """A module-level class: its bases, and the config class it is built with, if written.

    `config` comes from a `config_class = X` attribute or the annotation of the
    `config` parameter of `__init__`.
    """

    name: str
    line: int
    bases: Tuple[Ref, ...]
    config: Optional[Ref] = None
    config_note: Optional[str] = None  # why `config` could not be read (`config_class = pick()`)
    # classes held in `*_cls` / `*_class` attributes (`body_cls = qwen3_5.Qwen3_5ForCausalLM`):
    # a wrapper built with an unannotated config passes it on to them
    wrapped: Tuple[Ref, ...] = ()


@dataclass(frozen=True)
class TypeTest:
    """`isinstance(config, target)` in a type-dispatch predicate, in source order.

    `condition` is set when the branch is not taken alone (`and cond`, or an inner check
    that may return None). An `exclude` test is a guard returning None for the class:
    the runtime takes the first test that matches, and so does the family.
    """

    target: Ref
    condition: Optional[str] = None
    exclude: bool = False


@dataclass(frozen=True)
class TypePredicateFact:
    """A function that returns or tests `isinstance(<config>, A | B)`: a family by config class."""

    name: str
    line: int
    column: int
    tests: Tuple[TypeTest, ...]


@dataclass(frozen=True)
class MappingFact:
    """A module-level dict from string keys to names (`{"Qwen3_5ForCausalLM": Qwen3_5TextConfig}`), and
    from architecture names to architecture names (`renames`: `{"OldForCausalLM": "NewForCausalLM"}`)."""

    name: str
    line: int
    entries: Tuple[Tuple[str, Ref], ...]
    renames: Tuple[Tuple[str, str], ...] = ()
    # the lower-case words its string values are (`{"Qwen2Moe": "qwen2moe"}`): what the module maps names to, a
    # naming scheme of its own (`resolve/model_type_slips.py`)
    words: Tuple[str, ...] = ()


@dataclass(frozen=True)
class FileFacts:
    """Everything the checks need from one file."""

    path: str  # relative to the project root, with '/'
    module: str
    collections: Tuple[CollectionFact, ...] = ()
    predicates: Tuple[PredicateFact, ...] = ()
    registrations: Tuple[RegistrationFact, ...] = ()
    # local name -> (module, attribute or None for a module alias)
    imports: Tuple[Tuple[str, str, Optional[str]], ...] = ()
    # module-level string constants: (name, value, line)
    constants: Tuple[Tuple[str, str, int], ...] = ()
    star_imports: Tuple[str, ...] = ()  # modules imported with `from m import *`
    classes: Tuple[ClassFact, ...] = ()
    type_predicates: Tuple[TypePredicateFact, ...] = ()
    mappings: Tuple[MappingFact, ...] = ()
    error: Optional[str] = None
    # modules of imported registries this file registers into (`ModelRegistry.register_model(...)`,
    # with any arguments): a plugin of a registry outside the project
    registers_into: Tuple[str, ...] = ()
    # collections this file looks up with a Python class name (`MAP[type(model).__name__]`), as it
    # writes them (`keys.py`)
    class_keyed: Tuple[str, ...] = ()
    # collections this file tests a checkpoint's model type against (`config.model_type in TYPES`), as it
    # writes them, and its own tests of one (`f#1`): lists of model types, not architectures (`model_type_keys.py`)
    type_keyed: Tuple[str, ...] = ()
    # the subjects tested in the branches of one if/elif chain (`if t in [A, B]: ... elif t in [C]: ...`):
    # a name one branch holds is handled there on purpose, never missing from another
    chains: Tuple[Tuple[str, ...], ...] = ()
    # (subject, gate) for each inline test written where only the names another list holds reach it (`if arch
    # in SUPPORTED: ... elif arch in [...]`): the gate is a subject of the same function, or `=NAME` (`gates.py`);
    # `~` before either where they reach it among others (`if arch in [...] or other:`)
    gates: Tuple[Tuple[str, str], ...] = ()
