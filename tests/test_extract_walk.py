"""The fast paths of reading a parsed file say what the plain ones said (in-process).

`walk.acted_on` stands in for a walk of every node by `ast.iter_child_nodes`, and
`ModuleContext.mentions` for a test of each line of a span: both are compared with those
plain versions on this repository's own code, on odd shapes, and on generated Python (the walk: in
test_fuzz.py, which generates it once for every reader it fuzzes).
"""
from __future__ import annotations

import ast
import re
import sys
import textwrap
from pathlib import Path
from typing import Iterator, List

import pytest

from lint_plugin.extract.context import ModuleContext
from lint_plugin.extract.walk import ACTED_ON, acted_on

REPO = Path(__file__).resolve().parent.parent
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def plain_walk(function: ast.AST) -> Iterator[ast.AST]:
    """The walk `acted_on` replaced: every node of the body in source order, nested scopes left out."""
    stack: List[ast.AST] = list(reversed(function.body))  # type: ignore[attr-defined]
    while stack:
        child = stack.pop()
        if isinstance(child, _NESTED):
            continue
        yield child
        stack.extend(reversed(list(ast.iter_child_nodes(child))))


def assert_same_walks(tree: ast.AST) -> int:
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for function in functions:
        expected = [n for n in plain_walk(function) if type(n) in ACTED_ON]
        assert list(acted_on(function)) == expected, ast.dump(function)[:300]
    return len(functions)


def test_the_walk_matches_the_plain_walk_on_this_repository():
    paths = sorted((REPO / "lint_plugin").rglob("*.py")) + sorted((REPO / "tests").glob("*.py"))
    assert sum(assert_same_walks(ast.parse(p.read_bytes())) for p in paths) > 1000


ODD = [
    # nested scopes are left out, their decorators and defaults are not (they run in the body)
    "def f(x):\n    @d(g('A'))\n    def inner(y=h('B')):\n        return y in S\n    class C(Base, k=m(1)):\n"
    "        z = n('C')\n    return (lambda a: a in T)(x) or x in U\n",
    # every kind of statement and expression the reader acts on, nested in the others
    textwrap.dedent("""\
        async def f(a, *b, c=1, **d):
            from m import n as o
            import p
            x = y = [i for i in r if i in s]
            x += 1
            x[k] = v
            async with w() as (q, t):
                async for u in z():
                    if a and b or c:
                        pass
                    elif a in [1, 2] < 3:
                        break
            try:
                raise E(f'{a!r:>{b}}')
            except (A, B) as e:
                del e
            else:
                continue_ = not a
            finally:
                assert a == 'Qwen', msg
            while g(a):
                global gl
                nonlocal_ = {**d, 'k': a if b else c}
            yield from (await h(i) for i in a)
            return x.startswith(('A', 'B'))
    """),
    pytest.param("def f(a):\n    match a:\n        case {'k': [1, *rest]} | Point(x=0) if rest in S:\n"
                 "            return a[1:2, ...]\n        case _:\n            return g('A')\n",
                 marks=pytest.mark.skipif(sys.version_info < (3, 10), reason="match needs Python 3.10")),
    "def f():\n    pass\n",
    "def f():\n    '''only a docstring'''\n",
]


@pytest.mark.parametrize("source", ODD)
def test_the_walk_matches_the_plain_walk_on_odd_shapes(source):
    assert assert_same_walks(ast.parse(source))


def assert_same_walk_of_a_body(source: str) -> None:
    """A generated module's body made a function body (every statement can be in one): walked alike.
    Run on grammatical Python by `test_fuzz.py`, which generates it once for every reader it fuzzes."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    function = ast.FunctionDef(name="f", args=ast.arguments([], [], None, [], [], None, []), body=tree.body or
                               [ast.Pass()], decorator_list=[], lineno=1, col_offset=0)
    assert_same_walks(ast.Module(body=[function], type_ignores=[]))


def plain_mentions(lines: List[bytes], first: int, last: int, needles: List[bytes]) -> bool:
    return any(needle in line for needle in needles for line in lines[first - 1:last])


def test_mentions_is_a_test_of_each_line_of_the_span():
    text = b"def f():\n    isinstance(x, A)\n\n    return register(x)\n# egist\nlast"
    lines = text.split(b"\n")
    context = ModuleContext("m.py", "m", False, lines, re.compile("x"))
    needles = [[b"isinstance("], [b"egist"], [b"last"], [b"A)"], [b"nothing"], [b"nothing", b"f()"], []]
    for first in range(1, len(lines) + 2):
        for last in range(first - 1, len(lines) + 3):
            for wanted in needles:
                assert context.mentions(first, last, wanted) == plain_mentions(lines, first, last, wanted), \
                    (first, last, wanted)


def test_mentions_in_a_file_without_lines():
    assert not ModuleContext("m.py", "m", False, [], re.compile("x")).mentions(1, 3, [b"a"])
