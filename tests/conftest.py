"""The one harness: `archsync` and `flake8` as a user runs them, in this process or in a real one.

`archsync(...)` and `flake8(...)` call the front ends' own entry points in this process (the
CLI's `main(argv)`, flake8's `main(argv)` with the plugin it loads), in the directory given, with
the environment given, and return what they printed and the exit code: the same engine, the
same output, a hundredth of the time. `archsync_process(...)` and `flake8_process(...)` run the
installed console script and `python -m flake8` as subprocesses, for the promises only a process
can keep (exit codes of a process killed by a signal, permissions, start-up imports, file locks,
pre-commit and git hooks, the language server): those tests are marked `e2e`. Both ways share
`Result`, so a test reads alike whichever it uses.

The fixture trees are never checked in place: the tool may write a cache into the
project it checks, so the whole `fixtures/` directory is copied once per session
(read-only tests share that copy) and tests that edit a tree get a fresh copy of
their own (`tree`).
"""
from __future__ import annotations

import atexit
import compileall
import contextlib
import dataclasses
import functools
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

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


def _compile(package: Path) -> List[Path]:
    """Compile `package` in place; the `__pycache__` directories that this made."""
    before = set(package.rglob("__pycache__"))
    compileall.compile_dir(str(package), quiet=1)
    return sorted(set(package.rglob("__pycache__")) - before)


# Every process a test starts imports lint_plugin. pip leaves an installed package compiled; this checkout (an
# editable install) is compiled by the first process that imports it, or by none where PYTHONDONTWRITEBYTECODE
# is set, as `run` sets it for the processes it starts (they must not write into the tree): each of them then
# compiled every module it imported again (about 0.15 s of a small check, 0.4 s of a language server's start,
# 25 s over the e2e tier). So the session compiles it once, before anything imports it; where the environment
# asks for no bytecode at all, what this wrote is removed when the session ends.
_BYTECODE = _compile(Path(importlib.util.find_spec("lint_plugin").submodule_search_locations[0]))
if sys.dont_write_bytecode:
    atexit.register(lambda: [shutil.rmtree(directory, True) for directory in _BYTECODE])

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

# How long a race test keeps aiming random moments at a run (Ctrl-C, a kill, a concurrent write): the
# suite's default keeps it fast; a soak run sets ARCHSYNC_RACE_SECONDS higher.
RACE_SECONDS = float(os.environ.get("ARCHSYNC_RACE_SECONDS", "4"))

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


def archsync_process(*args: PathLike, cwd: PathLike, **options) -> Result:
    """Run the installed `archsync` console script in a process of its own."""
    assert ARCHSYNC.exists(), f"console script not installed next to {sys.executable}"
    return run([ARCHSYNC, *args], cwd, **options)


def flake8_process(*args: PathLike, cwd: PathLike, select: str = "ARC", **options) -> Result:
    """Run real flake8 (isolated from any user or project flake8 configuration) in a process of its own."""
    return run([sys.executable, "-m", "flake8", "--isolated", f"--select={select}", *args], cwd, **options)


def archsync(*args: PathLike, cwd: PathLike, env: Optional[Dict[str, str]] = None,
             input: Union[str, bytes, None] = None, traceback_ok: bool = False) -> Result:
    """`archsync ARGS` run in this process: the CLI's `main`, as the console script calls it."""
    from lint_plugin.frontends.cli import main

    return _in_process("archsync", main, [str(a) for a in args], cwd, env, input, traceback_ok)


def flake8(*args: PathLike, cwd: PathLike, select: str = "ARC", env: Optional[Dict[str, str]] = None,
           input: Union[str, bytes, None] = None, traceback_ok: bool = False) -> Result:
    """flake8 run in this process (isolated from any user or project flake8 configuration), one file at a
    time unless the test gives `-j`/`--jobs`: the plugin's findings do not depend on flake8's workers."""
    from flake8 import utils
    from flake8.main.cli import main

    words = [str(a) for a in args]
    jobs = [] if any(w.startswith(("-j", "--jobs")) for w in words) else ["--jobs=1"]
    utils.stdin_get_value.cache_clear()  # flake8 reads stdin once per process, and keeps it
    try:
        return _in_process("flake8", main, ["--isolated", f"--select={select}", *jobs, *words], cwd, env, input,
                           traceback_ok)
    finally:
        utils.stdin_get_value.cache_clear()


def _in_process(program: str, main: Callable[[List[str]], int], argv: List[str], cwd: PathLike,
                env: Optional[Dict[str, str]], stdin: Union[str, bytes, None], traceback_ok: bool) -> Result:
    """Call `main(argv)` as a process would run it: in `cwd`, with `env` added to the environment, `stdin`
    as its input, and its standard streams captured as bytes (a pipe: no terminal)."""
    out, err = _Captured(), _Captured()
    data = stdin.encode("utf-8", "surrogatepass") if isinstance(stdin, str) else (stdin or b"")
    with _process_like(Path(cwd), env or {}, io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), out, err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's errors and --help, flake8's own exits
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    result = Result((program, *argv), code, out.text(), err.text())
    if not traceback_ok:
        assert "Traceback" not in result.stderr, str(result)
        assert "Traceback" not in result.stdout, str(result)
    return result


class _Captured(io.TextIOWrapper):
    """A standard stream written to memory, as a pipe takes it (UTF-8, no terminal)."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", errors="strict", newline=None, write_through=True)

    def text(self) -> str:
        self.flush()
        return self.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]


@contextlib.contextmanager
def _process_like(cwd: Path, env: Dict[str, str], stdin: io.TextIOWrapper, out: _Captured,
                  err: _Captured) -> Iterator[None]:
    """The directory, environment and standard streams of a process started as `run` starts one."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved = (sys.stdin, sys.stdout, sys.stderr, sys.__stdout__)
    os.environ.pop("PYTHONPATH", None)
    os.environ.update(env)
    os.chdir(cwd)
    # a terminal's width is read from the process's own stdout: here, the captured one (no terminal)
    sys.stdin, sys.stdout, sys.stderr, sys.__stdout__ = stdin, out, err, out
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.__stdout__ = saved
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def flake8_lines(result: Result) -> List[str]:
    """flake8 prints paths as it walked them (`./pkg/mod.py`); drop the leading `./`."""
    return [line[2:] if line.startswith("./") else line for line in result.lines]


def places(*args: PathLike, cwd: PathLike) -> List[str]:
    """`archsync check ARGS` as each place it reports, one line each (`path:line:column: CODE message`): a
    finding of several places (one cause in one file, `report/causes.py`) as each of them, with that place's
    own message. For a test of which places are reported, as the language server shows them."""
    result = archsync("check", "--format", "json", *args, cwd=cwd)
    assert result.returncode in (EXIT_CLEAN, EXIT_FINDINGS), result
    every = sorted((d["path"], d["line"], d["column"], d["code"], d["message"].split("; the same for ")[0])
                   for finding in result.json["diagnostics"] for d in (finding, *finding.get("related", ())))
    return [f"{path}:{line}:{column}: {code} {message}" for path, line, column, code, message in every]


def only(code: str, lines: Iterable[str]) -> List[str]:
    """The lines of one diagnostic code (for fixtures where other rules may also speak)."""
    return [line for line in lines if f": {code} " in line]


def copy_tree(source: Path, destination: Path) -> Path:
    shutil.copytree(source, destination, ignore=_IGNORED)
    return destination


def age_files(root: Path, seconds: int = 86_400) -> None:
    """Move every source file's mtime into the past (a checkout is not seconds old), so the caches trust
    size and mtime for it."""
    then = time.time() - seconds
    for path in root.rglob("*.py"):
        os.utime(path, (then, then))


def add_config(root: Path, body: str) -> None:
    """Append a `[tool.archsync]` table to the project's pyproject.toml."""
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.rstrip("\n") + "\n\n[tool.archsync]\n" + body.strip("\n") + "\n", encoding="utf-8")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@functools.lru_cache(maxsize=None)
def _from_grammar():
    import hypothesmith

    return hypothesmith.from_grammar()


def grammatical_python():
    """hypothesmith's strategy for Python from the CPython grammar. Building its parser takes seconds: the
    test modules share one, built on first draw, never at collection."""
    from hypothesis import strategies

    return strategies.deferred(lambda: _from_grammar())


@pytest.fixture(autouse=True)
def _tiers(request, monkeypatch):
    """A test that starts a process is marked `e2e`: the fast tier (`-m 'not e2e'`) starts none."""
    started: List[object] = []
    start = subprocess.Popen.__init__

    def counted(self, *args, **options):
        started.append(args[0] if args else options.get("args"))
        start(self, *args, **options)

    monkeypatch.setattr(subprocess.Popen, "__init__", counted)
    yield
    if started and request.node.get_closest_marker("e2e") is None:
        pytest.fail(f"starts a process ({started[0]!r}) but is not marked e2e", pytrace=False)


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


def check_places_both(root: Path, expected: Sequence[str]) -> None:
    """`archsync check` reports exactly the places `expected` (`places`, a finding of one cause as each of its
    places), and `flake8 --select=ARC .` prints what it prints for the `.py` files, a finding a line."""
    assert places(cwd=root) == list(expected)
    via_archsync = archsync("check", cwd=root)
    assert via_archsync.returncode == (EXIT_FINDINGS if expected else EXIT_CLEAN), via_archsync
    via_flake8 = flake8(".", cwd=root)
    assert flake8_lines(via_flake8) == [line for line in via_archsync.lines
                                        if line.split(":", 1)[0].endswith(".py")], via_flake8


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
    from lint_plugin.report.causes import findings

    def item(d) -> dict:
        return dict(d.to_json(), fix=d.fix.to_json() if d.fix else None)

    return [dict(item(d), related=[item(r) for r in d.related]) if d.related else item(d)
            for d in findings(diagnostics)]


def cold_report(tree: PathLike) -> List[dict]:
    """A cold `archsync check --no-cache --format json` of `tree`: nothing a long-lived caller keeps can
    stand in for what it computes (no module keeps run state: `test_run_memory.py` holds that)."""
    result = archsync("check", "--no-cache", "--format", "json", "--exit-zero", cwd=tree)
    found = json.loads(result.stdout)["diagnostics"]
    for item in found + [r for d in found for r in d.get("related", ())]:
        if item["fix"]:
            item["fix"].pop("edits", None)
            item["fix"].pop("refused", None)
    return found


def as_read(evidence) -> list:
    """Kinship evidence as a person reads it: the places its text names unmarked (`diagnostics.place`)."""
    from lint_plugin.diagnostics import unmarked

    return [dataclasses.replace(e, text=unmarked(e.text)) for e in evidence]
