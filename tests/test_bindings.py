"""Import bindings read from bytes hold every binding the parser reads (`extract/bindings.py`).

The prefilter chooses the files whose imports reach a chosen file's names, from the bytes alone; the
extractor reads the same statements from the tree (`ModuleContext.add_import`, `ref`). Here the bytes'
bindings are compared with the tree's, statement by statement: every import statement at any depth,
every dotted path written from a plainly imported package. On odd layouts, on this repository's own
code, and on generated Python (test_fuzz.py).
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Set

import pytest

from lint_plugin.extract.bindings import (
    Reachers,
    Targets,
    absolute_module,
    dotted_paths,
    import_bindings,
    reach_of,
)

REPO = Path(__file__).resolve().parent.parent


def assert_bindings_cover_the_tree(source: str, package: str = "pkg") -> None:
    """Every binding the parser sees in `source` is among the bytes' bindings."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    data = source.encode("utf-8")
    found = import_bindings(data)
    tops = {binding[1:] for binding in found if binding[0] == "^"}  # every plain import taken for the project's
    reach = reach_of(found, package, tops, lambda head: dotted_paths(data, head))
    resolved = {(item.name, item.prefix, item.path, item.star) for item in reach}
    plain: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = absolute_module(package, node.module or "", node.level)
            if base is None:
                continue
            for alias in node.names:
                star = alias.name == "*"
                expected = ("", base, "", True) if star else (alias.name, f"{base}.{alias.name}", "", False)
                assert expected in resolved, (ast.unparse(node), sorted(found))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    assert ("", alias.name, "", False) in resolved, (ast.unparse(node), sorted(found))
                else:
                    top = alias.name.partition(".")[0]
                    assert "^" + top in found, (ast.unparse(node), sorted(found))
                    plain.add(top)
    paths = {item.path for item in reach if item.path}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if dotted and dotted.partition(".")[0] in plain:
                assert any(path == dotted or path.startswith(dotted + ".") for path in paths), (dotted, sorted(paths))


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


LAYOUTS = {
    "plain": "import os, a.b.c as abc\nimport mypkg.sub\nx = mypkg.sub.NAMES\n",
    "parenthesised with comments": "from x.y import (p,  # see (q)\n    q as qq,\n    r)\n",
    "continuation": "from x.y import p, \\\n    q\nfrom \\\n    z import w\n",
    "after a colon": "if TYPE_CHECKING: import zz\ntry: from a import b\nexcept ImportError: b = None\n",
    "after a semicolon": "x = 1; import semi; from s import t\n",
    "relative": "from . import names\nfrom ..up import *\nfrom .mod import (A as B)\n",
    "inside a function": "def f():\n    from inner import thing\n    import deep.er as d\n    return thing\n",
    "inside a class": "class C:\n    from m import X\n",
    "tabs and form feeds": "\fimport tabbed\nif x:\n\tfrom t import u\n",
    "carriage returns": "import crlf\r\nfrom r import s\r\n",
    "dotted paths": "import mypkg\nimport mypkg.a\nv = mypkg.a.b.C\nw = (mypkg\n     .a.D)\n",
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_layout_gives_the_bindings_the_parser_reads(name):
    assert_bindings_cover_the_tree(LAYOUTS[name])


def test_the_bindings_of_one_statement_are_exactly_it():
    found = import_bindings(b"import os.path, a.b as ab\nfrom ..m import (X as Y, Z)\nfrom n import *\n"
                            b"import mypkg.sub\nv = mypkg.sub.K\n")
    assert sorted(found) == ["0:a.b:", "0:n:*", "2:m:X", "2:m:Z", "^mypkg", "^os"]
    source = b"import mypkg.sub\nv = mypkg.sub.K\nw = (mypkg  # a comment\n     .other.X)\nnot_mypkg.y = 1\n"
    assert dotted_paths(source, "mypkg") == {"mypkg.sub", "mypkg.sub.K", "mypkg.other.X"}


def test_a_statement_in_a_string_or_a_continued_line_may_be_read_but_never_one_missed():
    found = import_bindings(b'x = """\nimport quoted\n"""\ny = "from a import b"\nz = 1 + \\\n    2\n')
    assert sorted(found) == ["^quoted"]  # more than the parser reads is safe: the selection may parse more


def test_this_repositorys_code():
    for path in sorted((REPO / "lint_plugin").rglob("*.py")) + sorted((REPO / "tests").rglob("*.py")):
        assert_bindings_cover_the_tree(path.read_text(encoding="utf-8"), "lint_plugin.x")


def reaches(reach, targets) -> bool:
    """Does a module with these bindings reach the targets, by the selection's one rule?"""
    return bool(reach.reaching(targets))


def test_what_a_binding_reaches():
    source = {"pkg": {"pkg.b.c.D"}}
    reach = Reachers.of([("m", ["0:pkg.consts:names", "1::mid", "0:pkg.a:", "^pkg", "^torch", "0:pkg.star:*"],
                          "pkg.sub")], {"pkg"}, lambda module: lambda head: source.get(head, set()))
    assert reaches(reach, Targets.of({"names"}, set()))  # a name it imports
    assert reaches(reach, Targets.of(set(), {"pkg.consts.names"}))  # a module it imports from a package
    assert reaches(reach, Targets.of(set(), {"pkg.sub.mid"}))  # relative, from its own package
    assert reaches(reach, Targets.of(set(), {"pkg.a.deep"}))  # a module under a module it binds
    assert reaches(reach, Targets.of(set(), {"pkg.b.c"}))  # a module a written dotted path passes through
    assert reaches(reach, Targets.of(set(), {"pkg.star"}))  # what a star import holds
    assert not reaches(reach, Targets.of(set(), {"pkg.other"}))  # `import pkg` alone reaches only what it writes
    assert not reaches(reach, Targets.of({"OTHER"}, {"pkg.b.c.D.E"}))
    assert not reaches(reach, Targets.of(set(), {"torch.nn"}))  # not a package of the project: its paths unread


def test_the_index_of_many_modules_resolves_each_binding_from_its_own_package():
    """`Reachers.of` resolves a binding once for every module holding it: an absolute one the same from any
    package, a relative one from each holder's package, a plain import of a top package by each module's paths."""
    written = {"pkg.a.user": {"pkg.deep.mod.X"}}
    reachers = Reachers.of([("pkg.a.user", ["1::consts", "0:pkg.shared:NAMES", "^pkg"], "pkg.a"),
                            ("pkg.b.user", ["1::consts", "0:pkg.shared:NAMES", "^pkg"], "pkg.b"),
                            ("other.user", ["0:pkg.shared:NAMES", "^torch"], "other")],
                           {"pkg"}, lambda module: lambda head: written.get(module, set()))
    assert reachers.reaching(Targets.of(set(), {"pkg.a.consts"})) == {"pkg.a.user"}
    assert reachers.reaching(Targets.of(set(), {"pkg.b.consts"})) == {"pkg.b.user"}
    assert reachers.reaching(Targets.of({"NAMES"}, set())) == {"pkg.a.user", "pkg.b.user", "other.user"}
    assert reachers.reaching(Targets.of(set(), {"pkg.deep.mod"})) == {"pkg.a.user"}  # only it writes the path
