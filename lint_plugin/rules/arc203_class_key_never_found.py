"""ARC203 class-key-never-found: a table looked up with a class name holds a key no class is named."""
from __future__ import annotations

from typing import AbstractSet, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from ..diagnostics import Diagnostic, place
from ..resolve import Collection, Model, Occurrence, Registration
from ..resolve.values import CLASS_NAME
from .kinds import served_classes
from .rule import Example, Rule


def check(model: Model) -> List[Diagnostic]:
    """Each key of a table its code looks up with a class name (`TABLE.get(type(pipeline).__name__)`) that names no
    class the registry builds, where the table shows it is keyed by those classes."""
    keyed = [c for c in model.collections if c.keyed == CLASS_NAME and not c.members.classes]  # a class is no key
    if not keyed:
        return []
    built = one_class_each(model.registrations)
    # the classes that build a name other than their own: a table holding one, and no such name, is keyed by them
    renamed = frozenset(cls for name, (cls, _) in built.items() if cls != name)
    by_case: Dict[str, str] = {}
    for cls in sorted({cls for cls, _ in built.values()}):
        by_case.setdefault(cls.lower(), cls)
    classes = served_classes(model)
    found: List[Diagnostic] = []
    for collection in keyed:
        if any(o.name in renamed and o.name not in model.registered for o in collection.members.members):
            found += never_found(collection, model.registered, built, by_case, classes)
    return found


def one_class_each(registrations: Iterable[Registration]) -> Dict[str, Tuple[str, Occurrence]]:
    """The class each registered name is built with, and where the first registration naming it says so, where
    every registration of the name that names a class names the same one. A name two engines serve with two
    classes (lmdeploy's PyTorch engine, its TurboMind reader and its vision builder, each a class of its own for
    `Qwen2ForCausalLM`) is built with whichever the caller took: nothing says which class a table's lookup meets."""
    classes: Dict[str, Set[str]] = {}
    first: Dict[str, Occurrence] = {}
    for registration in registrations:
        if registration.implementation:
            classes.setdefault(registration.name, set()).add(registration.implementation.rpartition(":")[2])
            first.setdefault(registration.name, registration.where)
    return {name: (next(iter(found)), first[name]) for name, found in classes.items() if len(found) == 1}


def never_found(collection: Collection, registered: Mapping[str, Occurrence],
                built: Mapping[str, Tuple[str, Occurrence]], by_case: Mapping[str, str],
                classes: AbstractSet[str]) -> List[Diagnostic]:
    """A registered name the registry builds with a class of another name; or a name that is neither registered
    nor a class, and differs from a built class only in case (`Longcat` for `LongCat`: `by_case`, the built classes
    by their lower case). Asked of a table that holds the class of a registered name, itself no registered name:
    keyed by the classes the registry builds (vLLM-Omni's cache enablers), not another library's classes spelt as
    architectures (a calibration table of the classes `transformers` loads)."""
    held = collection.members.names
    seen: Set[str] = set()
    found = []
    for occurrence in collection.members.members:
        name = occurrence.name
        if name in seen or name in classes:
            continue
        seen.add(name)
        cls, where = built.get(name, (name, None))
        if name in registered and cls != name:
            found.append(diagnostic(collection, occurrence, cls, where, cls in held))
        elif name not in registered:
            close = by_case.get(name.lower())
            if close is not None and close != name:
                found.append(diagnostic(collection, occurrence, close, None, close in held))
    return found


def diagnostic(collection: Collection, occurrence: Occurrence, cls: str, where: Optional[Occurrence],
               held: bool) -> Diagnostic:
    why = (f"the registry builds '{occurrence.name}' with class '{cls}' ({place(where.path, where.line)})"
           if where is not None else "no class is named so")
    hint = f"; it holds '{cls}' too" if held else f"; did you mean '{cls}'?"
    return Diagnostic(occurrence.path, occurrence.line, occurrence.column, RULE.code,
                      f"'{occurrence.name}' in {collection.label} is never found: the table is looked up with a "
                      f"class name, and {why}{hint}", subject=collection.subject, member=occurrence.name)


_REGISTRY = ("pipelines/registry.py",
             "_PIPELINES = {\n"
             "    \"QwenImagePipeline\": (\"qwen_image\", \"QwenImagePipeline\"),\n"
             "    \"WanPipeline\": (\"wan\", \"Wan22Pipeline\"),\n"
             "    \"LongCatImageEditPipeline\": (\"longcat_image\", \"LongcatImageEditPipeline\"),\n"
             "}\n")
_LOOKUP = ("\n\ndef enabler(pipeline):\n    return ENABLERS.get(type(pipeline).__name__)\n")

RULE = Rule(
    code="ARC203",
    name="class-key-never-found",
    summary="a table looked up with a class name holds a key no class is named",
    what="A table its code looks up with a Python class name (`TABLE.get(type(pipeline).__name__)`, "
         "`pipeline.__class__.__name__ in TABLE`) holds a registered name that the registry builds with a class of "
         "another name (`\"WanPipeline\": (\"wan\", \"Wan22Pipeline\")`), or a name that nothing registers and "
         "that differs from a class the registry builds only in case (`LongcatImagePipeline` for the class "
         "`LongCatImagePipeline`). The lookup asks with the class's own name, so that entry is never found and "
         "the model gets the default (where ARC201 is on, it reports the second kind first: a name nothing "
         "registers). Checked where the table shows it is keyed by the registry's classes: it "
         "holds the class of a registered name, itself no registered name. A table of another library's "
         "classes (what `transformers` loads, spelt as architectures) says nothing of the registry's classes, "
         "and is not checked; nor is a name two registries build with two classes (two engines of one "
         "project, each with a class of its own): which one the lookup meets is not known.",
    why="A key spelt as the checkpoint's architecture where the lookup uses the class's name silently "
        "disables the entry: vLLM-Omni keyed its Wan 2.2 cache enabler as `WanPipeline` while the class is "
        "`Wan22Pipeline`, and the LongCat-Image one as `LongcatImagePipeline`.",
    fix_doc="Key the entry by the class's name (the did-you-mean), or drop the alias where the table holds the "
            "class's name too.",
    exempt_doc="`[[tool.archsync.exempt]]` or `# noqa: ARC203` on the key's line.",
    examples=(
        Example("a key spelt as the architecture, looked up with the class's name", (
            _REGISTRY,
            ("cache.py", "ENABLERS = {\n    \"WanPipeline\": \"dual\",\n    \"LongcatImageEditPipeline\": "
                         "\"blocks\",\n}" + _LOOKUP),
        ), ("cache.py:2:5: ARC203 'WanPipeline' in ENABLERS is never found: the table is looked up with a class "
            "name, and the registry builds 'WanPipeline' with class 'Wan22Pipeline' (pipelines/registry.py:3); "
            "did you mean 'Wan22Pipeline'?",), corrected=(
            ("cache.py", "ENABLERS = {\n    \"Wan22Pipeline\": \"dual\",\n    \"LongcatImageEditPipeline\": "
                         "\"blocks\",\n}" + _LOOKUP),
        )),
        Example("a name two engines build with two classes: which one the lookup meets is not known", (
            _REGISTRY,
            ("lite/registry.py", "_LITE_PIPELINES = {\n    \"WanPipeline\": (\"wan\", \"WanLitePipeline\"),\n"
                                 "    \"QwenImagePipeline\": (\"qwen_image\", \"QwenImageLitePipeline\"),\n}\n"),
            ("cache.py", "ENABLERS = {\n    \"WanPipeline\": \"dual\",\n    \"LongcatImageEditPipeline\": "
                         "\"blocks\",\n}" + _LOOKUP),
        )),
        Example("a table of another library's classes, spelt as architectures", (
            _REGISTRY,
            ("calibrate.py", "NORMS = {\n    \"WanPipeline\": \"RMSNorm\",\n    \"QwenImagePipeline\": \"RMSNorm\",\n}"
                             "\n\n\ndef norm_of(model):\n    return NORMS[type(model).__name__]\n"),
        )),
    ),
    check=check,
    one_per_pair=True,
    settings=("registries", "exempt"),
)
