"""The byte prefilter never changes a finding: generated projects, checked with it and without it.

Each project registers two architectures of one lineage, keeps a whitelist that holds one of them,
and a family predicate (`is_alpha`) reaches the names through modules of constants, by one of the
ways Python lets a module see another's names: every import form the extractor follows (from-import,
`as`, a module object and its attribute, `import a.b` and the dotted path, relative imports, a star
import, a package re-exporting a name, an import inside the function), through zero or more modules
in between, tested by `in`, by `==` chains or by delegating to another predicate. Parsing every file
(`prefilter=False`) finds the family, and ARC101 says the whitelist lacks the other name; the
prefilter must lead to the same findings, whatever the way. (Forms listed in `FORMS` below.)
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Dict, List, Tuple

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lint_plugin.config import load_config
from lint_plugin.pipeline import Request, run_with

NAMES = ("AlphaForCausalLM", "AlphaMoeForCausalLM")
CONSTANTS = ("ALPHA", "ALPHA_MOE")

CLASSES = "class AlphaForCausalLM:\n    pass\n\n\nclass AlphaMoeForCausalLM:\n    pass\n\n\n"
# How `pkg/models.py` registers the two: every shape the extractor reads a registration in.
REGISTRATIONS = {
    "EntryClass": CLASSES + "EntryClass = [AlphaForCausalLM, AlphaMoeForCausalLM]\n",
    "registry dict": '_MODELS = {\n    "AlphaForCausalLM": ("alpha", "AlphaForCausalLM"),\n'
                     '    "AlphaMoeForCausalLM": ("alpha", "AlphaMoeForCausalLM"),\n}\n',
    "path strings": "MODELS = {\n    'AlphaForCausalLM': 'pkg.alpha:AlphaForCausalLM',\n"
                    "    'AlphaMoeForCausalLM':\n        'pkg.alpha:AlphaMoeForCausalLM',\n}\n",
    "registering calls": CLASSES + 'def setup(registry):\n'
                                   '    registry.register_model("AlphaForCausalLM", AlphaForCausalLM)\n'
                                   '    registry.register_model(\n        "AlphaMoeForCausalLM",\n'
                                   '        AlphaMoeForCausalLM)\n',
    "registering calls keyed by their own names": CLASSES + 'def setup(registry):\n'
                                   '    registry.register_model("alpha", AlphaForCausalLM, ["AlphaForCausalLM"])\n'
                                   '    registry.register_model(\n        "alpha_moe",\n        AlphaMoeForCausalLM,\n'
                                   '        support_architectures=["AlphaMoeForCausalLM"])\n',
    "decorators": 'from pkg.registry import register_auto_model\n\n\n@register_auto_model("AlphaForCausalLM")\n'
                  'class AlphaForCausalLM:\n    pass\n\n\n@register_auto_model(\n    "AlphaMoeForCausalLM",\n)\n'
                  'class AlphaMoeForCausalLM:\n    pass\n',
    "item stores": CLASSES + 'REGISTRY = {}\nREGISTRY["AlphaForCausalLM"] = AlphaForCausalLM\n'
                   'REGISTRY[\'AlphaMoeForCausalLM\'] = AlphaMoeForCausalLM\n',
    "dict keywords": CLASSES + "SUPPORTED = dict(\n    AlphaForCausalLM=AlphaForCausalLM,\n"
                     "    AlphaMoeForCausalLM=AlphaMoeForCausalLM,\n)\n",
}
# Where the package lies: at the project root, or in a `src/` directory that is no source root (its modules
# are `src.pkg...`, imported as `pkg...`: the resolver lets one leading directory be missing).
LAYOUTS = {"flat": "", "src": "src/"}
# Where the list that lacks a name is: a guarded name at module level, or in a class.
WHITELISTS = {
    "guarded": '_LONG_CONTEXT_ARCHS = frozenset({"AlphaForCausalLM"})\n',
    "class attribute": 'class Server:\n    _LONG_CONTEXT_ARCHS = ("AlphaForCausalLM",)\n',
}


@dataclasses.dataclass(frozen=True)
class Form:
    """How `family.py` reaches a constant of `pkg/consts/names.py`: the import (module level, or inside
    the function) and the expression naming the constant there."""

    name: str
    imports: str  # with {C} for the constant
    expression: str


FORMS: Tuple[Form, ...] = (
    Form("from-import", "from pkg.consts.names import {C}\n", "{C}"),
    Form("from-import as", "from pkg.consts.names import {C} as K_{C}\n", "K_{C}"),
    Form("module object", "from pkg.consts import names\n", "names.{C}"),
    Form("import as", "import pkg.consts.names as nm\n", "nm.{C}"),
    Form("dotted path", "import pkg.consts.names\n", "pkg.consts.names.{C}"),
    Form("relative", "from .consts.names import {C}\n", "{C}"),
    Form("relative module", "from .consts import names as rn\n", "rn.{C}"),
    Form("star", "from pkg.consts.names import *\n", "{C}"),
    Form("re-export", "from pkg.consts import {C}\n", "{C}"),
    Form("re-exported module", "import pkg.consts as pc\n", "pc.{C}"),
    Form("through a tuple", "from pkg.mid import BOTH\n", "BOTH"),
    Form("through a module of a tuple", "from pkg import mid\n", "mid.BOTH"),
)
TESTS = ("in", "or-chain", "delegation", "prefix", "prefix constant", "prefix tuple")
# the constants a prefix test reaches: a piece of both names, and a tuple of pieces
PIECES = {"prefix constant": "PREFIX", "prefix tuple": "PREFIXES"}
# How `pkg/consts/names.py` spells the names: the bytes need not hold a name as it reads.
SPELLINGS = {
    "plain": lambda name: f'"{name}"',
    "single quotes": lambda name: f"'{name}'",
    "triple quotes": lambda name: f'"""{name}"""',
    "raw": lambda name: f'r"{name}"',
    "concatenated": lambda name: f'"{name[:3]}" "{name[3:]}"',
    "concatenated across lines": lambda name: f'(\n    "{name[:3]}"\n    "{name[3:]}"\n)',
    "escaped": lambda name: '"' + name[:3] + "\\x" + format(ord(name[3]), "02x") + name[4:] + '"',
    "unicode escape": lambda name: '"' + name[:3] + "\\u" + format(ord(name[3]), "04x") + name[4:] + '"',
}


def _project(root: Path, first: Form, second: Form, test: str, local: bool, spelling: str = "plain",
             registration: str = "EntryClass", whitelist: str = "guarded", layout: str = "flat") -> Path:
    files: Dict[str, str] = {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/registry.py": "def register_auto_model(name):\n    return lambda cls: cls\n",
        "pkg/models.py": REGISTRATIONS[registration],
        "pkg/overrides.py": WHITELISTS[whitelist],
        "pkg/consts/__init__.py": "from .names import ALPHA, ALPHA_MOE\n",
        "pkg/consts/names.py": "".join(f"{c} = {SPELLINGS[spelling](n)}\n" for c, n in zip(CONSTANTS, NAMES)),
        "pkg/mid.py": "from pkg.consts.names import ALPHA, ALPHA_MOE\n\nBOTH = (ALPHA, ALPHA_MOE)\n",
    }
    if test in PIECES:  # pieces alone: the module quotes no name, only what a prefix test reaches
        files.update({"pkg/consts/__init__.py": "from .names import PREFIX, PREFIXES\n",
                      "pkg/consts/names.py": f'PREFIX = {SPELLINGS[spelling]("Alpha")}\nPREFIXES = ("Alpha", "Zeta")\n',
                      "pkg/mid.py": 'from pkg.consts.names import PREFIX\n\nBOTH = (PREFIX, "Zeta")\n'})
    imports: List[str] = []
    refs: List[str] = []
    constants = (PIECES[test],) * 2 if test in PIECES else CONSTANTS
    for form, constant in ((first, constants[0]), (second, constants[1])):
        line = form.imports.format(C=constant)
        if line not in imports:
            imports.append(line)
        ref = form.expression.format(C=constant)
        refs.append(f"*{ref}" if ref.endswith("BOTH") else ref)
    header = "" if local else "".join(imports)
    body = "".join("    " + line for line in imports) if local else ""
    arch = "config.architectures[0]"
    if test == "prefix":
        check = f'    return {arch}.startswith("Alpha")\n'
    elif test in PIECES:
        check = f"    return {arch}.startswith({refs[0].lstrip('*')})\n"
    elif test == "in":
        check = f"    return {arch} in ({', '.join(refs)},)\n"
    elif test == "or-chain":
        check = "    arch = " + arch + "\n    return " + " or ".join(
            f"arch in {r[1:]}" if r.startswith("*") else f"arch == {r}" for r in refs) + "\n"
    else:
        check = f"    return _is_alpha_dense(config) or {arch} in ({refs[1]},)\n"
        header += f"\n\ndef _is_alpha_dense(config):\n    return {arch} in ({refs[0]},)\n"
        body_first = "".join("    " + line for line in imports) if local else ""
        header = header.replace("    return", body_first + "    return", 1) if local else header
    files["pkg/family.py"] = header + "\n\ndef is_alpha(config):\n" + body + check
    for rel, text in files.items():
        path = root / (LAYOUTS[layout] + rel if rel.startswith("pkg/") else rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _findings(root: Path, prefilter: bool) -> List[str]:
    config = dataclasses.replace(load_config(root), prefilter=prefilter)
    return [f"{d.path}:{d.line}: {d.code} {d.message}" for d in run_with(config, Request(use_cache=False)).diagnostics]


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(first=st.sampled_from(FORMS), second=st.sampled_from(FORMS), test=st.sampled_from(TESTS),
       local=st.booleans(), spelling=st.sampled_from(sorted(SPELLINGS)),
       registration=st.sampled_from(sorted(REGISTRATIONS)), whitelist=st.sampled_from(sorted(WHITELISTS)),
       layout=st.sampled_from(sorted(LAYOUTS)))
def test_the_prefilter_never_changes_a_finding(tmp_path_factory, first, second, test, local, spelling, registration,
                                               whitelist, layout):
    root = _project(tmp_path_factory.mktemp("project"), first, second, test, local, spelling, registration,
                    whitelist, layout)
    unfiltered = _findings(root, prefilter=False)
    assert _findings(root, prefilter=True) == unfiltered, (first.name, second.name, test, local, spelling,
                                                          registration, whitelist, layout,
                                                          (root / LAYOUTS[layout] / "pkg/family.py").read_text())


def test_parsing_every_file_finds_the_family_whatever_the_form(tmp_path):
    """The generated projects are what they mean to be: with every file parsed, the family is found and
    ARC101 reports the missing name (a form the extractor could not read would make the test above hollow)."""
    missing = []
    for form in FORMS:
        root = _project(tmp_path / form.name.replace(" ", "-"), form, form, "in", False)
        if not any("ARC101 'AlphaMoeForCausalLM'" in line for line in _findings(root, prefilter=False)):
            missing.append(form.name)
    for form in FORMS:
        root = _project(tmp_path / f"src-{form.name}".replace(" ", "-"), form, form, "in", False, layout="src")
        if not any("ARC101 'AlphaMoeForCausalLM'" in line for line in _findings(root, prefilter=False)):
            missing.append(f"{form.name} in src/")
    for spelling in SPELLINGS:
        root = _project(tmp_path / spelling.replace(" ", "-"), FORMS[0], FORMS[0], "in", False, spelling)
        if not any("ARC101 'AlphaMoeForCausalLM'" in line for line in _findings(root, prefilter=False)):
            missing.append(spelling)
    for test in TESTS:
        for registration in REGISTRATIONS:
            for whitelist in WHITELISTS:
                root = _project(tmp_path / f"{test}-{registration}-{whitelist}".replace(" ", "-"), FORMS[0],
                                FORMS[0], test, False, "plain", registration, whitelist)
                if not any("ARC101 'AlphaMoeForCausalLM'" in line for line in _findings(root, prefilter=False)):
                    missing.append(f"{test}, {registration}, {whitelist}")
    assert missing == []
