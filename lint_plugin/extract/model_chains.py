"""An if/elif chain that builds a model for each name it tests: a registry written as code.

Some servers choose the model class in a chain of tests rather than a table:

    if config.architectures[0] == "DeepseekV3ForCausalLM":
        self.model = KDeepseekV3ForCausalLM(config)
    elif config.architectures[0] in ("Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM"):
        self.model = KQwen2MoeForCausalLM(config)

or, keyed by model type, `elif self.model_type == "llama": self.model = LlamaTpPartModel(kvargs)`.
Each tested name is registered there, served by the model class its branch builds: a chain of two
branches or more, each testing written names and assigning (or returning) an instance of a model
class (`...ForCausalLM`, `...Model`, `...LM`) to one target. Its tests tell the names apart on
purpose: they are dispatches, never lists to complete. The lone `if`s after the chain in its scope that
test the same value and build into the same target join it (early returns after it, as text-generation-inference's
`get_model()` has); a name tested may stand for its string (`model_type == LLAMA`, `named_strings.py`);
a wrapper given the model class (`FlashCausalLM(model_id, model_class=FlashLlamaForCausalLM)`) builds
that class. The prefilter keeps a file where an `elif` tests a written string (or a name in the shape
of one standing for it) and its branch assigns or returns a model class's instance (`may_build_per_name`):
the only files such a dispatch can be in (every one has a chain of two branches, an `elif` that builds).
"""
from __future__ import annotations

import ast
import functools
import re
from collections import Counter, deque
from dataclasses import dataclass
from typing import Deque, List, Optional, Pattern, Sequence, Tuple

from .context import ModuleContext
from .facts import Member
from .model_type_keys import is_model_type, written_as_model_types
from .named_strings import NAMED
from .spelling import MODEL_CLASS

_STRINGS = (ast.List, ast.Tuple, ast.Set)

ELIF = b"elif"  # a chain of two branches has one: a file without it holds no chain
# an `elif` testing written strings (`elif x == "A"`, `elif x in ("A", ...)`, `elif "A" == x`): a chain's second test
# (or a constant's name: `elif model_type == LLAMA`, `== ModelType.LLAMA.value`, `named_strings.py`)
_ELIF_TEST = re.compile(rb"elif\b(?:[^\n]*?(?:==|!=|\bin)\s*[\[(]?\s*(?:[\"']|" + NAMED + rb"\s*[:)\],])"
                        rb"|\s+\(?\s*(?:[\"']|" + NAMED + rb"\s*==))")
# an instance of a model class assigned or returned (`self.model = KQwen2MoeForCausalLM(`, `return m.LlamaModel (`),
# or the class itself (`dispatch_model = FastMistralModel` ending its line, or `= FastQwen3Model if ...`)
_BUILT = re.compile(rb"(?:(?<![=!<>])=(?!=)|\breturn\b)[ \t]*(?:[\w.]+\.)?_*[A-Z]\w*(?:For[A-Z]\w*|Model|LM)"
                    rb"(?:\s*\(|[ \t]*(?:#[^\n]*)?(?:\r?\n|$)|[ \t]+if\b)")
_OPENING, _CLOSING = (b"(", b"[", b"{"), (b")", b"]", b"}")  # a test's brackets span lines


def may_build_per_name(source: bytes) -> bool:
    """May the file hold a chain that builds a model per name? The prefilter's signal: some `elif` testing
    written strings whose branch (the lines after its test, indented deeper than it) assigns or returns an
    instance of a model class, as `_built` reads one. Most model files test strings in an `elif` and build
    models, but not in the same branch. (`elif` is too common a word for the prefilter's one scan.)"""
    start = source.find(ELIF)
    while start != -1:
        if _ELIF_TEST.match(source, start) is not None and _branch_builds(source, start):
            return True
        start = source.find(ELIF, start + len(ELIF))
    return False


def _branch_builds(source: bytes, start: int) -> bool:
    indent = start - (source.rfind(b"\n", 0, start) + 1)
    depth, at = 0, start
    while True:  # past the test, whose brackets may close on a line of the `elif`'s own indentation
        end = source.find(b"\n", at)
        if end == -1:
            return _BUILT.search(source, start) is not None
        line = source[at:end]
        depth += sum(line.count(c) for c in _OPENING) - sum(line.count(c) for c in _CLOSING)
        at = end + 1
        if depth <= 0:
            break
    branch_end = _dedent(indent).search(source, end)
    return _BUILT.search(source, start, branch_end.start() if branch_end is not None else len(source)) is not None


@functools.lru_cache(maxsize=None)
def _dedent(indent: int) -> Pattern[bytes]:
    """The next line that says something at `indent` or less: the branch's end (the next branch, or the chain's)."""
    return re.compile(rb"\n[ \t]{0,%d}(?=[^ \t\r\n#])" % indent)


@dataclass(frozen=True)
class ChainRegistration:
    """What one chain registers: per scheme (architectures, or model types), the names and their classes."""

    target: str  # what each branch assigns (`self.model`), or `return`
    names: Tuple[Member, ...]
    classes: Tuple[str, ...]
    typed: bool  # the names are model types
    tests: Tuple[ast.expr, ...]  # the chain's tests: dispatches


def is_chain_registry(registry: str) -> bool:
    """Is a registration's registry a chain's (`scope:target`, `ModelRpcServer.exposed_init_model:self.model`)?
    Its names count after every other registration's: a chain may build the model another registry serves."""
    return ":" in registry and not registry.startswith("@")


@dataclass(frozen=True)
class _Branch:
    """One branch of a dispatch: its test, the strings it tests, what it builds, and what it tests them on."""

    test: ast.expr
    strings: Tuple[ast.Constant, ...]
    built: Tuple[Tuple[str, str], ...]  # (target, model class) of each instance it builds
    typed: bool  # the test is of a model type
    subject: str  # what the strings are compared with (its dump), "" when not one thing


class BuildingChain:
    """One scope's chain that builds a model per tested name, and the lone `if`s after it that join it."""

    def __init__(self, branches: List[_Branch], target: str) -> None:
        self.branches = branches
        self.target = target
        self.subject = branches[0].subject

    def tests(self) -> Tuple[ast.expr, ...]:
        return tuple(branch.test for branch in self.branches)

    def join(self, ctx: ModuleContext, node: ast.If) -> bool:
        """Does a lone `if` after the chain (`if model_type == COHERE: return ...`, no `elif` or `else`)
        test the same value and build into the same target? Then it is one more branch."""
        if node.orelse or not self.subject:
            return False
        branch = _branch(ctx, node)
        if branch.subject != self.subject or not any(t == self.target for t, _ in branch.built):
            return False
        self.branches.append(branch)
        return True

    def registrations(self, ctx: ModuleContext) -> List[ChainRegistration]:
        return _registrations(ctx, self.branches, self.target)


def building_chain(ctx: ModuleContext, head: ast.If) -> Optional[BuildingChain]:
    """The dispatch of the chain that starts at `head`, or None: its first test must be of written strings
    (asked of every `if` of a function that is read, most of which test something else), and two of its
    branches or more build into one target."""
    if not head.orelse or not _tested_strings(ctx, head.test)[0]:
        return None
    branches: List[_Branch] = []
    node: Optional[ast.If] = head
    while node is not None:
        branches.append(_branch(ctx, node))
        rest = node.orelse
        node = rest[0] if len(rest) == 1 and isinstance(rest[0], ast.If) else None
    targets = Counter(target for b in branches if b.strings for target in {t for t, _ in b.built})
    if not targets or targets.most_common(1)[0][1] < 2:
        return None
    return BuildingChain(branches, targets.most_common(1)[0][0])


def _branch(ctx: ModuleContext, node: ast.If) -> _Branch:
    strings, subjects = _tested_strings(ctx, node.test)
    typed = any(is_model_type(n, set()) for n in ast.walk(node.test))
    built = tuple(_built(_with_own_imports(ctx, node.body), node.body)) if strings else ()
    return _Branch(node.test, tuple(strings), built, typed, subjects[0] if len(set(subjects)) == 1 else "")


def _with_own_imports(ctx: ModuleContext, body: List[ast.stmt]) -> ModuleContext:
    """The context of a branch: a class it imports itself (`from transformers.models.x import XModel`) is that
    module's."""
    return ctx.scoped([n for stmt in body for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))])


def _registrations(ctx: ModuleContext, chain: Sequence[_Branch], target: str) -> List[ChainRegistration]:
    found: List[ChainRegistration] = []
    for typed in (False, True):
        names: List[Member] = []
        classes: List[str] = []
        for branch in chain:
            cls = next((c for t, c in branch.built if t == target), None)
            texts = [str(s.value) for s in branch.strings]
            if cls is None or not texts or _scheme(ctx, texts, branch.typed) is not typed:
                continue
            names += [Member(text, s.lineno, ctx.column(s)) for text, s in zip(texts, branch.strings)]
            classes += [cls] * len(branch.strings)
        if names:
            found.append(ChainRegistration(target, tuple(names), tuple(classes), typed,
                                           tuple(branch.test for branch in chain)))
    return found


def _scheme(ctx: ModuleContext, texts: Sequence[str], typed: bool) -> Optional[bool]:
    """True: model types (a test of a model type, in that shape and none an architecture name); False:
    architectures (a test of something else, all architecture names); None: neither (LightLLM's `"Yi"`)."""
    if typed:
        return True if written_as_model_types(texts, ctx.is_name) else None
    return False if all(ctx.is_name(t) for t in texts) else None


def _tested_strings(ctx: ModuleContext, test: ast.expr) -> Tuple[List[ast.Constant], List[str]]:
    """The strings a branch's test compares a value with (`x == "A"`, `x in ("A", "B")`, an `or` of those, one of
    them beside other conditions in an `and`; a string may be a name for one, `x == LLAMA`), and what each compare
    tests (dumped)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        found = [_tested_strings(ctx, v) for v in test.values]
        if not all(strings for strings, _ in found):
            return [], []
        return [s for strings, _ in found for s in strings], [t for _, tested in found for t in tested]
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        # `x == "A" and <a further condition>` (onnxruntime-genai's builder picks Phi-3's class by its context
        # length): the branch builds for A, when the condition holds too; A is served there
        found = [tested for tested in (_tested_strings(ctx, v) for v in test.values) if tested[0]]
        return found[0] if len(found) == 1 else ([], [])
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return [], []
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if isinstance(op, ast.Eq):
        sides = [(written, other) for side, other in ((left, right), (right, left))
                 for written in (ctx.written(side),) if written is not None]
        sides += [(written, other) for side, other in ((left, right), (right, left))
                  if isinstance(side, (ast.List, ast.Tuple)) and len(side.elts) == 1
                  for written in (ctx.written(side.elts[0]),) if written is not None]
        return ([sides[0][0]], [ast.dump(sides[0][1])]) if len(sides) == 1 else ([], [])
    if isinstance(op, ast.In) and isinstance(right, _STRINGS) and right.elts:
        strings = [ctx.written(e) for e in right.elts]
        if all(s is not None for s in strings):
            return [s for s in strings if s is not None], [ast.dump(left)]
    return [], []


def _built(ctx: ModuleContext, body: List[ast.stmt]) -> List[Tuple[str, str]]:
    """(target, model class) of each instance of a model class the branch assigns or returns, at any depth
    of its own statements (not in a function it defines), the shallowest first: the model it builds when
    nothing else is asked for (`else: self.model = LlamaTpPartModel(...)` before a quantized variant)."""
    found: List[Tuple[str, str]] = []
    queue: Deque[ast.AST] = deque(body)
    while queue:
        node = queue.popleft()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            cls = _model_class(ctx, node.value)
            target = ast.unparse(node.targets[0]) if cls else ""
            if cls and target:
                found.append((target, cls))
        elif isinstance(node, ast.Return) and node.value is not None:
            cls = _model_class(ctx, node.value)
            if cls:
                found.append(("return", cls))
        queue.extend(ast.iter_child_nodes(node))
    return found


def _model_class(ctx: ModuleContext, value: ast.expr) -> str:
    """`Cls(...)` or `module.Cls(...)`, Cls a model class: its name, else "". A wrapper given the model
    class to build (`FlashCausalLM(model_id, model_class=FlashLlamaForCausalLM)`) builds that class. The class
    itself, to be built later (`dispatch_model = FastQwen3Model`, or one of two: `A if moe else B`), is chosen as
    surely as an instance is built; it is named with the module it comes from (`module:Class`), so a chain that
    picks another package's classes (a script choosing among `transformers`' own) registers nothing of the
    project's (`resolve/foreign.py`)."""
    if isinstance(value, ast.IfExp):
        value = value.body
    if isinstance(value, (ast.Name, ast.Attribute)):
        if not MODEL_CLASS.fullmatch(_class_name(value)):
            return ""
        ref = ctx.ref(value)
        return f"{ref.module}:{ref.name}" if ref is not None else _class_name(value)
    if not isinstance(value, ast.Call):
        return ""
    name = _class_name(value.func)
    if not MODEL_CLASS.fullmatch(name):
        return ""
    given = [_class_name(arg) for arg in (*value.args, *(k.value for k in value.keywords))
             if isinstance(arg, (ast.Name, ast.Attribute))]
    return next((g for g in given if MODEL_CLASS.fullmatch(g)), name)


def _class_name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
