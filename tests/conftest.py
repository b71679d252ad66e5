"""The one harness: driving the real `archsync`, `flake8` and other programs as subprocesses.

End-to-end tests run the installed console script (`archsync`, next to the running
interpreter) or `python -m flake8`, exactly as a user would, and look at stdout, stderr
and the exit code. In-process tests (rules, extraction, the editor) import the engine.

The fixture trees are never checked in place: the tool may write a cache into the
project it checks, so the whole `fixtures/` directory is copied once per session
(read-only tests share that copy) and tests that edit a tree get a fresh copy of
their own (`tree`).
"""
from __future__ import annotations

import atexit
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import pytest

REPO = Path(__file__).resolve().parent.parent
SOURCE_FIXTURES = REPO / "fixtures"
_IGNORED = shutil.ignore_patterns("__pycache__", ".archsync_cache", ".ruff_cache")

_SESSION_DIR = Path(tempfile.mkdtemp(prefix="archsync-fixtures-")).resolve()
atexit.register(shutil.rmtree, _SESSION_DIR, True)
FIXTURES = Path(shutil.copytree(SOURCE_FIXTURES, _SESSION_DIR / "fixtures", ignore=_IGNORED))
SGLANG_BUG = FIXTURES / "sglang_qwen3_5" / "bug"
SGLANG_PATCH = SOURCE_FIXTURES / "sglang_qwen3_5" / "fix.patch"  # the upstream fix, as `archsync fix` writes it
SHAPES = FIXTURES / "shapes"


def _apply_patch(tree: Path, patch: Path) -> Path:
    subprocess.run(["git", "apply", "-p1", str(patch)], cwd=tree, check=True, capture_output=True)
    return tree


# The seed's fixed tree is the bug tree with its fix applied, never a second copy to keep in sync.
SGLANG_FIXED = _apply_patch(Path(shutil.copytree(SGLANG_BUG, FIXTURES / "sglang_qwen3_5" / "fixed")), SGLANG_PATCH)

ARCHSYNC = Path(sys.executable).parent / "archsync"

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

PathLike = Union[str, Path]


WARNING = "archsync: warning: "


@dataclass(frozen=True)
class Result:
    """What a finished subprocess printed and returned."""

    args: Tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> List[str]:
        """Non-empty stdout lines, in the order printed."""
        return [line for line in self.stdout.splitlines() if line.strip()]

    @property
    def err_lines(self) -> List[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]

    @property
    def warnings(self) -> List[str]:
        """archsync's own warnings on stderr."""
        return [line for line in self.err_lines if line.startswith(WARNING)]

    @property
    def others(self) -> List[str]:
        """Every other stderr line (the summary, errors)."""
        return [line for line in self.err_lines if not line.startswith(WARNING)]

    @property
    def json(self):
        return json.loads(self.stdout)

    def __str__(self) -> str:  # shown by pytest when an assertion fails
        return (f"$ {' '.join(self.args)}\n[exit {self.returncode}]\n"
                f"--- stdout\n{self.stdout[-3000:]}--- stderr\n{self.stderr[-3000:]}")


def run(args: Sequence[PathLike], cwd: PathLike, *, prefix: Sequence[PathLike] = (),
        env: Optional[Dict[str, str]] = None, timeout: float = 180, traceback_ok: bool = False,
        input: Union[str, bytes, None] = None) -> Result:
    """Run a real program (`prefix` first: `unshare`, `setpriv`, ...) and capture what it says.

    Output is decoded leniently, so a test about undecodable bytes sees them as U+FFFD.
    No front end may ever crash with a traceback, whatever it is asked to do, unless the
    test is about a traceback (`traceback_ok`).
    """
    full_env = dict(os.environ)
    full_env.pop("PYTHONPATH", None)
    full_env["PYTHONDONTWRITEBYTECODE"] = "1"
    full_env.update(env or {})
    command = [str(a) for a in (*prefix, *args)]
    try:
        proc = subprocess.run(command, cwd=str(cwd), env=full_env, capture_output=True, timeout=timeout,
                              input=input.encode("utf-8", "surrogatepass") if isinstance(input, str) else input)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`{' '.join(command)[:300]}` did not finish within {timeout} s")
    result = Result(tuple(command), proc.returncode, proc.stdout.decode("utf-8", "replace"),
                    proc.stderr.decode("utf-8", "replace"))
    if not traceback_ok:
        assert "Traceback" not in result.stderr, str(result)
        assert "Traceback" not in result.stdout, str(result)
    return result


def archsync(*args: PathLike, cwd: PathLike, **options) -> Result:
    """Run the installed `archsync` console script."""
    assert ARCHSYNC.exists(), f"console script not installed next to {sys.executable}"
    return run([ARCHSYNC, *args], cwd, **options)


def flake8(*args: PathLike, cwd: PathLike, select: str = "ARC", **options) -> Result:
    """Run real flake8 (isolated from any user or project flake8 configuration)."""
    return run([sys.executable, "-m", "flake8", "--isolated", f"--select={select}", *args], cwd, **options)


def flake8_lines(result: Result) -> List[str]:
    """flake8 prints paths as it walked them (`./pkg/mod.py`); drop the leading `./`."""
    return [line[2:] if line.startswith("./") else line for line in result.lines]


def only(code: str, lines: Iterable[str]) -> List[str]:
    """The lines of one diagnostic code (for fixtures where other rules may also speak)."""
    return [line for line in lines if f": {code} " in line]


def copy_tree(source: Path, destination: Path) -> Path:
    shutil.copytree(source, destination, ignore=_IGNORED)
    return destination


def add_config(root: Path, body: str) -> None:
    """Append a `[tool.archsync]` table to the project's pyproject.toml."""
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.rstrip("\n") + "\n\n[tool.archsync]\n" + body.strip("\n") + "\n", encoding="utf-8")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path):
    """Copy a pristine fixture tree to a fresh temporary directory: `tree("shapes/guard")`."""

    def copy(name: str, into: Optional[str] = None) -> Path:
        return copy_tree(FIXTURES / name, tmp_path / (into or Path(name).name))

    return copy


# -- editing fixture copies --------------------------------------------------------------------

RULE_FIXTURES = FIXTURES / "rules"


_ARCHSYNC_HEADER = re.compile(r"^\s*\[\[?\s*tool\s*\.\s*archsync\s*(?:\]|\.)")
_ANY_HEADER = re.compile(r"^\s*\[")


def set_config(root: Path, body: str) -> None:
    """Replace the project's whole archsync configuration (`[tool.archsync]` and its sub-tables)."""
    pyproject = root / "pyproject.toml"
    kept, skipping = [], False
    for text in pyproject.read_text(encoding="utf-8").splitlines():
        if _ANY_HEADER.match(text):
            skipping = bool(_ARCHSYNC_HEADER.match(text))
        if not skipping:
            kept.append(text)
    pyproject.write_text("\n".join(kept).rstrip("\n") + "\n", encoding="utf-8")
    if body.strip():
        add_config(root, body)


def check_both(root: Path, expected: Sequence[str]) -> Tuple[Result, Result]:
    """`archsync check` prints exactly `expected`; `flake8 --select=ARC .` prints its `.py` lines.

    Diagnostics that belong to pyproject.toml (ARC202) are only printed by `archsync check`.
    """
    via_archsync = archsync("check", cwd=root)
    assert via_archsync.lines == list(expected), via_archsync
    assert via_archsync.returncode == (EXIT_FINDINGS if expected else EXIT_CLEAN), via_archsync
    python_lines = [line for line in expected if line.split(":", 1)[0].endswith(".py")]
    via_flake8 = flake8(".", cwd=root)
    assert flake8_lines(via_flake8) == python_lines, via_flake8
    assert via_flake8.returncode == (1 if python_lines else 0), via_flake8
    return via_archsync, via_flake8


# -- permission bits -------------------------------------------------------------------------

_NO_DAC = ("setpriv", "--inh-caps=-dac_override,-dac_read_search",
           "--bounding-set=-dac_override,-dac_read_search", "--")


def unprivileged(probe_dir: Path) -> Tuple[str, ...]:
    """A prefix under which permission bits apply (as root they do not), or skip."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permission bits cannot be enforced")
    probe = probe_dir / "probe"
    probe.write_text("x")
    probe.chmod(0)
    try:
        denied = subprocess.run([*_NO_DAC, "cat", str(probe)], capture_output=True).returncode != 0
    finally:
        probe.chmod(0o644)
        probe.unlink()
    if not denied:
        pytest.skip("running as root and dropping CAP_DAC_OVERRIDE did not enforce permissions")
    return _NO_DAC


AS_NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


def as_nobody() -> Tuple[str, ...]:
    """A prefix that runs archsync as another user (nobody), or skip: it needs root and setpriv, and the
    interpreter and its library must be reachable by that user (not so under a private home, as pyenv's)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run as another user")
    probe = subprocess.run([*AS_NOBODY, str(ARCHSYNC), "--version"], cwd="/", capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"another user cannot run archsync from here: {(probe.stderr.strip() or '?').splitlines()[-1]}")
    return AS_NOBODY


def sigint_default() -> None:
    """`preexec_fn` for a child that Ctrl-C must reach: a background job of a shell starts with SIGINT ignored.

    (bash ignores SIGINT in asynchronous commands when job control is off, and Python then keeps it
    ignored: a run of the suite started that way would never see an interrupted archsync.)
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)



def as_reported(diagnostics) -> List[dict]:
    """Diagnostics as `archsync check --format json` writes them, each fix as its request (the text edits,
    or why there are none, are the fixer's)."""
    return [dict(d.to_json(), fix=dict(dataclasses.asdict(d.fix), peers=list(d.fix.peers)) if d.fix else None)
            for d in diagnostics]


def cold_report(tree: PathLike) -> List[dict]:
    """A cold `archsync check --no-cache --format json` of `tree`, in its own process: nothing a long-lived
    process keeps (module-level state included) can stand in for what it computes."""
    result = archsync("check", "--no-cache", "--format", "json", "--exit-zero", cwd=tree)
    found = json.loads(result.stdout)["diagnostics"]
    for item in found:
        if item["fix"]:
            item["fix"].pop("edits", None)
            item["fix"].pop("refused", None)
    return found
