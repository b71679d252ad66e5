"""Registrations found by their shape: an architecture name bound to the class that serves it.

No project name is hard-coded. A registration pairs an architecture-shaped string with an
*implementation*: a class reference (`Qwen3ForCausalLM`, `models.Qwen3ForCausalLM`), a
`(module, class)` pair of strings (`("llama", "LlamaForCausalLM")`) or `(package, module, class)`, or a
path string ending in a class (`"pkg.models.qwen3_next:Qwen3NextForCausalLM"`, `f"{PATH}.llama.LlamaForCausalLM"`).
No class may be named like a helper (`...Config`, `...Processor`, `...Adapter`), which keeps
per-architecture hook tables (`{"X": XConfig}`) out. The shapes:

- a dict whose entries are such pairs (`_TEXT_GENERATION_MODELS = {...}`, `MAP.update({...})`);
- a call whose name says it registers (`register_model("X", "mod:Cls")`), anywhere;
- a subscript store `REGISTRY["X"] = Cls`, anywhere;
- class decorators whose name says they register, with names as arguments (one each,
  stacked, or a list: `@register_auto_model("X")`, `@ModelRegistry(["a", "b"])`).
"""
from __future__ import annotations

import ast
import re
from typing import Iterator, List, Optional, Sequence, Tuple

from .context import ModuleContext, dotted_name, is_str
from .facts import Member
from .model_type_keys import model_types_only
from .spelling import MODEL_CLASS

_CLASS = re.compile(r"_*[A-Z]\w*")
_HELPER_CLASS = re.compile(r"\w*(?:Config|Processor|Tokenizer|Parser|Handler|Loader|Info|Adapter|Hook|Mixin|Strategy|"
                           r"Backend|Spec|Policy|Error|Exception)")
_PATH_CLASS = re.compile(r"[\w.]*[.:]([A-Z]\w*)")
_MODULE = re.compile(r"[a-z_][a-z0-9_]*")  # a module's name as a registry writes it (`qwen2_5_omni`)
_REGISTERING = re.compile(r"(?i)regist")

Registered = Tuple[Member, str]  # (the name as written, its implementation)


def implementation(ctx: ModuleContext, node: Optional[ast.expr]) -> Optional[str]:
    """The model class a value names, as `module:Class` when the module is written, else `Class`."""
    if node is None:
        return None
    if isinstance(node, (ast.Name, ast.Attribute)):
        ref = ctx.ref(node)
        name = node.id if isinstance(node, ast.Name) else node.attr
        if not _is_class(name) or name.isupper():
            return None  # `_ROCM_SWA_REASON`: a constant, not a class
        return f"{ref.module}:{ref.name}" if ref is not None else name
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) in (2, 3) and all(is_str(e) for e in node.elts):
        *modules, cls = (str(e.value) for e in node.elts)  # type: ignore[attr-defined]
        if not _is_class(cls):
            return None  # `("eagle", "EAGLE")`: the pair says it is a class
        if len(modules) == 1:
            return f"{modules[0]}:{cls}"
        # `("qwen3_omni", "qwen3_omni_moe_thinker", "Qwen3OmniMoeThinkerForConditionalGeneration")`: a package
        # and a module under the package that holds the models (vLLM-Omni's registry beside vLLM's pairs),
        # written relative (`.qwen3_omni.qwen3_omni_moe_thinker`) as the pair's bare module is
        return f".{'.'.join(modules)}:{cls}" if all(_MODULE.fullmatch(m) for m in modules) else None
    text = _string_text(node)
    if text is not None:
        match = _PATH_CLASS.fullmatch(text)
        if match and _is_class(match.group(1)):
            return text.replace(":", ".").rsplit(".", 1)[0] + ":" + match.group(1)
    return None


def _is_class(name: str) -> bool:
    """A model class by its spelling: capitalised, and not named like a helper."""
    return _CLASS.fullmatch(name) is not None and _HELPER_CLASS.fullmatch(name) is None


def dict_registrations(ctx: ModuleContext, node: ast.Dict) -> List[Registered]:
    """Entries `"Arch": <implementation>` of a dict whose architecture entries mostly name one.

    A table of something else keyed by architecture (versions, URLs, hooks) is a subject, not
    a registry: fewer than half of its entries name a class.
    """
    found: List[Registered] = []
    keyed = strings = 0
    for key, value in _string_keyed(node):
        strings += 1
        if not ctx.is_name(str(key.value)):
            continue  # a key that is no architecture name
        keyed += 1
        impl = implementation(ctx, value)
        if impl is not None:
            found.append((_key_member(ctx, key), impl))
    # a table keyed mostly by something else (model types, with a legacy `"RefinedWeb"` among them) registers
    # nothing: its few name-shaped keys are keys of that kind too
    return found if 2 * len(found) >= keyed and 2 * keyed >= strings else []


def named_table_registrations(ctx: ModuleContext, value: ast.expr) -> Optional[Tuple[List[Registered], bool]]:
    """Every name-shaped key of a dict the configuration names as a registry (`registries = ["TABLE"]`), with the
    class its value names where it names one, and False; or, where no key is name-shaped and the keys are written
    as model types (`{"llama": {"causal-lm": NeuronLlamaForCausalLM}}`), every key, and True: a table keyed by
    model type, registering the architectures its model types name. None when `value` is no dict. Named, a
    table registers what it holds whatever its values are: rule tables and loader functions
    (`{"LlamaForCausalLM": llama_export}`) too, which a registry found by its shape alone would not."""
    if isinstance(value, ast.Dict):
        keyed = [(_key_member(ctx, key), _named_class(ctx, v)) for key, v in _string_keyed(value)]
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
            and not value.args:
        keyed = [(_keyword_member(ctx, value, k), _named_class(ctx, k.value)) for k in value.keywords
                 if k.arg is not None]
    else:
        return None
    named = [(member, impl) for member, impl in keyed if ctx.is_name(member.name)]
    if named or not keyed or not model_types_only([member.name for member, _ in keyed]):
        return named, False
    return keyed, True


def _named_class(ctx: ModuleContext, value: ast.expr) -> str:
    """The class an entry of a named table serves: its value's implementation, or the first model class written
    within it (`{"causal-lm": NeuronLlamaForCausalLM}`, `Model(name="llama", model=llama_model.LlamaForCausalLM)`);
    "" when it names none."""
    found = implementation(ctx, value)
    if found is None and isinstance(value, (ast.Dict, ast.Call, ast.Tuple, ast.List)):
        found = next((implementation(ctx, node) for node in ast.walk(value)
                      if isinstance(node, (ast.Name, ast.Attribute))
                      and MODEL_CLASS.fullmatch(node.id if isinstance(node, ast.Name) else node.attr)), None)
    return found or ""


def _string_keyed(node: ast.Dict) -> Iterator[Tuple[ast.Constant, ast.expr]]:
    """(key, value) of each entry of a dict literal keyed by a string (not a `**spread`)."""
    for key, value in zip(node.keys, node.values):
        if key is not None and is_str(key):
            yield key, value  # type: ignore[misc]


def _key_member(ctx: ModuleContext, key: ast.Constant) -> Member:
    return Member(str(key.value), key.lineno, ctx.column(key))


def _keyword_member(ctx: ModuleContext, call: ast.Call, keyword: ast.keyword) -> Member:
    """`Arch` of `dict(Arch=...)`, where the keyword is written (a keyword has no position before Python 3.9)."""
    return Member(str(keyword.arg), getattr(keyword, "lineno", call.lineno),
                  ctx.column(keyword) if hasattr(keyword, "col_offset") else ctx.column(call))


def keyword_registrations(ctx: ModuleContext, call: ast.Call) -> List[Registered]:
    """`dict(Arch=<implementation>)` or `MAP.update(Arch=<implementation>)`: keywords as entries."""
    found: List[Registered] = []
    keyed = 0
    for keyword in call.keywords:
        if keyword.arg is None or not ctx.is_name(keyword.arg):
            continue
        keyed += 1
        impl = implementation(ctx, keyword.value)
        if impl is not None:
            found.append((_keyword_member(ctx, call, keyword), impl))
    return found if 2 * len(found) >= keyed else []


def call_registration(ctx: ModuleContext, call: ast.Call) -> List[Registered]:
    """`register_model("X", <implementation>)` (the implementation positional or a keyword); or, keyed by a name
    of the project's own, the architectures a list argument gives that implementation:
    `register_model("qwen_3_moe", QWen3Moe, ["Qwen3MoeForCausalLM"])`, `support_architectures=[...]`."""
    name = dotted_name(call.func)
    if name is None or not _REGISTERING.search(name.rsplit(".", 1)[-1]) or not call.args:
        return []
    first = call.args[0]
    if not is_str(first):
        return []
    rest = list(call.args[1:]) + [k.value for k in call.keywords if k.arg is not None]
    if ctx.is_name(first.value):  # type: ignore[attr-defined]
        impl = next((i for i in (implementation(ctx, v) for v in rest) if i is not None), None)
        return [] if impl is None else [(Member(first.value, first.lineno, ctx.column(first)), impl)]  # type: ignore[attr-defined]
    # keyed by a name of its own: the class is a reference (a list of two strings is the architectures, no pair)
    impl = next((i for i in (implementation(ctx, v) for v in rest if isinstance(v, (ast.Name, ast.Attribute)))
                 if i is not None), None)
    if impl is None:
        return []
    named = [k.value for k in call.keywords if k.arg is not None and k.arg.endswith("architectures")]
    listed = [v for v in named or call.args[1:] if isinstance(v, (ast.List, ast.Tuple))][:1]
    return [(Member(e.value, e.lineno, ctx.column(e)), impl) for v in listed for e in v.elts  # type: ignore[attr-defined]
            if is_str(e) and ctx.is_name(e.value) and MODEL_CLASS.fullmatch(e.value)]  # type: ignore[attr-defined]


def subscript_registration(ctx: ModuleContext, target: ast.Subscript, value: ast.expr) -> List[Registered]:
    """`REGISTRY["X"] = <implementation>`."""
    key = target.slice
    if not is_str(key) or not ctx.is_name(key.value):  # type: ignore[attr-defined]
        return []
    impl = implementation(ctx, value)
    if impl is None:
        return []
    return [(Member(key.value, key.lineno, ctx.column(key)), impl)]  # type: ignore[attr-defined]


def registers(decorator: str) -> bool:
    """Does a decorator's name say it registers (`register_auto_model`, `ModelRegistry`)?"""
    return _REGISTERING.search(decorator.rsplit(".", 1)[-1]) is not None


def class_registrations(ctx: ModuleContext, node: ast.ClassDef, decorators: Sequence[str] = ()
                        ) -> List[Tuple[str, List[Member], bool]]:
    """(decorator, names, whether they are model types) of each registering decorator on a model class,
    served by that class.

    A decorator registers when the configuration names it in `decorators`, or when its name
    says so (`register...`, `...Registry`) and the class is a model class (`...ForCausalLM`,
    `...Model`, `...LM`: not an op or a layer registered by name); names come from string
    arguments, a list or tuple of them, or a `name=` keyword. A registry keyed by model type
    (LightLLM's `@ModelRegistry(["deepseek_v2", "deepseek_v3"])`) registers model types: the strings of its
    first argument, none an architecture name (what follows qualifies the key: a task, a mode). A bare
    decorator the configuration names (`@register_draft`) registers the class under its own name.
    """
    model_class = MODEL_CLASS.fullmatch(node.name) is not None
    found = []
    for decorator in node.decorator_list:
        if not isinstance(decorator, ast.Call):
            # a bare decorator the configuration names registers the class under its own name
            # (`@register_draft` storing `REGISTRY[cls.__name__] = cls`)
            bare = dotted_name(decorator)
            short = bare.rsplit(".", 1)[-1] if bare is not None else ""
            if bare in decorators or short in decorators:
                found.append((short, [Member(node.name, decorator.lineno, ctx.column(decorator))], False))
            continue
        name = dotted_name(decorator.func)
        if name is None:
            continue
        short = name.rsplit(".", 1)[-1]
        if not ((registers(short) and model_class) or short in decorators or name in decorators):
            continue
        values: List[ast.expr] = []
        for arg in decorator.args:
            values.extend(arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg])
        values += [k.value for k in decorator.keywords if k.arg == "name"]
        members = [Member(v.value, v.lineno, ctx.column(v)) for v in values if is_str(v)]  # type: ignore[attr-defined]
        if members and (short in decorators or name in decorators or any(ctx.is_name(m.name) for m in members)):
            found.append((short, members, False))
        elif model_class:
            # keyed by model type: the key is the first argument (a string or a list of them) or `name=`, what
            # follows qualifies it (`@register_neuron_model_for_inference("qwen3_moe", "text-generation")`: a task)
            first = decorator.args[:1] or [k.value for k in decorator.keywords if k.arg == "name"][:1]
            keyed = [e for v in first for e in (v.elts if isinstance(v, (ast.List, ast.Tuple)) else [v])]
            keys = [Member(v.value, v.lineno, ctx.column(v)) for v in keyed if is_str(v)]  # type: ignore[attr-defined]
            if keys and model_types_only([m.name for m in keys]):
                found.append((short, keys, True))
    return found


def _string_text(node: ast.expr) -> Optional[str]:
    """A string constant, or the literal tail of an f-string (`f"{PATH}.llama.Cls"` -> `.llama.Cls`)."""
    if is_str(node):
        return str(node.value)  # type: ignore[attr-defined]
    if isinstance(node, ast.JoinedStr) and node.values and is_str(node.values[-1]):
        return str(node.values[-1].value).lstrip(".")  # type: ignore[attr-defined]
    return None
