"""Oracle: a predicate that tests an architecture against constants matches what Python says it matches.

Generated predicates test `arch` (the first of `config.architectures`) against constants of another
module, reached every way the engine writes them (`from m import C` at the top or inside the function,
`from pkg import m` then `m.C`, `import pkg.m as alias`), in each form a predicate takes:

  * `arch == C`, `C == arch`;
  * `arch in (C, "A", ...)`, `arch in [C, ...]`, `arch in T` (T a tuple constant);
  * `arch.startswith(P)`, `arch.startswith((P, "Lit"))`, `arch.startswith(T)`, `arch.endswith(S)`,
    with P a string constant, T a tuple constant of prefixes, S a suffix that begins a word;
  * `or` chains of any of these.

For every registered name, Python runs the generated predicate (only this test executes anything, and
only what it generated); the names archsync resolves for the predicate are exactly those it accepts,
nothing is left unread, and a run with the prefilter off resolves the same.
"""
from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Dict, List, Tuple

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lint_plugin.config import Config
from lint_plugin.pipeline import Request, run_with

REGISTERED = ["AlphaForCausalLM", "AlphaMoeForCausalLM", "BetaForCausalLM", "BetaVLForConditionalGeneration",
              "GammaModel", "Gamma2ForCausalLM"]
NAMES = REGISTERED + ["DeltaForCausalLM"]  # one constant nothing registers
PREFIXES = ["Alpha", "AlphaMoe", "Beta", "Gamma", "Gamma2", "Delta", "Zeta"]
SUFFIXES = ["ForCausalLM", "ForConditionalGeneration", "Model"]

SETTINGS = settings(deadline=None, database=None, max_examples=int(os.environ.get("ARCHSYNC_FUZZ_SCALE", "1")) * 120,
                    derandomize=os.environ.get("ARCHSYNC_FUZZ_RANDOM", "") != "1", print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow])

CONSTANTS = (
    [(f"N{i}", repr(n)) for i, n in enumerate(NAMES)]
    + [(f"P{i}", repr(p)) for i, p in enumerate(PREFIXES)]
    + [("S0", repr(SUFFIXES[0])), ("S1", repr(SUFFIXES[1])), ("S2", repr(SUFFIXES[2]))]
    + [("T0", repr(tuple(NAMES[:3]))), ("T1", repr(tuple(PREFIXES[1:4])))]
)
CONSTANTS_MODULE = "".join(f"{name} = {value}\n" for name, value in CONSTANTS)


@st.composite
def predicate_module(draw) -> Tuple[str, str]:
    """(the source of pkg/preds.py, how it imports the constants), defining `is_family(config)`."""
    style = draw(st.sampled_from(["from", "local", "module", "alias"]))
    spell = {"from": lambda c: c, "local": lambda c: c, "module": lambda c: f"names.{c}",
             "alias": lambda c: f"nm.{c}"}[style]
    used: List[str] = []

    def const(prefix: str) -> str:
        name = draw(st.sampled_from([c for c, _ in CONSTANTS if c.startswith(prefix)]))
        used.append(name)
        return spell(name)

    def test() -> str:
        form = draw(st.integers(0, 9))
        if form == 0:
            return f"arch == {const('N')}"
        if form == 1:
            return f"{const('N')} == arch"
        if form == 2:
            items = [const("N") for _ in range(draw(st.integers(1, 3)))] + [repr(draw(st.sampled_from(NAMES)))]
            return f"arch in ({', '.join(items)})"
        if form == 3:
            return f"arch in [{const('N')}]"
        if form == 4:
            return f"arch in {const('T0')}"
        if form == 5:
            return f"arch.startswith({const('P')})"
        if form == 6:
            return f"arch.startswith(({const('P')}, {draw(st.sampled_from(PREFIXES))!r}))"
        if form == 7:
            return f"arch.startswith({const('T1')})"
        if form == 8:
            return f"arch.endswith({const('S')})"
        return f"arch.startswith({const('T')})"

    body = " or ".join(test() for _ in range(draw(st.integers(1, 3))))
    imports = sorted(set(used))
    top = {"from": f"from pkg.names import {', '.join(imports)}\n", "local": "", "module": "from pkg import names\n",
           "alias": "import pkg.names as nm\n"}[style]
    inner = f"    from pkg.names import {', '.join(imports)}\n" if style == "local" else ""
    return (f"{top}\n\ndef is_family(config):\n{inner}    arch = config.architectures[0]\n    return {body}\n",
            style)


def _python_matches(source: str) -> frozenset:
    """The registered names the generated predicate accepts, as Python runs it (our generated code only)."""
    package, names = types.ModuleType("pkg"), types.ModuleType("pkg.names")
    exec(compile(CONSTANTS_MODULE, "pkg/names.py", "exec"), names.__dict__)  # noqa: S102 - generated here
    package.names = names  # type: ignore[attr-defined]
    saved = {m: sys.modules.get(m) for m in ("pkg", "pkg.names")}
    sys.modules.update({"pkg": package, "pkg.names": names})
    namespace: Dict[str, object] = {}
    try:
        exec(compile(source, "pkg/preds.py", "exec"), namespace)  # noqa: S102 - generated here
        predicate = namespace["is_family"]
        return frozenset(n for n in REGISTERED if predicate(types.SimpleNamespace(architectures=[n])))  # type: ignore[operator]
    finally:
        for module, before in saved.items():
            if before is None:
                sys.modules.pop(module, None)
            else:
                sys.modules[module] = before


def _resolved(root: Path, prefilter: bool):
    config = dataclasses.replace(Config(root=root), prefilter=prefilter)
    return run_with(config, Request(use_cache=False)).model.predicates.get("is_family")


def _write(root: Path, preds: str) -> None:
    (root / "pyproject.toml").write_text('[project]\nname = "oracle"\n')
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "models.py").write_text("".join(f"class {n}:\n    pass\n\n\n" for n in REGISTERED)
                                            + f"EntryClass = [{', '.join(REGISTERED)}]\n")
    (root / "pkg" / "names.py").write_text(CONSTANTS_MODULE)
    (root / "pkg" / "preds.py").write_text(preds)


@SETTINGS
@given(predicate_module())
@example(("from pkg.names import N0, N1\n\n\ndef is_family(config):\n    arch = config.architectures[0]\n"
          "    return arch == N0 or arch == N1\n", "from"))
def test_a_predicate_over_constants_matches_what_python_matches(program):
    source, _style = program
    expected = _python_matches(source)
    with tempfile.TemporaryDirectory(prefix="archsync-predicates-") as directory:
        root = Path(directory).resolve()
        _write(root, source)
        found = _resolved(root, prefilter=True)
        names = found.names if found is not None else frozenset()
        assert names == expected, f"archsync: {sorted(names)}\npython:   {sorted(expected)}\n{source}"
        assert found is None or found.unknown == (), f"{found.unknown}\n{source}"
        unfiltered = _resolved(root, prefilter=False)
        assert (unfiltered.names if unfiltered is not None else frozenset()) == names, source
