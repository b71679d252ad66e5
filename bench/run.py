"""archsync benchmark: archsync against ruff and flake8, on a real tree and on generated ones.

Run from the repository root with the interpreter that has archsync installed:

    python -m bench --sizes 1,4,16
    python bench/run.py --tree /tmp/sglang-real/python --flake8-subdir sglang/srt
    python -m bench --tree /tmp/sglang/python --tree /tmp/vllm --sizes 1,4,16   # every target, one JSON

See bench/README.md for what is measured and how. Never part of the unit tests.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

if __package__ in (None, ""):  # `python bench/run.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import gen, lsp, targets  # noqa: E402
    from bench import stages as bench_stages
    from bench.installed import wheel_install
else:
    from . import gen, lsp, targets
    from . import stages as bench_stages
    from .installed import wheel_install

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_OUT_DIR = BENCH_DIR / "out"
OK_CODES = (0, 1)  # 1 = "found problems" for archsync, ruff and flake8 alike
HIDE_ENV = "ARCHSYNC_BENCH_HIDE_PLUGIN"
EDIT_MARK = b"# archsync-bench edit"

# Targets from issues 5 and 14, measured on real serving trees (SGLang, vLLM); shown for every tree.
TARGETS = {"cold": 1.0, "warm": 0.1, "restored": 0.15, "edited": 0.3, "flake8": 1.03,
           "json_cold": 1.2, "json_warm": 1.2, "fix_diff": 2.0}
PEAK_TARGET_MB = 200.0
LINEARITY_SIZE, LINEARITY_TARGET = 16, 17.0
LSP_TARGET_S = 0.1
# ruff as the baseline: no cache, no configuration of the tree's own (a tree's [tool.ruff] would
# change what ruff checks), the pyflakes and pycodestyle codes flake8 runs by default.
RUFF_ARGS = ["check", "--no-cache", "--isolated", "--select", "E,F,W"]


def child_env(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The environment of every timed child: this one's, less PYTHONDONTWRITEBYTECODE (an installed
    archsync loads its modules from bytecode; without it each run would compile them again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra or {})
    return env

# flake8 runs every installed tree plugin whatever --select says (flake8/checker.py
# run_ast_checks loops over all of plugins.tree; --select only filters the reports), so
# "--select E,F,W" still pays for our plugin. This launcher drops the plugin from
# flake8's plugin discovery when HIDE_ENV=1 and is used, with identical arguments, for
# both the "with" and the "without" run. It is a file (not `python -c`) so that
# multiprocessing's spawn/forkserver workers, which re-import the main module, hide the
# plugin too; with fork (Linux default up to Python 3.13) they inherit the parent's list.
FLAKE8_SHIM = '''"""flake8 launcher written by the archsync benchmark (bench/run.py)."""
import os
import sys


def _hide_archsync():
    from flake8.plugins import finder

    original = finder.find_plugins

    def find_plugins(cfg, opts):
        return [
            p for p in original(cfg, opts)
            if p.package.lower().replace("_", "-") != "flake8-archsync"
            and not p.entry_point.value.startswith("lint_plugin.")
        ]

    finder.find_plugins = find_plugins


if os.environ.get("%s") == "1":
    _hide_archsync()

if __name__ == "__main__":
    from flake8.main.cli import main

    sys.exit(main())
''' % HIDE_ENV


# --------------------------------------------------------------------------- child processes

@dataclass
class Sample:
    seconds: float  # wall time
    peak_kib: int
    rc: int
    cpu: Optional[float] = None  # user + system CPU seconds of the child and its waited-for descendants

    def to_json(self) -> dict:
        return {"seconds": round(self.seconds, 6), "cpu_s": None if self.cpu is None else round(self.cpu, 4),
                "peak_mb": round(self.peak_kib / 1024, 2), "rc": self.rc}


class ChildFailed(Exception):
    def __init__(self, cmd: Sequence[str], cwd: Path, rc: int, stderr: bytes, why: str = "") -> None:
        tail = stderr.decode("utf-8", "replace").strip().splitlines()[-15:]
        what = why or f"exited with {rc}"
        super().__init__(f"`{_shell(cmd)}` in {cwd} {what}" + ("\n    " + "\n    ".join(tail) if tail else ""))
        self.rc = rc


# Peak memory: Linux charges a child, at exec, with the high-water RSS of the memory it
# was forked (or vfork-ed) from, so a child spawned by this benchmark would never report
# less than the benchmark's own RSS. Children are therefore spawned by this small
# launcher (`python -I -S`, ~10 MB), which also times them (perf_counter around
# Popen + os.wait4) so that its own pipe round trip is not counted. Its RSS, measured at
# start, is reported as the floor below which no peak can be seen.
LAUNCHER = r"""
import json, os, resource, subprocess, sys, time
def _hwm():
    try:  # this process's own high-water mark; ru_maxrss would include its parent's at exec
        with open("/proc/self/status") as f:
            return int(next(l for l in f if l.startswith("VmHWM")).split()[1])
    except (OSError, StopIteration, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"floor_kib": _hwm()}), flush=True)
try:
    for line in sys.stdin:
        req = json.loads(line)
        with open(req["stdout"], "wb") as out, open(req["stderr"], "wb") as err:
            start = time.perf_counter()
            try:
                proc = subprocess.Popen(req["cmd"], cwd=req["cwd"], env=req["env"], stdin=subprocess.DEVNULL,
                                        stdout=out, stderr=err)
            except OSError as exc:
                print(json.dumps({"error": str(exc)}), flush=True)
                continue
            _, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
        print(json.dumps({"rc": proc.returncode, "seconds": seconds, "maxrss": usage.ru_maxrss,
                          "cpu": usage.ru_utime + usage.ru_stime}), flush=True)
except KeyboardInterrupt:
    pass
"""


class Launcher:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.proc: Optional[subprocess.Popen] = None
        self.floor_kib = 0
        if hasattr(os, "wait4"):
            self.proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", LAUNCHER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, bufsize=1)
            self.floor_kib = self._kib(json.loads(self.proc.stdout.readline())["floor_kib"])

    @staticmethod
    def _kib(maxrss: int) -> int:
        return maxrss // 1024 if sys.platform == "darwin" else maxrss  # bytes on macOS, KiB on Linux

    def run(self, cmd: Sequence[str], cwd: Path, env: Optional[Dict[str, str]]) -> Tuple[Sample, bytes, bytes]:
        out_path, err_path = self.workdir / "child.out", self.workdir / "child.err"
        if self.proc is None:  # pragma: no cover - no os.wait4 (Windows): time only
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                start = time.perf_counter()
                rc = subprocess.call(list(cmd), cwd=str(cwd), env=env if env is not None else child_env(),
                                     stdin=subprocess.DEVNULL, stdout=out, stderr=err)
                sample = Sample(time.perf_counter() - start, 0, rc)
        else:
            request = {"cmd": [str(c) for c in cmd], "cwd": str(cwd),
                       "env": dict(env if env is not None else child_env()),
                       "stdout": str(out_path), "stderr": str(err_path)}
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
            if not reply:
                raise RuntimeError("the benchmark's process launcher died")
            answer = json.loads(reply)
            if "error" in answer:
                raise ChildFailed(cmd, cwd, -1, b"", f"could not start: {answer['error']}")
            sample = Sample(answer["seconds"], self._kib(answer["maxrss"]), answer["rc"], answer["cpu"])
        return sample, out_path.read_bytes(), err_path.read_bytes()

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except OSError:  # it died with ^C
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


_LAUNCHER: Optional[Launcher] = None


def run_child(cmd: Sequence[str], cwd: Path, env: Optional[Dict[str, str]] = None,
              ok: Sequence[int] = OK_CODES) -> Tuple[Sample, bytes, bytes]:
    """Run one command to completion: its wall time, its own peak RSS, its output.

    Exit codes outside `ok`, and a Python traceback on stderr (an uncaught exception
    exits with 1, which would otherwise pass for "found problems"), raise ChildFailed.
    """
    assert _LAUNCHER is not None, "main() starts the launcher"
    sample, stdout, stderr = _LAUNCHER.run(cmd, cwd, env)
    if sample.rc not in ok:
        raise ChildFailed(cmd, cwd, sample.rc, stderr or stdout)
    if b"Traceback (most recent call last)" in stderr:
        raise ChildFailed(cmd, cwd, sample.rc, stderr, f"crashed (exit {sample.rc}, Python traceback)")
    return sample, stdout, stderr


def _shell(cmd: Sequence[str]) -> str:
    return " ".join(str(c) if re.fullmatch(r"[\w@%+=:,./-]+", str(c)) else repr(str(c)) for c in cmd)


@dataclass
class Contender:
    name: str
    cmd: List[str]
    cwd: Path
    env: Optional[Dict[str, str]] = None
    before: Optional[Callable[[], None]] = None  # untimed, before each run
    samples: List[Sample] = field(default_factory=list)
    last_stdout: bytes = b""
    last_stderr: bytes = b""

    def run(self) -> Sample:
        if self.before is not None:
            self.before()
        sample, self.last_stdout, self.last_stderr = run_child(self.cmd, self.cwd, self.env)
        self.samples.append(sample)
        return sample

    def summary(self) -> dict:
        times = [s.seconds for s in self.samples]
        peaks = [s.peak_kib for s in self.samples]
        return {
            "cmd": [str(c) for c in self.cmd],
            "cwd": str(self.cwd),
            "env": {HIDE_ENV: "1"} if self.env and self.env.get(HIDE_ENV) == "1" else {},
            "samples": [s.to_json() for s in self.samples],
            "median_s": round(statistics.median(times), 6) if times else None,
            "min_s": round(min(times), 6) if times else None,
            "max_s": round(max(times), 6) if times else None,
            "median_cpu_s": round(self.median_cpu, 4) if self.median_cpu is not None else None,
            "peak_mb": round(max(peaks) / 1024, 2) if peaks else None,
            "exit_codes": sorted({s.rc for s in self.samples}),
        }

    @property
    def median(self) -> Optional[float]:
        return statistics.median(s.seconds for s in self.samples) if self.samples else None

    @property
    def median_cpu(self) -> Optional[float]:
        cpu = [s.cpu for s in self.samples if s.cpu is not None]
        return statistics.median(cpu) if cpu else None

    @property
    def peak_mb(self) -> Optional[float]:
        return max(s.peak_kib for s in self.samples) / 1024 if self.samples else None


def interleave(label: str, runs: int, contenders: List[Contender],
               setup_round: Optional[Callable[[int], None]] = None,
               teardown_round: Optional[Callable[[int], None]] = None) -> None:
    """`runs` rounds; every round runs each contender once, the order flipping each round."""
    for i in range(runs):
        order = contenders if i % 2 == 0 else list(reversed(contenders))
        if setup_round is not None:
            setup_round(i)
        try:
            shown = []
            for c in order:
                s = c.run()
                cpu = f" cpu {s.cpu:.3f}s" if s.cpu is not None else ""
                shown.append(f"{c.name} {s.seconds:.3f}s{cpu} {s.peak_kib / 1024:.0f}MB")
        finally:
            if teardown_round is not None:
                teardown_round(i)
        _progress(f"  {label} {i + 1}/{runs}: " + ", ".join(shown))


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- tools

@dataclass
class Tools:
    archsync: List[str]
    archsync_version: str
    no_cache_flag: bool
    ruff: Optional[str]
    ruff_version: Optional[str]
    flake8: Optional[List[str]]  # [python, shim]
    flake8_version: Optional[str]
    flake8_note: str = ""
    no_prefilter_flag: bool = False
    installed: str = ""  # how the archsync measured is installed

    def to_json(self) -> dict:
        return {
            "archsync": {"cmd": self.archsync, "version": self.archsync_version, "no_cache_flag": self.no_cache_flag,
                         "no_prefilter_flag": self.no_prefilter_flag, "installed": self.installed},
            "ruff": {"cmd": self.ruff, "version": self.ruff_version},
            "flake8": {"cmd": self.flake8, "version": self.flake8_version, "note": self.flake8_note},
        }


def find_tools(args: argparse.Namespace, workdir: Path) -> Tools:
    here = Path(sys.executable).parent
    exe = ".exe" if os.name == "nt" else ""
    installed = "as given (--archsync)"
    wheel: Optional[List[str]] = None
    if not args.archsync and args.install == "wheel":
        wheel, why_not = wheel_install(workdir, child_env())
        installed = "from a wheel of this checkout (bench/installed.py)" if wheel else \
            f"the interpreter's own install: {why_not}"
        if wheel is None:
            _progress(f"bench: archsync is measured as {installed}")
    elif not args.archsync:
        installed = "the interpreter's own install (--install here)"
    if args.archsync:
        archsync = [args.archsync]
    elif wheel is not None:
        archsync = wheel
    elif (here / f"archsync{exe}").exists():
        archsync = [str(here / f"archsync{exe}")]
    elif shutil.which("archsync"):
        archsync = [shutil.which("archsync")]
    else:
        archsync = [sys.executable, "-m", "lint_plugin.frontends.cli"]
    _, out, _ = run_child(archsync + ["--version"], Path.cwd(), ok=(0,))
    archsync_version = out.decode().strip()
    _, help_out, _ = run_child(archsync + ["check", "--help"], Path.cwd(), ok=(0,))
    no_cache_flag = b"--no-cache" in help_out
    no_prefilter_flag = b"--no-prefilter" in help_out

    ruff = args.ruff or shutil.which("ruff") or (str(here / f"ruff{exe}") if (here / f"ruff{exe}").exists() else None)
    ruff_version = None
    if ruff:
        try:
            _, out, _ = run_child([ruff, "--version"], Path.cwd(), ok=(0,))
            ruff_version = out.decode().strip()
        except (OSError, ChildFailed) as exc:
            _progress(f"bench: ruff at {ruff} does not run ({exc}); ruff columns and ratios are skipped")
            ruff = None
    else:
        _progress("bench: ruff not found on PATH nor next to the interpreter "
                  f"({here}); ruff columns and ratios are skipped (pip install ruff, or --ruff PATH)")

    flake8 = flake8_version = None
    note = ""
    if args.skip_flake8:
        note = "skipped (--skip-flake8)"
    else:
        import importlib.util

        if importlib.util.find_spec("flake8") is None:
            note = f"flake8 is not importable by {sys.executable}"
            _progress(f"bench: {note}; flake8 rows are skipped")
        else:
            shim = workdir / "flake8_shim.py"
            shim.write_text(FLAKE8_SHIM, encoding="utf-8")
            flake8 = [sys.executable, str(shim)]
            _, with_out, _ = run_child(flake8 + ["--version"], Path.cwd(), ok=(0,))
            _, without_out, _ = run_child(flake8 + ["--version"], Path.cwd(), env=_env_hiding(), ok=(0,))
            flake8_version = " ".join(with_out.decode().split())
            if b"flake8-archsync" not in with_out or b"flake8-archsync" in without_out:
                note = ("cannot switch the plugin on and off: "
                        f"with={with_out.decode().strip()!r} without={without_out.decode().strip()!r}")
                _progress(f"bench: flake8 {note}; flake8 rows are skipped")
                flake8 = None
            else:
                note = "plugin hidden from flake8's plugin discovery in the 'without' run (see README)"
    return Tools(archsync, archsync_version, no_cache_flag, ruff, ruff_version, flake8, flake8_version, note,
                 no_prefilter_flag, installed)


def _env_hiding() -> Dict[str, str]:
    return child_env({HIDE_ENV: "1"})


# --------------------------------------------------------------------------- trees

@dataclass
class Tree:
    label: str
    path: Path
    kind: str  # "real" or "generated"
    size: Optional[int]
    files: int
    lines: int
    bytes: int
    edit_file: Optional[str]
    flake8_target: Optional[str]  # relative to path, or None for no flake8 rows

    def to_json(self) -> dict:
        return {"label": self.label, "path": str(self.path), "kind": self.kind, "size": self.size,
                "files": self.files, "lines": self.lines, "bytes": self.bytes, "edit_file": self.edit_file,
                "flake8_target": self.flake8_target}


def count_tree(path: Path) -> Tuple[int, int, int]:
    files = lines = size = 0
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for name in filenames:
            if name.endswith(".py"):
                data = Path(dirpath, name).read_bytes()
                files += 1
                lines += data.count(b"\n")
                size += len(data)
    return files, lines, size


def pick_edit_file(path: Path) -> Optional[str]:
    """A model file that registers classes (`EntryClass = ...` at column 0), if any."""
    found = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        if Path(dirpath).name != "models":
            continue
        for name in sorted(filenames):
            if name.endswith(".py"):
                full = Path(dirpath, name)
                if re.search(rb"^EntryClass\s*=", full.read_bytes(), re.M):
                    found.append(full.relative_to(path).as_posix())
    if not found:
        return None
    preferred = [f for f in found if f.rsplit("/", 1)[-1] == "qwen3_5.py"]  # the SGLang seed family
    return (preferred or sorted(found))[0]


def project_root(path: Path) -> Path:
    """Where archsync will look for pyproject.toml (as lint_plugin.config.find_root does)."""
    path = path.resolve()
    for candidate in (path, *path.parents):
        if (candidate / "pyproject.toml").is_file():
            return candidate
    return path


def cache_dir(root: Path) -> Path:
    """archsync's cache directory for a project: `cache-dir` in [tool.archsync], else .archsync_cache."""
    configured = None
    try:
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            import tomli as tomllib  # type: ignore[no-redef]
        table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8")).get("tool", {}).get("archsync", {})
        configured = table.get("cache-dir", table.get("cache_dir"))
    except Exception:  # no file, no toml parser, bad TOML: archsync will say so itself
        pass
    return (root / configured) if isinstance(configured, str) and configured else root / ".archsync_cache"


class CacheGuard:
    """Leaves the archsync cache of a user's tree as it found it (saved copy restored, or removed)."""

    def __init__(self, directory: Path, workdir: Path) -> None:
        self.directory = directory
        self.saved: Optional[Path] = None
        self.workdir = workdir
        self.parent_times: Optional[Tuple[int, int]] = None

    def __enter__(self) -> "CacheGuard":
        if self.directory.parent.is_dir():
            st = self.directory.parent.stat()
            self.parent_times = (st.st_atime_ns, st.st_mtime_ns)
        if self.directory.exists():
            self.saved = Path(tempfile.mkdtemp(prefix="cache-", dir=self.workdir)) / "saved"
            shutil.copytree(self.directory, self.saved, symlinks=True)
        return self

    def clear(self) -> None:
        if self.directory.is_dir() and not self.directory.is_symlink():
            shutil.rmtree(self.directory)
        elif self.directory.exists():
            self.directory.unlink()

    def __exit__(self, *exc) -> None:
        self.clear()
        if self.saved is not None:
            shutil.copytree(self.saved, self.directory, symlinks=True)
        if self.parent_times is not None:
            try:  # creating and removing the cache directory moved its parent's mtime
                os.utime(self.directory.parent, ns=self.parent_times)
            except OSError:
                pass


def project_caches(tree: Path, root: Path) -> List[Path]:
    """The cache directory of `root` and of every directory below `tree` holding a pyproject.toml.

    `archsync check .` checks each project nested in the tree with its own cache (vLLM's
    `examples/features/structured_outputs`, SGLang's kernel packages): each is guarded, or the
    run would leave them behind. A directory archsync does not take as a project (hidden, or
    excluded) only costs a guard that finds nothing to restore.
    """
    found = [cache_dir(root)]
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        here = Path(dirpath)
        if "pyproject.toml" in filenames and here.resolve() != root.resolve():
            found.append(cache_dir(here))
    return found


class CacheGuards:
    """A `CacheGuard` for each of several cache directories, entered, cleared and left together."""

    def __init__(self, directories: Sequence[Path], workdir: Path) -> None:
        self.guards = [CacheGuard(d, workdir) for d in directories]

    def __enter__(self) -> "CacheGuards":
        entered: List[CacheGuard] = []
        try:
            for guard in self.guards:
                entered.append(guard.__enter__())
        except BaseException:
            for guard in reversed(entered):
                guard.__exit__(None, None, None)
            raise
        return self

    def clear(self) -> None:
        for guard in self.guards:
            guard.clear()

    def __exit__(self, *exc) -> None:
        for guard in reversed(self.guards):  # inner caches first: their parents' times are restored last
            guard.__exit__(*exc)


class FileEdit:
    """Appends a comment line to one file between runs (or, `at_start`, puts i + 1 comment lines first
    in round i); restores its bytes and times, always. Appended, every line keeps its number; put
    first, every fact of the file moves, by a different amount each round."""

    def __init__(self, path: Path, at_start: bool = False) -> None:
        self.path = path
        self.at_start = at_start
        self.original = path.read_bytes()
        st = path.stat()
        self.times = (st.st_atime_ns, st.st_mtime_ns)
        self.dirty = False
        _PENDING.append(self)

    def apply(self, i: int) -> None:
        sep = b"" if self.original.endswith(b"\n") or not self.original else b"\n"
        self.dirty = True
        if self.at_start:  # i + 1 lines: each round moves the lines again, from where the last round left them
            self.path.write_bytes(b"".join(EDIT_MARK + b" %d.%d\n" % (i, k) for k in range(i + 1)) + self.original)
        else:
            self.path.write_bytes(self.original + sep + EDIT_MARK + b" %d\n" % i)

    def restore(self, i: int = -1) -> None:
        if not self.dirty:
            return
        self.path.write_bytes(self.original)
        os.utime(self.path, ns=self.times)
        if self.path.read_bytes() != self.original:
            raise RuntimeError(f"could not restore {self.path} byte-exact")
        self.dirty = False

    def close(self) -> None:
        self.restore()
        if self in _PENDING:
            _PENDING.remove(self)


_PENDING: List[FileEdit] = []


class FreshClone:
    """A copy of the project as a CI job has it after `actions/cache` restored the cache directory: every
    file written just now, at another path (new mtimes, ctimes and inodes), the caches the tree's last
    run left included. Made again before each run, so each run is the first one on its clone.

    Where the tree is the top of a git work tree with nothing uncommitted, the copy is what CI has: a `git
    clone` (its index holds the blob id and stat data of every file it wrote, which archsync asks git
    for instead of reading the files: `lint_plugin/project/git_blobs.py`) with the untracked files (the
    cache directories) copied in. Elsewhere it is a plain copy, and every file is read and hashed."""

    def __init__(self, tree: Path, root: Path, workdir: Path) -> None:
        self.source = root if root in tree.resolve().parents or root == tree.resolve() else tree
        self.base = workdir / "fresh-clone"
        self.copy = self.base / "checkout" / self.source.name
        self.cwd = self.copy / tree.resolve().relative_to(self.source.resolve())
        self.git = _committed_work_tree(self.source)

    @property
    def how(self) -> str:
        return "a `git clone` with the untracked files copied in" if self.git else \
            "a copy (the tree is not the top of a git work tree with everything committed): every file is read"

    def make(self) -> None:
        self.close()
        if not self.git:
            shutil.copytree(self.source, self.copy, symlinks=True, copy_function=shutil.copyfile)
            return
        self.copy.parent.mkdir(parents=True)
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(self.source), str(self.copy)], check=True,
                       stdin=subprocess.DEVNULL)
        untracked = subprocess.run(["git", "-C", str(self.source), "ls-files", "-z", "--others"], check=True,
                                   stdout=subprocess.PIPE, stdin=subprocess.DEVNULL).stdout
        for rel in filter(None, untracked.decode("utf-8", "surrogateescape").split("\0")):
            target = self.copy / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.source / rel, target)

    def compare(self, cold: List[str], scenario: "Scenario") -> None:
        """The findings on the clone are those of a cold run on the tree itself."""
        archsync = scenario.contenders[0]
        _, expected, _ = run_child(cold, Path(self.source) / self.cwd.relative_to(self.copy))
        same = archsync.last_stdout == expected
        scenario.notes.append(f"same findings as a cold run of the tree: {'yes' if same else 'NO'}")
        if not same:
            raise ChildFailed(archsync.cmd, self.cwd, 0, b"", "the restored cache changed the findings")

    def close(self) -> None:
        if self.base.exists():
            shutil.rmtree(self.base)


def _committed_work_tree(directory: Path) -> bool:
    """Is `directory` the top of a git work tree whose tracked files are all committed?"""
    if not (directory / ".git").exists():
        return False
    status = subprocess.run(["git", "-C", str(directory), "status", "--porcelain", "--untracked-files=no"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return status.returncode == 0 and not status.stdout.strip()


def _on_sigterm(signum, frame) -> None:
    raise SystemExit(128 + signum)  # unwinds through the finally blocks that restore files


# --------------------------------------------------------------------------- scenarios

@dataclass
class Scenario:
    key: str
    title: str
    contenders: List[Contender]
    ratio_of: Optional[Tuple[str, str]]  # (numerator, denominator) contender names
    target: Optional[float]
    status: str = "ok"
    error: str = ""
    notes: List[str] = field(default_factory=list)
    loadavg: Optional[List[float]] = None
    extra: Dict[str, object] = field(default_factory=dict)  # figures of scenarios that are no timed pair

    def by_name(self, name: str) -> Optional[Contender]:
        return next((c for c in self.contenders if c.name == name), None)

    @property
    def ratio(self) -> Optional[float]:
        if self.ratio_of is None or self.status != "ok":
            return None
        a, b = self.by_name(self.ratio_of[0]), self.by_name(self.ratio_of[1])
        if a is None or b is None or not a.median or not b.median:
            return None
        return a.median / b.median

    def to_json(self) -> dict:
        ratio = self.ratio
        out = {
            "title": self.title,
            "status": self.status,
            "contenders": {c.name: c.summary() for c in self.contenders},
            "ratio_of": "/".join(self.ratio_of) if self.ratio_of else None,
            "ratio": round(ratio, 4) if ratio is not None else None,
            "target": self.target,
            "met": (ratio <= self.target) if (ratio is not None and self.target is not None) else None,
        }
        if self.error:
            out["error"] = self.error
        if self.notes:
            out["notes"] = self.notes
        if self.loadavg is not None:
            out["loadavg_before"] = self.loadavg
        if self.extra:
            out.update(self.extra)
        return out


def bench_tree(tree: Tree, tools: Tools, args: argparse.Namespace, workdir: Path) -> List[Scenario]:
    runs = args.runs
    root = project_root(tree.path)
    cache = cache_dir(root)
    check = tools.archsync + ["check"]
    ruff_cmd = [tools.ruff, *RUFF_ARGS, "."] if tools.ruff else None
    cwd = tree.path
    scenarios: List[Scenario] = []

    def pair(key: str, title: str, archsync_cmd: List[str], before=None, target=None,
             ruff_override: Optional[List[str]] = None) -> Scenario:
        contenders = [Contender("archsync", archsync_cmd, cwd, before=before)]
        baseline = ruff_override if ruff_override is not None else ruff_cmd
        if baseline:
            contenders.append(Contender("ruff", baseline, cwd))
        return Scenario(key, title, contenders, ("archsync", "ruff") if baseline else None, target)

    def attempt(scenario: Scenario, body: Callable[[], None]) -> None:
        scenarios.append(scenario)
        if hasattr(os, "getloadavg"):
            scenario.loadavg = [round(x, 2) for x in os.getloadavg()]
        load = f" (load {scenario.loadavg[0]:.2f})" if scenario.loadavg else ""
        _progress(f"[{tree.label}] {scenario.title}{load}")
        try:
            body()
        except ChildFailed as exc:
            scenario.status = "failed"
            scenario.error = str(exc)
            _progress(f"  FAILED: {exc}")

    with CacheGuards(project_caches(tree.path, root), workdir) as guard:
        # Warm the OS page cache and archsync's own bytecode; nothing is timed yet.
        _progress(f"[{tree.label}] warming up")
        try:
            if ruff_cmd:
                run_child(ruff_cmd, cwd)
            _, _, err = run_child(check + ["."], cwd)
        except ChildFailed as exc:
            failed = Scenario("setup", "warm-up runs", [], None, None, status="failed", error=str(exc))
            _progress(f"  FAILED: {exc}")
            return [failed]
        summary = err.decode("utf-8", "replace").strip().splitlines()
        tree_summary = summary[-1] if summary else ""
        cache_created = cache.exists()

        ruff_version_cmd = [tools.ruff, "--version"] if tools.ruff else None
        attempt(pair("startup", "startup (`archsync --version` vs `ruff --version`)", tools.archsync + ["--version"],
                     ruff_override=ruff_version_cmd),
                lambda: interleave("startup", runs, scenarios[-1].contenders))

        if tools.no_cache_flag:
            cold_cmd, cold_before, cold_title = check + ["--no-cache", "."], None, "cold (`check --no-cache`)"
        else:
            cold_cmd, cold_before, cold_title = check + ["."], guard.clear, "cold (cache dir deleted before each run)"
        attempt(pair("cold", cold_title, cold_cmd, before=cold_before, target=TARGETS["cold"]),
                lambda: interleave("cold", runs, scenarios[-1].contenders))
        if tools.no_cache_flag:
            attempt(pair("cold_fill", "first run (cache dir deleted, run writes it)", check + ["."],
                         before=guard.clear),
                    lambda: interleave("first run", runs, scenarios[-1].contenders))

        if tools.no_prefilter_flag:
            # The prefilter decides what is parsed, never what is reported: parsing every file must
            # print the same lines. Timed too, so the JSON shows what the prefilter saves.
            contenders = [Contender("archsync", cold_cmd, cwd, before=cold_before),
                          Contender("no prefilter", check + ["--no-cache", "--no-prefilter", "."], cwd)]
            scenario = Scenario("differential", "prefilter differential (`check --no-cache` vs `--no-prefilter`)",
                                contenders, ("archsync", "no prefilter"), None)

            def differential() -> None:
                interleave("differential", runs, contenders)
                same = contenders[0].last_stdout == contenders[1].last_stdout
                lines = len(contenders[0].last_stdout.splitlines())
                scenario.notes.append(f"same diagnostics with and without the prefilter: {'yes' if same else 'NO'}"
                                      f" ({lines} lines)")
                if not same:
                    raise ChildFailed(contenders[1].cmd, cwd, 0, b"", "the prefilter changed the diagnostics")
            attempt(scenario, differential)

        def warm() -> None:
            run_child(check + ["."], cwd)  # prime: the caches
            time.sleep(2.1)  # older than the racy margin, so the next run's answer is recorded (frontends/replay.py)
            run_child(check + ["."], cwd)
            interleave("warm", runs, scenarios[-1].contenders)
        attempt(pair("warm", "warm (`check`, nothing changed)", check + ["."], target=TARGETS["warm"]), warm)
        if not cache_created and not cache.exists():
            scenarios[-1].notes.append(f"no cache directory at {cache} after a run: archsync does not cache yet")

        clone = FreshClone(tree.path, root, workdir)
        try:
            def restored() -> None:
                run_child(check + ["."], cwd)  # prime: the caches a CI run leaves (then carried to the clone)
                interleave("restored", runs, scenarios[-1].contenders)
                clone.compare(check + ["--no-cache", "."], scenarios[-1])
            scenario = pair("restored", "restored cache on a fresh clone (`check` in a copy written just now, "
                                        "cache directories included)", check + ["."], before=clone.make,
                            target=TARGETS["restored"])
            scenario.contenders[0].cwd = clone.cwd
            scenario.notes.append(f"the fresh clone: {clone.how}")
            attempt(scenario, restored)
        finally:
            clone.close()

        # The front ends that plan fixes (issue 28, item 6): JSON beside text, cold and warm, and
        # `fix --diff` beside a cold check; JSON must print the same document cold and warm.
        def front_end(key: str, title: str, cmd: List[str], base_name: str, base_cmd: List[str],
                      prime: Optional[List[List[str]]] = None) -> Scenario:
            scenario = Scenario(key, title, [Contender("archsync", cmd, cwd), Contender(base_name, base_cmd, cwd)],
                                ("archsync", base_name), TARGETS[key])

            def body() -> None:
                for command in prime or ():
                    run_child(command, cwd)
                interleave(key, runs, scenario.contenders)
            attempt(scenario, body)
            return scenario

        if tools.no_cache_flag:
            cold_json = front_end("json_cold", "`check --no-cache --format json` vs `check --no-cache`",
                                  check + ["--no-cache", "--format", "json", "."], "text", cold_cmd)
            warm_json = front_end("json_warm", "`check --format json` vs `check`, nothing changed",
                                  check + ["--format", "json", "."], "text", check + ["."],
                                  prime=[check + ["--format", "json", "."], check + ["."]])
            if cold_json.status == "ok" and warm_json.status == "ok":
                same = cold_json.contenders[0].last_stdout == warm_json.contenders[0].last_stdout
                warm_json.notes.append(f"the same JSON document cold and warm: {'yes' if same else 'NO'}")
                if not same:
                    warm_json.status, warm_json.error = "failed", "the warm JSON differs from the cold one"
            front_end("fix_diff", "`fix --diff --no-cache` vs `check --no-cache`",
                      tools.archsync + ["fix", "--diff", "--no-cache", "."], "check", cold_cmd)

        if tree.edit_file:
            edit = FileEdit(tree.path / tree.edit_file)
            try:
                def edited() -> None:
                    run_child(check + ["."], cwd)  # prime
                    interleave("edited", runs, scenarios[-1].contenders, edit.apply, edit.restore)
                attempt(pair("edited", f"one file edited (`check`, comment appended to {tree.edit_file})",
                             check + ["."], target=TARGETS["edited"]), edited)
            finally:
                edit.close()
            # The same file with a line put first: its facts move, so the run is redone from the index cache.
            shifted = FileEdit(tree.path / tree.edit_file, at_start=True)
            try:
                def edited_shift() -> None:
                    run_child(check + ["."], cwd)  # prime
                    interleave("edited (lines moved)", runs, scenarios[-1].contenders, shifted.apply, shifted.restore)
                attempt(pair("edited_shift", f"one file edited, its lines moved (`check`, comment put first in "
                             f"{tree.edit_file})", check + ["."]), edited_shift)
            finally:
                shifted.close()

        def walk() -> None:
            _, out, _ = run_child([sys.executable, "-m", "bench.walk", "--tree", str(tree.path), "--rounds",
                                   str(max(3, runs))], BENCH_DIR.parent, ok=(0,))
            figures = json.loads(out)
            scenarios[-1].extra.update(figures)
            scenarios[-1].notes.append(
                "projects walk {projects_walk_ms} ms, discovery {discovery_ms} ms, both in one shared listing "
                "{walk_and_discovery_shared_ms} ms ({projects} projects, {files} files)".format(**figures))
        attempt(Scenario("walk", "projects walk and discovery (in process, medians)", [], None, None), walk)

        def stages() -> None:
            _, out, _ = run_child([sys.executable, "-m", "bench.stages", "--json", "--tree", str(tree.path),
                                   "--rounds", str(max(3, runs))], BENCH_DIR.parent, ok=(0,))
            figures = json.loads(out)
            scenarios[-1].extra.update(figures, table=bench_stages.table(figures))
        attempt(Scenario("stages", "where a cold run's time goes (stages and floors, one process, medians)", [],
                         None, None), stages)

        if tree.edit_file and not args.skip_lsp:
            # a comment appended (the record as it was: the last findings reported again), then
            # lines moved (every fact moves: the whole analysis, from what the server kept)
            for key, edit, how in (("lsp", "append", "a comment appended"), ("lsp-moved", "prepend", "lines moved")):
                def lsp_body(edit: str = edit, how: str = how, key: str = key) -> None:
                    run_child(check + ["."], cwd)  # the cache as a run before the editor opened leaves it
                    try:
                        figures = lsp.measure(tools.archsync + ["lsp"], tree.path, tree.edit_file, runs, child_env(),
                                              edit=edit)
                    except (OSError, RuntimeError, TimeoutError, ValueError) as exc:
                        raise ChildFailed(tools.archsync + ["lsp"], cwd, -1, b"", f"LSP session failed: {exc!r}") \
                            from exc
                    latency = figures["median_edit_s"]
                    target = LSP_TARGET_S if key == "lsp" else None
                    met = None if target is None else latency is not None and latency <= target
                    scenarios[-1].extra.update(figures, target_s=target, met=met)
                    scenarios[-1].notes.append(
                        f"didChange ({how}) -> publishDiagnostics: median {latency} s, server CPU "
                        f"{figures['median_edit_cpu_s']} s, over {runs} edits (debounce 0"
                        + (f"; target <= {target:g} s" if target is not None else "")
                        + f"); first check after didOpen {figures['open_s']} s")
                attempt(Scenario(key, f"editor: didChange ({how}) in {tree.edit_file} -> publishDiagnostics "
                                      f"(`archsync lsp`)", [], None, None), lsp_body)

        if tools.flake8 and tree.flake8_target:
            target = tree.flake8_target
            base = tools.flake8 + ["-j", str(args.jobs), "--select", "E,F,W,ARC", target]
            contenders = [Contender("flake8+ARC", base, cwd), Contender("flake8-ARC", base, cwd, env=_env_hiding())]
            if tools.ruff:
                ruff_same = [tools.ruff, *RUFF_ARGS, target]
                contenders.append(Contender("ruff", ruff_same, cwd))
            scenario = Scenario("flake8", f"flake8 -j{args.jobs} on {target}: with vs without the plugin",
                                contenders, ("flake8+ARC", "flake8-ARC"), TARGETS["flake8"])

            def flake8_body() -> None:
                run_child(check + ["."], cwd)  # the caches as an editor or pre-commit leaves them: `check`'s
                run_child(base, cwd)  # and flake8's own report (flake8 leaves noqa to itself: stored apart)
                interleave("flake8", runs, contenders)
                arc = [sum(1 for line in c.last_stdout.splitlines() if b": ARC" in line) for c in contenders[:2]]
                scenario.notes.append(f"ARC diagnostics in the last output: {arc[0]} with the plugin, {arc[1]} without")
                if arc[1]:
                    raise ChildFailed(contenders[1].cmd, cwd, 0, b"", "reported ARC codes with the plugin hidden")
            attempt(scenario, flake8_body)

    for s in scenarios:
        if s.key == "cold":
            s.notes.insert(0, f"archsync on this tree says: {tree_summary}")
    return scenarios


# --------------------------------------------------------------------------- report

def _fmt_s(value: Optional[float]) -> str:
    return "-" if value is None else (f"{value:.3f} s" if value < 10 else f"{value:.1f} s")


def _fmt_cpu(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}"


def _fmt_mb(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.0f}"


def _fmt_target(scenario: Scenario) -> str:
    ratio = scenario.ratio
    if scenario.target is None:
        return ""
    if ratio is None:
        return f"<= {scenario.target:g}"
    return f"<= {scenario.target:g} {'met' if ratio <= scenario.target else 'MISSED'}"


def tree_table(tree: Tree, scenarios: List[Scenario]) -> str:
    lines = [f"### {tree.label}: {tree.path}",
             f"{tree.files:,} .py files, {tree.lines:,} lines, {tree.bytes / 1e6:.1f} MB",
             "",
             "| scenario | measured | median | baseline | median | ratio | target | CPU s (measured / baseline) "
             "| peak MB (measured / baseline) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for s in scenarios:
        if s.status != "ok":
            lines.append(f"| {s.title} | FAILED | | | | | | | |")
            continue
        if not s.contenders:  # figures of their own, in the notes
            continue
        first = s.contenders[0]
        other = s.by_name(s.ratio_of[1]) if s.ratio_of else None
        ratio = s.ratio
        peak_note = ""
        if s.key in ("cold", "cold_fill", "warm", "edited") and first.peak_mb is not None:
            peak_note = " (met)" if first.peak_mb <= PEAK_TARGET_MB else f" (MISSED <= {PEAK_TARGET_MB:g})"
        lines.append("| {} | {} | {} | {} | {} | {} | {} | {} / {} | {} / {}{} |".format(
            s.title, first.name, _fmt_s(first.median), other.name if other else "-",
            _fmt_s(other.median) if other else "-", f"{ratio:.2f}x" if ratio is not None else "-",
            _fmt_target(s), _fmt_cpu(first.median_cpu), _fmt_cpu(other.median_cpu) if other else "-",
            _fmt_mb(first.peak_mb), _fmt_mb(other.peak_mb) if other else "-", peak_note))
        extra = [c for c in s.contenders[1:] if c is not other]
        for c in extra:
            vs = f"{first.name}/{c.name} {first.median / c.median:.2f}x" if c.median else ""
            lines.append(f"| ... same files | {c.name} | {_fmt_s(c.median)} | | | {vs} | | {_fmt_cpu(c.median_cpu)} "
                         f"| {_fmt_mb(c.peak_mb)} |")
    notes = [f"- {s.key}: {n}" for s in scenarios for n in s.notes]
    if notes:
        lines += [""] + notes
    for s in scenarios:
        if s.extra.get("table"):
            lines += ["", s.extra["table"]]
    return "\n".join(lines)


def linearity(results: List[Tuple[Tree, List[Scenario]]]) -> Tuple[str, dict]:
    generated = [(t, {s.key: s for s in ss}) for t, ss in results if t.kind == "generated"]
    if len(generated) < 2:
        return "", {}
    base_tree, base = min(generated, key=lambda item: item[0].size)
    base_cold = base.get("cold")
    if base_cold is None or base_cold.status != "ok":
        return "", {}
    rows = ["| size | files | lines | cold archsync | vs smallest | target | archsync CPU | vs smallest "
            "| cold ruff | vs smallest | ruff CPU | vs smallest |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    data = {"base_size": base_tree.size, "sizes": {}}
    for tree, by_key in sorted(generated, key=lambda item: item[0].size):
        cold = by_key.get("cold")
        if cold is None or cold.status != "ok":
            continue
        a, a0 = cold.by_name("archsync"), base_cold.by_name("archsync")
        r, r0 = cold.by_name("ruff"), base_cold.by_name("ruff")
        a_ratio = a.median / a0.median
        r_ratio = r.median / r0.median if r and r0 else None
        a_cpu = _ratio(a.median_cpu, a0.median_cpu)
        r_cpu = _ratio(r.median_cpu, r0.median_cpu) if r and r0 else None
        scale = tree.size / base_tree.size
        target = None
        if base_tree.size == 1 and tree.size == LINEARITY_SIZE:
            target = LINEARITY_TARGET
        data["sizes"][str(tree.size)] = {"files": tree.files, "lines": tree.lines, "scale": scale,
                                         "archsync_cold_s": a.median, "archsync_ratio": round(a_ratio, 3),
                                         "archsync_cold_cpu_s": a.median_cpu, "archsync_cpu_ratio": a_cpu,
                                         "ruff_cold_cpu_s": r.median_cpu if r else None, "ruff_cpu_ratio": r_cpu,
                                         "ruff_cold_s": r.median if r else None,
                                         "ruff_ratio": round(r_ratio, 3) if r_ratio is not None else None,
                                         "target": target, "met": (a_ratio <= target) if target else None}
        rows.append("| {}x | {:,} | {:,} | {} | {:.2f}x | {} | {} | {} | {} | {} | {} | {} |".format(
            tree.size, tree.files, tree.lines, _fmt_s(a.median), a_ratio,
            f"<= {target:g} {'met' if a_ratio <= target else 'MISSED'}" if target else "",
            _fmt_cpu(a.median_cpu), _fmt_x(a_cpu),
            _fmt_s(r.median if r else None), _fmt_x(r_ratio), _fmt_cpu(r.median_cpu if r else None), _fmt_x(r_cpu)))
    title = "### Linearity (cold check, wall and CPU time, against the smallest generated tree)"
    return title + "\n\n" + "\n".join(rows), data


def _ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return round(a / b, 3) if a is not None and b else None


def _fmt_x(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}x"


def machine_info() -> dict:
    info = {
        "nproc": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
    }
    if hasattr(os, "getloadavg"):
        info["loadavg_at_start"] = [round(x, 2) for x in os.getloadavg()]
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                info["mem_total_mb"] = int(line.split()[1]) // 1024
                break
    except OSError:
        pass
    return info


def repo_state() -> dict:
    repo = BENCH_DIR.parent
    try:
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--", "lint_plugin"],
                               capture_output=True, text=True, timeout=10)
        return {"commit": head.stdout.strip() or None, "lint_plugin_modified": bool(dirty.stdout.strip())}
    except (OSError, subprocess.SubprocessError):
        return {}


# --------------------------------------------------------------------------- main

def _parse_sizes(text: str) -> List[int]:
    if text.strip().lower() in ("", "none", "0"):
        return []
    try:
        sizes = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if any(s < 1 for s in sizes):
        raise argparse.ArgumentTypeError("sizes must be >= 1")
    return sizes


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench",
        description="Benchmark archsync (cold, warm, one file edited, flake8 plugin overhead) against "
                    "ruff and flake8, on a real tree and on generated serving-repo trees.",
    )
    p.add_argument("--tree", type=Path, action="append", default=[],
                   help="a real project directory (e.g. /tmp/sglang-real/python), repeatable; each is restored "
                        "afterwards, byte-exact, including archsync's cache directory")
    p.add_argument("--sizes", type=_parse_sizes, default=None,
                   help="generated tree sizes, e.g. 1,4,16 (1x ~ 400 files / 150k lines); 'none' for no generated "
                        "trees. Default: 1,4,16 without --tree, none with --tree")
    p.add_argument("--runs", type=int, default=5,
                   help="alternating runs per scenario; medians are reported (default 5)")
    p.add_argument("--json", type=Path, default=None,
                   help=f"where to write the JSON results (default {DEFAULT_OUT_DIR.relative_to(BENCH_DIR.parent)}"
                        "/results-<timestamp>.json; that directory ignores itself in git)")
    p.add_argument("--skip-flake8", action="store_true", help="no flake8 rows (flake8 on a whole real tree is slow)")
    p.add_argument("--skip-lsp", action="store_true", help="no editor-latency scenario (it needs pygls)")
    p.add_argument("--flake8-subdir", metavar="REL", action="append", default=[],
                   help="run flake8 (and its ruff baseline) on this subdirectory of a --tree, e.g. sglang/srt; "
                        "repeatable: each tree takes the first one it has (default: the whole tree)")
    p.add_argument("--flake8-sizes", type=_parse_sizes, default=None,
                   help="generated sizes that get flake8 rows (default: the smallest generated size)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="flake8 -j value (default 2)")
    p.add_argument("--edit-file", metavar="REL", action="append", default=[],
                   help="file of a --tree to edit in the edited scenarios; repeatable: each tree takes the first one "
                        "it has (default: a models/ file with EntryClass, qwen3_5.py if present)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated trees (default 0)")
    p.add_argument("--archsync", metavar="PATH", help="archsync executable (default: --install)")
    p.add_argument("--install", choices=("wheel", "here"), default="wheel",
                   help="without --archsync: measure this checkout built into a wheel and installed in a throwaway "
                        "virtualenv, as users run it (default), or the archsync next to this Python, then on PATH")
    p.add_argument("--ruff", metavar="PATH", help="ruff executable (default: PATH, then next to this Python)")
    p.add_argument("--keep-trees", action="store_true", help="keep the generated trees (their paths are printed)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if args.runs < 1:
        print("bench: --runs must be >= 1", file=sys.stderr)
        return 2
    if args.sizes is None:
        args.sizes = [] if args.tree else [1, 4, 16]
    args.tree = [t.resolve() for t in args.tree]
    for tree_path in args.tree:
        if not tree_path.is_dir():
            print(f"bench: --tree {tree_path}: not a directory", file=sys.stderr)
            return 2
    for subdir in args.flake8_subdir:
        if args.tree and not any((t / subdir).exists() for t in args.tree):
            print(f"bench: --flake8-subdir {subdir}: not found under any --tree", file=sys.stderr)
            return 2
    if not args.tree and not args.sizes:
        print("bench: nothing to measure (no --tree and no --sizes)", file=sys.stderr)
        return 2
    flake8_sizes = args.flake8_sizes if args.flake8_sizes is not None else args.sizes[:1]

    started = datetime.datetime.now()
    machine = machine_info()
    if args.json is None:
        DEFAULT_OUT_DIR.mkdir(exist_ok=True)
        ignore = DEFAULT_OUT_DIR / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# written by the benchmark: nothing here is tracked\n*\n")
        args.json = DEFAULT_OUT_DIR / f"results-{started:%Y%m%d-%H%M%S}.json"

    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    workdir = Path(tempfile.mkdtemp(prefix="archsync-bench-"))
    results: List[Tuple[Tree, List[Scenario]]] = []
    t0 = time.perf_counter()
    global _LAUNCHER
    try:
        _LAUNCHER = Launcher(workdir)
        tools = find_tools(args, workdir)
        _progress(f"bench: {tools.archsync_version} ({_shell(tools.archsync)}), --no-cache "
                  f"{'supported' if tools.no_cache_flag else 'not supported: cold = cache dir deleted'}; "
                  f"{tools.ruff_version or 'no ruff'}; flake8: {tools.flake8_version or tools.flake8_note}")

        for tree_path in args.tree:
            files, lines, size = count_tree(tree_path)
            edit = next((e for e in args.edit_file if (tree_path / e).is_file()), None) or pick_edit_file(tree_path)
            subdir = next((d for d in args.flake8_subdir if (tree_path / d).exists()), ".")
            label = f"tree {tree_path.name}" if tree_path.name != "python" else f"tree {tree_path.parent.name}/python"
            tree = Tree(label, tree_path, "real", None, files, lines, size, edit, subdir)
            results.append((tree, bench_tree(tree, tools, args, workdir)))

        for size in args.sizes:
            target = Path(tempfile.mkdtemp(prefix=f"gen-{size}x-", dir=None if args.keep_trees else workdir))
            _progress(f"bench: generating the {size}x tree in {target}")
            info = gen.generate(target, size, args.seed)
            tree = Tree(f"generated {size}x", target, "generated", size, info.files, info.lines, info.bytes,
                        info.edit_file, "." if size in flake8_sizes else None)
            try:
                results.append((tree, bench_tree(tree, tools, args, workdir)))
            finally:
                if not args.keep_trees:
                    shutil.rmtree(target, ignore_errors=True)
    finally:
        for pending in list(_PENDING):
            pending.close()
        if _LAUNCHER is not None:
            _LAUNCHER.close()
        shutil.rmtree(workdir, ignore_errors=True)
        signal.signal(signal.SIGTERM, previous)

    tables = [tree_table(tree, scenarios) for tree, scenarios in results]
    lin_table, lin_data = linearity(results)
    failures = [f"{tree.label} / {s.title}: {s.error}" for tree, ss in results for s in ss if s.status != "ok"]
    cold_is = "`archsync check --no-cache`" if tools.no_cache_flag else "`archsync check` after deleting its cache dir"
    header = (f"## archsync benchmark ({started:%Y-%m-%d %H:%M}, {args.runs} alternating runs, medians; "
              f"{machine['nproc']} CPUs, Python {platform.python_version()})\n\n"
              f"{tools.archsync_version}, installed {tools.installed}; {tools.ruff_version or 'ruff: not found'}; "
              f"flake8: {tools.flake8_version or tools.flake8_note}\n"
              f"cold = {cold_is}; "
              f"baseline ruff = `ruff {' '.join(RUFF_ARGS)} .`; CPU = user+sys of the child and its workers; "
              "peak = max RSS of the child's largest process "
              f"(floor {_LAUNCHER.floor_kib / 1024 if _LAUNCHER else 0:.0f} MB: the launcher's RSS)")
    trees_json = [dict(tree.to_json(), scenarios={s.key: s.to_json() for s in ss}) for tree, ss in results]
    summary_table, summary = targets.summarise(trees_json, lin_data, TARGETS, PEAK_TARGET_MB, LSP_TARGET_S)
    print(header)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load is not None:
        print(f"load average at start {machine.get('loadavg_at_start')}, at the end {[round(x, 2) for x in load]}")
    print()
    print(summary_table)
    for table in tables + ([lin_table] if lin_table else []):
        print()
        print(table)
    if failures:
        print("\n### FAILED")
        for failure in failures:
            print(f"- {failure}")

    payload = {
        "schema": 1,
        "started": started.isoformat(timespec="seconds"),
        "duration_s": round(time.perf_counter() - t0, 1),
        "options": {"trees": [str(t) for t in args.tree], "sizes": args.sizes, "runs": args.runs,
                    "jobs": args.jobs, "skip_flake8": args.skip_flake8, "flake8_subdir": args.flake8_subdir,
                    "flake8_sizes": flake8_sizes, "seed": args.seed},
        "machine": machine,
        "rss_floor_mb": round(_LAUNCHER.floor_kib / 1024, 2) if _LAUNCHER else None,
        "repo": repo_state(),
        "tools": tools.to_json(),
        "targets": {**TARGETS, "peak_mb": PEAK_TARGET_MB, "linearity_16x": LINEARITY_TARGET, "lsp_s": LSP_TARGET_S},
        "summary": summary,
        "trees": trees_json,
        "linearity": lin_data,
        "failures": failures,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"\nJSON: {args.json}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
