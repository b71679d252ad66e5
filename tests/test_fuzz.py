"""Fuzzing the extractor and the whole engine with hypothesis (and hypothesmith when installed).

Properties:
  * `extract_file` never raises, whatever bytes it is given: arbitrary bytes, arbitrary
    grammatical Python (hypothesmith), archsync-shaped Python built from the shapes archsync
    reads (collections, predicates, registrations, imports, growth, decorators, classes) and
    byte-level mutations of it;
  * `engine.run_with` never raises on a project of such modules, under assorted valid
    configurations, nor on projects of cross-references over a tiny vocabulary (cycles,
    star-import chains, re-exports, empty sets, delegation loops); and the uncached, cold and
    warm-from-cache runs, and a run with the prefilter off, report exactly the same diagnostics;
  * oracle: for random module-level expressions over string literals, `|`, `+`, set()/
    frozenset()/tuple()/list()/sorted()/dict(), `.union()`, `.copy()`, `.keys()`, starred
    elements, dict literals, `dict(A=1)`, `{**X, **Y}`, helper names from the same module and
    from another one, and type-correct growth statements, the names archsync resolves for
    `X_ARCHS` equal what Python computes by executing the generated snippet. Only this test
    executes anything, and only the code it generated itself; archsync itself never does.

Example counts are set per test (see EXAMPLES); `ARCHSYNC_FUZZ_SCALE=10` multiplies them for a
longer run. Runs are derandomized, so CI sees the same examples every time; `ARCHSYNC_FUZZ_RANDOM=1`
explores new ones (do that before a release, and add what it finds as an `@example`). Failing
examples are printed by hypothesis; no example database is written.
"""
from __future__ import annotations

import dataclasses
import os
import tempfile
import types
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple, TypeVar

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_bindings import assert_bindings_cover_the_tree
from test_bodies import assert_stubbing_changes_no_fact
from test_extract_walk import assert_same_walk_of_a_body
from test_noqa_ranges import assert_same_ranges

from conftest import grammatical_python
from lint_plugin.config import Config
from lint_plugin.pipeline import Request, run_with

try:  # optional: grammatical Python from the CPython grammar
    import hypothesmith
except ImportError:  # pragma: no cover - depends on the environment
    hypothesmith = None

T = TypeVar("T")
NAME_PATTERN = r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*"
SCALE = max(1, int(os.environ.get("ARCHSYNC_FUZZ_SCALE", "1")))
EXAMPLES = {
    "bytes": 3000,
    "hypothesmith": 300,
    "shaped": 700,
    "mutated": 600,
    "engine": 200,
    "references": 300,
    "oracle": 700,
}
TOTAL_EXAMPLES = sum(EXAMPLES.values()) * SCALE  # 5,800 by default

settings.register_profile(
    "archsync-fuzz",
    deadline=None,
    database=None,
    derandomize=os.environ.get("ARCHSYNC_FUZZ_RANDOM", "") != "1",
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
PROFILE = settings.get_profile("archsync-fuzz")


def fuzz_settings(kind: str) -> settings:
    return settings(PROFILE, max_examples=EXAMPLES[kind] * SCALE)


def pick(draw, options: Sequence[T]) -> T:
    """One of `options`, drawn as `st.sampled_from(options)` draws it (an index, shrinking towards the first),
    without building a strategy for it: building and validating a fresh strategy at every draw was most of
    these tests' time. The generators below are plain functions of `draw` for the same reason."""
    return options[draw(st.integers(0, len(options) - 1))]


def extract(source: bytes):
    """The facts, asserted to be those of the whole parse: the bodies stubbed change none (`bodies.py`)."""
    return assert_stubbing_changes_no_fact(source, ["EntryClass"], NAME_PATTERN)


# -- archsync-shaped Python ---------------------------------------------------------------------

ARCH_NAMES = ["Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForCausalLM", "LlamaForCausalLM",
              "MistralModel", "GemmaForCausalLM", "Phi3ForCausalLM", "DeepseekV3ForCausalLM"]
ODD_STRINGS = ["", "a b", "\u00e9t\u00e9", 'Qwen"quoted', "tab\there", "back\\slash", "lower", "X", "\U0001f600Model",
               "x" * 300]
STRINGS = st.sampled_from(ARCH_NAMES + ODD_STRINGS)
ARCH_NAME = st.sampled_from(ARCH_NAMES)
IDENTS = st.sampled_from(["X_ARCHS", "Y_ARCHS", "_PRIVATE_ARCHS", "OTHER", "models", "EntryClass", "is_qwen3_5",
                          "config", "pkg", "registry", "Qwen3_5ForCausalLM", "LlamaForCausalLM", "_hf_arch"])


CALLEES = ["set", "frozenset", "tuple", "list", "sorted", "dict", "getenv", "os.environ.get", "f"]
OPERATORS = ["|", "+", "&", "-", "or", "and", "if x else", "==", "in", "not in"]
METHODS = ["union", "keys", "copy", "get", "startswith", "endswith", "values"]
GROWTH = ["add", "update", "append", "extend", "discard", "__setitem__"]
REGISTERED = ARCH_NAMES + ["models.X", "make()", "1"]
HEADERS = ["", "# -*- coding: utf-8 -*-\n", "\ufeff", "#!/usr/bin/env python\n", '"""Doc."""\n']


def any_expression(draw, depth: int = 0) -> str:
    """Any expression, well- or ill-typed, that parses."""
    leaves = [
        lambda: repr(draw(STRINGS)),
        lambda: draw(IDENTS),
        lambda: str(draw(st.integers(-5, 5))),
        lambda: pick(draw, ["None", "True", "...", "b'Qwen3_5ForCausalLM'", "f'{x}Model'", "lambda: 1"]),
    ]
    if depth >= 3:
        return pick(draw, leaves)()
    sub = lambda: any_expression(draw, depth + 1)  # noqa: E731
    subs = lambda: ", ".join(sub() for _ in range(draw(st.integers(0, 3))))  # noqa: E731
    composites = leaves + [
        lambda: "{" + subs() + "}" if draw(st.booleans()) else "set()",
        lambda: "[" + subs() + "]",
        lambda: "(" + subs() + ",)",
        lambda: "{" + ", ".join(f"{sub()}: {sub()}" for _ in range(draw(st.integers(0, 3)))) + "}",
        lambda: f"{pick(draw, CALLEES)}({subs()})",
        lambda: f"({sub()}) {pick(draw, OPERATORS)} ({sub()})",
        lambda: f"({sub()}).{pick(draw, METHODS)}({subs()})",
        lambda: f"[{sub()} for x in {sub()}]",
        lambda: f"{{*{sub()}, {sub()}}}",
        lambda: f"{{**{sub()}, {sub()}: 1}}",
        lambda: f"dict({pick(draw, ARCH_NAMES)}=1, **{sub()})",
        lambda: f"({sub()})[{sub()}]",
        lambda: f"not {sub()}",
        lambda: f"(y := {sub()})",
    ]
    return pick(draw, composites)()


def statement(draw, modules: Tuple[str, ...] = ("pkg.m0", "pkg.m1")) -> str:
    name = draw(IDENTS)
    expr = lambda: any_expression(draw)  # noqa: E731
    module = pick(draw, modules)
    pred = pick(draw, ["is_qwen3_5", "is_llama", "is_multimodal_model", "Cls.is_qwen3_5", "is_qwen3_5_moe"])
    fn = pred.split(".")[-1]
    templates = [
        lambda: f"{name} = {expr()}",
        lambda: f"{name}: frozenset = {expr()}",
        lambda: f"{name}, OTHER = {expr()}, {expr()}",
        lambda: f"{name} = {name} = {expr()}",
        lambda: f"{name} |= {expr()}",
        lambda: f"{name} += {expr()}",
        lambda: f"{name}[{expr()}] = {expr()}",
        lambda: f"{name}.{pick(draw, GROWTH)}({expr()})",
        lambda: f"EntryClass = [{', '.join([pick(draw, REGISTERED) for _ in range(draw(st.integers(0, 4)))])}]",
        lambda: f"EntryClass = {pick(draw, ARCH_NAMES + ['None', 'models.LlamaForCausalLM'])}",
        lambda: f"from {module} import {draw(IDENTS)}",
        lambda: f"from {module} import {draw(IDENTS)} as {draw(IDENTS)}",
        lambda: f"from {module} import *",
        lambda: f"from {'.' * draw(st.integers(1, 4))}{pick(draw, ['', 'm0', 'sub'])} import {draw(IDENTS)}",
        lambda: f"import {module} as {draw(IDENTS)}",
        lambda: f"import {module}",
        lambda: f"def {fn}(config):\n    return config.architectures[0] in {expr()}",
        lambda: f"def {fn}(config):\n    return {expr()}",
        lambda: f"def {fn}(config):\n    a = {expr()}\n    return config in a or {draw(IDENTS)}(config)",
        lambda: (f"def {fn}(config):\n    arch = getattr(config, 'architectures', None)\n"
                 f"    return hasattr(config, 'architectures') and arch is not None and arch[0] in {expr()}"),
        lambda: f"def {fn}(config):\n    return any(a in {expr()} for a in config.architectures)",
        lambda: f"def {fn}(config):\n    return config.startswith({draw(STRINGS)!r}) or {draw(STRINGS)!r} in config",
        lambda: (f"def {fn}(config):\n    a = config.architectures[0]\n    if a == {repr(draw(STRINGS))}:\n"
                 f"        return True\n    elif a in {expr()}:\n        return {expr()}\n    return False"),
        lambda: (f"def {fn}(config):\n    for a in {expr()}:\n        if a == config:\n            return True\n"
                 "    return False"),
        lambda: f"async def {fn}(config):\n    return await config in {expr()}",
        # bodies stubbed or kept (`bodies.py`): plain returns, nested ones, code in strings, module names
        lambda: f'def {fn}(config):\n    """Example:\n    return config\n    """\n    return {expr()}',
        lambda: f"def {fn}(config):\n    def inner():\n        return config\n    return config in {expr()}",
        lambda: f"def {fn}(config):\n    if config:\n        return {pick(draw, ['0', '0.0', '1', 'None', 'x'])}\n"
                f"    return {draw(IDENTS)}(config)",
        lambda: f'HELP = """\ndef {fn}(c):\n    return c\n"""',
        lambda: f"def {fn}():\n    {name}[{draw(STRINGS)!r}] = 1\n    return",
        lambda: f"{name}: dict[\n    str, int\n] = {expr()}",
        lambda: (f"class Cls:\n    def m(self):\n        return self.x\n\n    def {fn}(self, c):\n"
                 f"        return c in {name}  # {draw(STRINGS)!r}"),
        lambda: f"def {fn}(c):\n    x = [\n1]\n    return c.x if isinstance(c.config, {draw(IDENTS)}) else x",
        lambda: (f"def {fn}(c, **k):\n    return {draw(IDENTS)}(" + pick(draw, CALL_ARGUMENTS) + ")"),
        lambda: (f"class Cls:\n    {name} = {expr()}\n\n    @staticmethod\n    def {fn}(c):\n"
                 f"        return c in {expr()}"),
        lambda: f"@register({repr(draw(STRINGS))})\nclass {pick(draw, ARCH_NAMES)}:\n    pass",
        lambda: f"@{draw(IDENTS)}\ndef {fn}(c):\n    return c in {expr()}",
        lambda: f"if {expr()}:\n    {name} = {expr()}\nelse:\n    {name} = {expr()}",
        lambda: f"try:\n    {name} = {expr()}\nexcept Exception:\n    {name} = {expr()}\nfinally:\n    pass",
        lambda: f"with {expr()} as {draw(IDENTS)}:\n    {name} = {expr()}",
        lambda: f"while {expr()}:\n    {name} = {expr()}\n    break",
        lambda: f"match {expr()}:\n    case {draw(STRINGS)!r}:\n        {name} = {expr()}\n    case _:\n        pass",
        lambda: f"assert {expr()} in {expr()}",
        lambda: f"{name} = [x for x in {expr()} if x]",
        lambda: f"del {name}",
        lambda: f"global {name}",
        lambda: "__all__ = [" + ", ".join(repr(draw(IDENTS)) for _ in range(draw(st.integers(0, 3)))) + "]",
        lambda: f"# noqa: ARC101\n{name} = {expr()}  # noqa",
        lambda: f"{name} = {expr()}  # noqa: {pick(draw, ['ARC101', 'ARC', 'E501,ARC201', ''])}",
        lambda: f"# flake8: noqa\n{name} = {expr()}",
    ]
    return pick(draw, templates)()


# what a returned call may be given: a keyword makes it no test, `**` raising a power does not
CALL_ARGUMENTS = ["c, 2**3", "c, **k", "c, k=1", "", "c,\n        # a note\n        **k", "c, (lambda k=1: k)",
                  "[c] == 'A'"]


@st.composite
def shaped_module(draw, modules: Tuple[str, ...] = ("pkg.m0", "pkg.m1")) -> str:
    statements = [statement(draw, modules) for _ in range(draw(st.integers(1, 8)))]
    header = pick(draw, HEADERS)
    newline = pick(draw, ["\n", "\r\n"])
    return header + newline.join("\n".join(statements).split("\n")) + newline


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_module(draw) -> bytes:
    """A shaped module with a few byte-level edits: mostly invalid, sometimes subtly valid."""
    data = bytearray(_encode(draw(shaped_module())))
    for _ in range(draw(st.integers(1, 6))):
        position = draw(st.integers(0, len(data)))
        action = pick(draw, ["insert", "delete", "replace", "duplicate"])
        junk = pick(draw, [b"(", b")", b"[", b"{", b"}", b'"', b"'", b"\\", b"\n", b"\t", b"    ", b"\x00",
                           b"\xff", b"\xe9", b"#", b":", b"=", b"|", b"*", b"**", b"\r", b"\xef\xbb\xbf",
                           b'"""', b"lambda", b"async ", b"EntryClass = ", b"_ARCHS"])
        if action == "insert":
            data[position:position] = junk
        elif action == "delete":
            del data[position:position + draw(st.integers(1, 8))]
        elif action == "replace":
            data[position:position + len(junk)] = junk
        else:
            data[position:position] = data[position:position + draw(st.integers(1, 40))]
    return bytes(data)


# -- 4a. the extractor never raises ----------------------------------------------------------------

@fuzz_settings("bytes")
@given(st.binary(max_size=2000))
def test_extractor_survives_arbitrary_bytes(data):
    facts = extract(data)
    assert facts.path == "m.py"


@pytest.mark.skipif(hypothesmith is None, reason="hypothesmith is not installed (pip install hypothesmith)")
@fuzz_settings("hypothesmith")
@given(st.builds(lambda source: source, grammatical_python()))
def test_grammatical_python_read_by_the_extractor_the_walk_and_the_noqa_reader(source):
    """Generating grammatical Python is most of the cost (about 40 ms a program), so each program is read
    every way it is fuzzed: the extractor survives it, the function-body walk visits what the plain walk
    visits (`test_extract_walk.py`), every line's noqa range is flake8's (`test_noqa_ranges.py`), and the
    import bindings read from its bytes hold every one the parser reads (`test_bindings.py`)."""
    facts = extract(_encode(source))
    assert facts.path == "m.py"
    assert_same_walk_of_a_body(source)
    assert_same_ranges(source)
    assert_bindings_cover_the_tree(source)


@fuzz_settings("shaped")
@given(shaped_module())
def test_extractor_survives_archsync_shaped_python(source):
    facts = extract(_encode(source))
    assert facts.path == "m.py"


@fuzz_settings("mutated")
@given(mutated_module())
def test_extractor_survives_mutated_python(data):
    facts = extract(data)
    assert facts.path == "m.py"


# -- 4b. the whole engine never raises, and the cache never changes the answer ------------------------

CONFIGS = st.fixed_dictionaries({
    "guard": st.sampled_from([("*_ARCHS",), ("*_ARCHS", "OTHER"), ("*",), ("pkg/m0.py::*_ARCHS",)]),
    "families": st.sampled_from([(), ("is_multimodal_model",), ("is_*",)]),
    "registries": st.sampled_from([("EntryClass",), ("EntryClass", "@register"), ("Nothing",)]),
    "name_pattern": st.sampled_from([NAME_PATTERN, ".*", "[A-Z].*"]),
    "siblings": st.sampled_from([(("ForConditionalGeneration", "ForCausalLM"),), ()]),
    "guard_set": st.booleans(),  # False: `guard` adds to the subjects found by shape
})


def _write_tree(root: Path, modules: Dict[str, bytes]) -> None:
    (root / "pyproject.toml").write_text('[project]\nname = "fuzz"\n')
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    for rel, data in modules.items():
        (root / rel).write_bytes(data)


def _diagnostics(report) -> List[Tuple]:
    return [(d.path, d.line, d.column, d.code, d.message) for d in report.diagnostics]


@fuzz_settings("engine")
@given(
    st.lists(st.one_of(shaped_module(("pkg.m0", "pkg.m1", "pkg.m2")).map(_encode), mutated_module()),
             min_size=1, max_size=3),
    CONFIGS,
)
# Found by this test: a guard with no literal piece (`*`) gave the prefilter nothing to look for, and a
# file that does not parse registered its `EntryClass` in the first pass only.
@example(modules=[b"X_ARCHS = [x for x in 'Qwen3_5ForCausalLM' if x]\n",
                  b"(X_ARCHS = 'Qwen3_5ForCausalLM'\nEntryClass = Qwen3_5ForConditionalGeneration\n"],
         options={"guard": ("*",), "families": (), "registries": ("EntryClass",), "name_pattern": NAME_PATTERN,
                  "siblings": (), "guard_set": True})
# ... and a file kept for its registrations alone that does not parse was ARC902 only without the prefilter.
@example(modules=[b"X_ARCHS = 'Qwen3_5ForCausalLM'\n", b"(__all__ = []\nEntryClass = []\n"],
         options={"guard": ("*_ARCHS",), "families": (), "registries": ("EntryClass",), "name_pattern": NAME_PATTERN,
                  "siblings": (), "guard_set": False})
# ... and a model file registering by decorator and by `EntryClass` registered only the latter in a cold run.
@example(modules=[b"X_ARCHS = 'Qwen3_5ForCausalLM'\n",
                  b"@register('Qwen3_5ForConditionalGeneration')\nclass Qwen3_5ForCausalLM:\n    pass\n"
                  b"EntryClass = 0\n",
                  b"(OTHER = 'Qwen3_5ForCausalLM'\n"],
         options={"guard": ("*_ARCHS",), "families": (), "registries": ("EntryClass",), "name_pattern": NAME_PATTERN,
                  "siblings": (), "guard_set": False})
# ... and a registered name written as a `dict(Name=...)` keyword was no quoted name to the prefilter.
@example(modules=[b"EntryClass = [Qwen3_5ForCausalLM]\n"
                  b"OTHER = dict(Qwen3_5ForCausalLM=1, **'Qwen3_5ForConditionalGeneration')\n"],
         options={"guard": ("*_ARCHS",), "families": (), "registries": ("EntryClass",), "name_pattern": NAME_PATTERN,
                  "siblings": (), "guard_set": False})
def test_engine_survives_generated_projects(modules, options):
    """Neither the cache nor the prefilter changes an answer."""
    with tempfile.TemporaryDirectory(prefix="archsync-fuzz-") as directory:
        root = Path(directory).resolve()
        _write_tree(root, {f"pkg/m{i}.py": data for i, data in enumerate(modules)})
        config = Config(root=root, **options)
        uncached = run_with(config, Request(use_cache=False))
        cold = run_with(config)
        warm = run_with(config)
        unfiltered = run_with(dataclasses.replace(config, prefilter=False), Request(use_cache=False))
        assert _diagnostics(cold) == _diagnostics(uncached)
        assert _diagnostics(warm) == _diagnostics(uncached)
        assert _diagnostics(unfiltered) == _diagnostics(uncached)
        assert uncached.warnings == () and cold.warnings == () and warm.warnings == ()


REF_NAMES = ["A_ARCHS", "B_ARCHS", "C", "D"]
PRED_NAMES = ["is_qwen3_5", "is_qwen3_5_moe", "is_other"]


@st.composite
def reference_module(draw, index: int) -> str:
    """A module of cross-references over a tiny vocabulary: cycles, star-import chains, empty
    sets, re-exports, shadowing and delegation loops are all likely."""
    others = [j for j in range(3) if j != index]
    lines = []
    for _ in range(draw(st.integers(0, 3))):
        j = pick(draw, others)
        lines.append(pick(draw, [
            f"from pkg.m{j} import *",
            f"from pkg.m{j} import {pick(draw, REF_NAMES + PRED_NAMES)}",
            f"from pkg.m{j} import {pick(draw, REF_NAMES)} as {pick(draw, REF_NAMES)}",
            f"import pkg.m{j} as m{j}",
            f"from . import m{j}",
        ]))

    def ref() -> str:
        j = pick(draw, others)
        return pick(draw, REF_NAMES + [f"m{j}.{pick(draw, REF_NAMES)}"])

    def value() -> str:
        return pick(draw, [
            lambda: ref(),
            lambda: "set()",
            lambda: "frozenset()",
            lambda: "{" + repr(pick(draw, ARCH_NAMES)) + "}",
            lambda: f"{ref()} | {ref()}",
            lambda: f"frozenset({ref()})",
            lambda: f"{{*{ref()}, {pick(draw, ARCH_NAMES)!r}}}",
            lambda: f"{ref()}.union({ref()})",
            lambda: repr(pick(draw, ARCH_NAMES)),
        ])()

    for _ in range(draw(st.integers(1, 5))):
        name = pick(draw, REF_NAMES)
        lines.append(pick(draw, [
            lambda name=name: f"{name} = {value()}",
            lambda name=name: f"{name} |= {value()}",
            lambda name=name: f"{name}.update({value()})",
            lambda: f"def {pick(draw, PRED_NAMES)}(c):\n    return c.architectures[0] in {value()}",
            lambda: (f"def {pick(draw, PRED_NAMES)}(c):\n    return "
                     f"{pick(draw, PRED_NAMES)}(c) or {pick(draw, PRED_NAMES)}(c)"),
            # a predicate of something else (`get_bool_env_var`): it carries no name to its callers
            lambda: f"def {pick(draw, PRED_NAMES)}(c):\n    return c.flag in ('true', '1')",
            lambda: f"EntryClass = [{', '.join([pick(draw, ARCH_NAMES) for _ in range(draw(st.integers(0, 3)))])}]",
        ])())
    return "\n".join(lines) + "\n"


@fuzz_settings("references")
@given(st.tuples(reference_module(0), reference_module(1), reference_module(2)))
@example(("A_ARCHS = set()\n", "", "from pkg.m0 import *\nB_ARCHS = A_ARCHS\n"))  # found by this test
def test_engine_survives_reference_graphs(modules):
    with tempfile.TemporaryDirectory(prefix="archsync-refs-") as directory:
        root = Path(directory).resolve()
        _write_tree(root, {f"pkg/m{i}.py": _encode(text) for i, text in enumerate(modules)})
        config = Config(root=root, guard=("*_ARCHS", "C"))
        uncached = run_with(config, Request(use_cache=False))
        warm = run_with(config), run_with(config)
        unfiltered = run_with(dataclasses.replace(config, prefilter=False), Request(use_cache=False))
        assert _diagnostics(warm[0]) == _diagnostics(uncached) == _diagnostics(warm[1]) == _diagnostics(unfiltered)


# -- 4c. oracle: archsync's resolution of a collection equals Python's own value ---------------------

KINDS = ("set", "frozenset", "list", "tuple", "dict")


def typed(draw, kind: str, helpers: Dict[str, str], depth: int = 0) -> str:
    """An expression of the given runtime type that evaluates without error.

    `helpers` maps names already defined (here or imported) to their kind.
    """
    def strings(min_size: int = 0) -> List[str]:
        return [repr(s) for s in draw(st.lists(STRINGS, min_size=min_size, max_size=4))]

    def sub(of_kind: str) -> str:
        return typed(draw, of_kind, helpers, depth + 1)

    iterable = lambda: sub(pick(draw, KINDS))  # noqa: E731
    setlike = lambda: sub(pick(draw, ["set", "frozenset"]))  # noqa: E731

    def elements(min_size: int = 0) -> List[str]:
        """String literals with starred iterables among them."""
        items = strings(min_size)
        for _ in range(draw(st.integers(0, 2))):
            items.insert(draw(st.integers(0, len(items))), f"*({iterable()})")
        return items

    def dict_literal() -> str:
        items = [f"{s}: {draw(st.integers(0, 9))}" for s in strings()]
        for _ in range(draw(st.integers(0, 2))):
            items.insert(draw(st.integers(0, len(items))), f"**({sub('dict')})")
        return "{" + ", ".join(items) + "}"

    def keywords() -> List[str]:
        names = draw(st.lists(ARCH_NAME, max_size=3, unique=True))
        return [f"{n}={draw(st.integers(0, 9))}" for n in names]

    leaves: Dict[str, List[Callable[[], str]]] = {
        "set": [lambda: "{" + ", ".join(strings(min_size=1)) + "}", lambda: "set()"],
        "frozenset": [lambda: "frozenset({" + ", ".join(strings(min_size=1)) + "})", lambda: "frozenset()"],
        "list": [lambda: "[" + ", ".join(strings()) + "]", lambda: "list()"],
        "tuple": [lambda: "(" + "".join(s + ", " for s in strings()) + ")", lambda: "tuple()"],
        "dict": [lambda: "{" + ", ".join(f"{s}: 1" for s in strings()) + "}", lambda: "dict()",
                 lambda: "dict(" + ", ".join(keywords()) + ")"],
    }
    options = list(leaves[kind])
    options += [(lambda name=name: name) for name, k in helpers.items() if k == kind]
    if depth < 3:
        options += {
            "set": [lambda: f"set({iterable()})",
                    lambda: "{" + ", ".join(elements(min_size=1)) + "}",
                    lambda: f"({sub('set')}) | ({setlike()})",
                    lambda: f"({sub('set')}).union(" + ", ".join(iterable() for _ in range(draw(st.integers(0, 2))))
                    + ")",
                    lambda: f"({sub('set')}).copy()",
                    lambda: f"set(({sub('dict')}).keys())"],
            "frozenset": [lambda: f"frozenset({iterable()})",
                          lambda: f"({sub('frozenset')}) | ({setlike()})",
                          lambda: f"({sub('frozenset')}).union({iterable()})",
                          lambda: f"({sub('frozenset')}).copy()"],
            "list": [lambda: f"list({iterable()})", lambda: f"sorted({iterable()})",
                     lambda: "[" + ", ".join(elements()) + "]",
                     lambda: f"({sub('list')}) + ({sub('list')})", lambda: f"({sub('list')}).copy()"],
            "tuple": [lambda: f"tuple({iterable()})", lambda: "(" + "".join(e + ", " for e in elements()) + ")",
                      lambda: f"({sub('tuple')}) + ({sub('tuple')})"],
            "dict": [dict_literal, lambda: f"dict({sub('dict')})",
                     lambda: "dict(" + ", ".join([sub("dict")] + keywords()) + ")",
                     lambda: f"({sub('dict')}) | ({sub('dict')})", lambda: f"({sub('dict')}).copy()",
                     lambda: f"{{**({sub('dict')}), **({sub('dict')})}}"],
        }[kind]
    return pick(draw, options)()


def growth(draw, kind: str, helpers: Dict[str, str]) -> List[str]:
    """Type-correct statements that grow X_ARCHS after its assignment."""
    any_iterable = lambda: typed(draw, pick(draw, KINDS), helpers, 2)  # noqa: E731
    text = lambda: repr(draw(STRINGS))  # noqa: E731
    options = {
        "set": [lambda: f"X_ARCHS.add({text()})", lambda: f"X_ARCHS.update({any_iterable()})",
                lambda: f"X_ARCHS |= {typed(draw, pick(draw, ['set', 'frozenset']), helpers, 2)}"],
        "frozenset": [lambda: f"X_ARCHS |= {typed(draw, pick(draw, ['set', 'frozenset']), helpers, 2)}"],
        "list": [lambda: f"X_ARCHS.append({text()})", lambda: f"X_ARCHS.extend({any_iterable()})",
                 lambda: f"X_ARCHS += {typed(draw, 'list', helpers, 2)}"],
        "tuple": [lambda: f"X_ARCHS += {typed(draw, 'tuple', helpers, 2)}"],
        "dict": [lambda: f"X_ARCHS[{text()}] = 1", lambda: f"X_ARCHS.update({typed(draw, 'dict', helpers, 2)})",
                 lambda: f"X_ARCHS.update({pick(draw, ARCH_NAMES)}=2)",
                 lambda: f"X_ARCHS |= {typed(draw, 'dict', helpers, 2)}"],
    }[kind]
    return [pick(draw, options)() for _ in range(draw(st.integers(0, 3)))]


@st.composite
def oracle_program(draw) -> Tuple[str, str, str, str]:
    """(base module source, imports of m, body of m, kind of X_ARCHS)."""
    base_helpers: Dict[str, str] = {}
    base_lines = []
    for i in range(draw(st.integers(0, 2))):
        kind = pick(draw, KINDS)
        base_lines.append(f"B{i} = {typed(draw, kind, dict(base_helpers))}")
        base_helpers[f"B{i}"] = kind
    helpers: Dict[str, str] = {}
    imports = []
    for name, kind in base_helpers.items():
        style = pick(draw, ["from", "alias", "module"])
        if style == "from":
            imports.append(f"from pkg.base import {name}")
            helpers[name] = kind
        elif style == "alias":
            imports.append(f"from pkg.base import {name} as {name}_alias")
            helpers[f"{name}_alias"] = kind
        else:
            helpers[f"base.{name}"] = kind
    if any(h.startswith("base.") for h in helpers):
        imports.append("import pkg.base as base")
    body = []
    for i in range(draw(st.integers(0, 2))):
        kind = pick(draw, KINDS)
        body.append(f"H{i} = {typed(draw, kind, dict(helpers))}")
        helpers[f"H{i}"] = kind
    kind = pick(draw, KINDS)
    body.append(f"X_ARCHS = {typed(draw, kind, helpers)}")
    body += growth(draw, kind, helpers)
    return "\n".join(base_lines) + "\n", "\n".join(imports) + "\n", "\n".join(body) + "\n", kind


def _python_value(base: str, body: str) -> frozenset:
    """What Python computes for X_ARCHS: exec of our own generated snippet, nothing else."""
    base_namespace: dict = {}
    exec(compile(base, "pkg/base.py", "exec"), base_namespace)  # noqa: S102 - our generated code only
    namespace: dict = {k: v for k, v in base_namespace.items() if not k.startswith("__")}
    namespace["base"] = types.SimpleNamespace(**namespace)
    namespace.update({f"{k}_alias": v for k, v in list(namespace.items()) if k != "base"})
    exec(compile(body, "pkg/m.py", "exec"), namespace)  # noqa: S102 - our generated code only
    value = namespace["X_ARCHS"]
    return frozenset(value.keys() if isinstance(value, dict) else value)


@fuzz_settings("oracle")
@given(oracle_program())
def test_resolved_names_equal_what_python_computes(program):
    base, imports, body, _kind = program
    expected = _python_value(base, body)
    with tempfile.TemporaryDirectory(prefix="archsync-oracle-") as directory:
        root = Path(directory).resolve()
        _write_tree(root, {"pkg/base.py": base.encode(), "pkg/m.py": (imports + body).encode()})
        report = run_with(Config(root=root), Request(use_cache=False))
        found = [c for c in report.model.collections if c.subject == "X_ARCHS" and c.path == "pkg/m.py"]
        assert len(found) == 1, f"X_ARCHS not read as a collection:\n{imports}{body}"
        members = found[0].members
        assert members.unknown == (), f"{members.unknown}\n--- pkg/base.py\n{base}--- pkg/m.py\n{imports}{body}"
        assert members.names == expected, (
            f"archsync: {sorted(members.names)}\npython:   {sorted(expected)}\n"
            f"--- pkg/base.py\n{base}--- pkg/m.py\n{imports}{body}")


def test_example_budget_is_in_the_thousands():
    assert TOTAL_EXAMPLES >= 5000
