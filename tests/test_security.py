"""Security: analysed code is never imported or run, configuration cannot load code, no network.

The analysed project is untrusted (it comes from pull requests). These tests build projects
whose every module, `__init__.py`, `__main__.py`, `conftest.py`, `setup.py`, `sitecustomize.py`
and stdlib-shadowing module (`ast.py`, `json.py`, ...) would leave a marker file outside the
project, exit, or raise if it were ever imported, and configurations whose strings are code.
They run the real `archsync` console script and flake8 and assert that no marker appears and
that the analysis still happened (the hostile modules' own drift is reported).

Network: `archsync` and flake8 run with every socket entry point replaced by one that records
the attempt and raises; and, when strace is available and allowed, under
`strace -f -e trace=network` (no AF_INET/AF_INET6 socket or connect in any process, the
parsing worker pool included). A further strace audit checks what archsync writes (only its
cache directory) and which Python/TOML files it opens (only the project's, its own and the
interpreter's).

Noted, not tested: `name-pattern` is a regular expression run against the project's strings,
so a catastrophic-backtracking pattern (e.g. "(a+)+$") in a hostile pyproject.toml is a
denial of service, not code execution. And `python -m flake8` puts the current directory on
sys.path before flake8 imports anything (Python's `-m` behaviour, not archsync's), so the
stdlib-shadowing test drives the `flake8` console script instead.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

import lint_plugin
from conftest import ARCHSYNC, EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, Result, archsync, flake8, flake8_lines, run

FLAKE8 = Path(sys.executable).parent / "flake8"

MODELS = (
    "class Qwen3_5ForCausalLM:\n    pass\n\n\n"
    "class Qwen3_5ForConditionalGeneration:\n    pass\n\n\n"
    "EntryClass = [Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration]\n"
)
PREDICATE = ('def is_qwen3_5(config): return config.architectures[0] in '
             '("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration")\n')
GUARDED = 'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'


def make_project(root: Path, config: str = "") -> Path:
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n' + (f"\n{config.strip()}\n" if config else ""))
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "models.py").write_text(MODELS)
    (root / "pkg" / "config.py").write_text(PREDICATE)
    (root / "pkg" / "overrides.py").write_text(GUARDED)
    return root


def markers(directory: Path) -> List[str]:
    return sorted(p.name for p in directory.iterdir())


# -- 1. the analysed code is never imported or executed ------------------------------------------

def _payload(marker_dir: Path, name: str, then: str = "") -> str:
    """Module-level code that leaves a marker (three ways), then exits or raises."""
    marker = marker_dir / name
    return (
        "\n\nimport os as _os, sys as _sys, subprocess as _subprocess\n"
        f"open({str(marker)!r}, 'w').write('imported')\n"
        f"_os.system('touch {marker}.system')\n"
        f"_subprocess.run(['touch', '{marker}.subprocess'])\n"
        "class _Meta(type):\n"
        "    def __new__(mcs, *args):\n"
        f"        open({str(marker) + '.metaclass'!r}, 'w').close()\n"
        "        return super().__new__(mcs, *args)\n"
        "class _Evil(metaclass=_Meta):\n"
        f"    open({str(marker) + '.classbody'!r}, 'w').close()\n"
        f"{then}\n"
    )


def hostile_project(root: Path, marker_dir: Path, shadow_stdlib: bool = False) -> Path:
    """The healthy project with side effects in every module, plus hostile extras."""
    make_project(root)
    pkg = root / "pkg"
    for name, then in (("models", ""), ("config", "_sys.exit(3)"), ("overrides", "raise SystemExit(4)")):
        path = pkg / f"{name}.py"
        path.write_text(path.read_text() + _payload(marker_dir, name, then))
    (pkg / "__init__.py").write_text(_payload(marker_dir, "init", "_os._exit(9)"))
    (pkg / "__main__.py").write_text(_payload(marker_dir, "main", "raise RuntimeError('ran')"))
    (pkg / "evil.py").write_text(
        'EVIL_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
        '__import__("os").system("touch ' + str(marker_dir / "evil.dunder") + '")\n'
        + _payload(marker_dir, "evil", "raise KeyboardInterrupt")
        + "def is_qwen3_5_evil(config):\n"
        f"    open({str(marker_dir / 'evil.predicate')!r}, 'w').close()\n"
        '    return config.architectures[0] in ("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration")\n'
        f"EntryClass = [__import__('os').system('touch {marker_dir / 'evil.registry'}')]\n"
        f"if __name__ == '__main__':\n    open({str(marker_dir / 'evil.main')!r}, 'w').close()\n"
    )
    for name in ("conftest", "setup", "sitecustomize", "usercustomize", "noxfile", "manage"):
        (root / f"{name}.py").write_text(_payload(marker_dir, name, "raise SystemExit(5)"))
    if shadow_stdlib:
        for name in ("ast", "json", "re", "tomllib", "tomli", "fnmatch", "hashlib", "tempfile", "argparse",
                     "libcst", "flake8", "pycodestyle", "pyflakes", "multiprocessing", "encodings"):
            (root / f"{name}.py").write_text(_payload(marker_dir, f"shadow-{name}", "raise SystemExit(6)"))
        shadow = root / "lint_plugin"
        shadow.mkdir()
        (shadow / "__init__.py").write_text(_payload(marker_dir, "shadow-lint_plugin", "raise SystemExit(7)"))
    return root


def _assert_evil_reported(result: Result) -> None:
    """The hostile file was analysed: its own drift is reported next to the healthy one."""
    assert flake8_lines(result) == [
        "pkg/evil.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from EVIL_ARCHS",
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result


@pytest.mark.parametrize("front_end", ["archsync", "archsync-no-cache", "archsync-show", "archsync-json",
                                       "python-m-flake8", "python-m-flake8-j4"])
@pytest.mark.e2e
def test_hostile_modules_are_never_executed(tmp_path, front_end):
    marker_dir = tmp_path / "markers"
    marker_dir.mkdir()
    root = hostile_project(tmp_path / "proj", marker_dir)
    command = {
        "archsync": [ARCHSYNC, "check"],
        "archsync-no-cache": [ARCHSYNC, "check", "--no-cache"],
        "archsync-show": [ARCHSYNC, "show", "--all"],
        "archsync-json": [ARCHSYNC, "check", "--format", "json"],
        "python-m-flake8": [sys.executable, "-m", "flake8", "--isolated", "--select=ARC", "."],
        "python-m-flake8-j4": [sys.executable, "-m", "flake8", "--isolated", "--select=ARC", "-j", "4", "."],
    }[front_end]
    result = run(command, root)
    assert markers(marker_dir) == [], f"analysed code ran: {markers(marker_dir)}\n{result}"
    if front_end == "archsync-show":
        assert result.returncode == EXIT_CLEAN and "EVIL_ARCHS" in result.stdout, result
    elif front_end == "archsync-json":
        assert result.returncode == EXIT_FINDINGS and '"EVIL_ARCHS"' in result.stdout, result
    else:
        assert result.returncode == EXIT_FINDINGS, result
        _assert_evil_reported(result)
    # Running it twice (warm cache) changes nothing.
    again = run(command, root)
    assert markers(marker_dir) == [] and again.stdout == result.stdout, again


@pytest.mark.parametrize("front_end", ["archsync", "flake8-script"])
@pytest.mark.e2e
def test_modules_shadowing_the_stdlib_and_our_dependencies_are_never_imported(tmp_path, front_end):
    """`ast.py`, `json.py`, `tomllib.py`, `lint_plugin/`, `flake8.py` ... in the checked directory."""
    marker_dir = tmp_path / "markers"
    marker_dir.mkdir()
    root = hostile_project(tmp_path / "proj", marker_dir, shadow_stdlib=True)
    command = [ARCHSYNC, "check"] if front_end == "archsync" else [FLAKE8, "--isolated", "--select=ARC", "."]
    result = run(command, root)
    assert markers(marker_dir) == [], f"a shadowing module was imported: {markers(marker_dir)}\n{result}"
    assert result.returncode == EXIT_FINDINGS, result
    _assert_evil_reported(result)


# -- 2. configuration cannot load code -----------------------------------------------------------

def _config_payloads(marker: Path) -> Dict[str, Tuple[str, int, List[str], Optional[str]]]:
    """name -> ([tool.archsync] body, exit code, exact stdout lines, the one error after `<pyproject>: `)."""
    code = f"__import__('os').system('touch {marker}')"
    shell = f"$(touch {marker})"
    backticks = f"`touch {marker}`"
    q = lambda text: '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731 - a TOML string
    drift = [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ]  # the healthy drift, reported whatever the hostile strings
    return {
        # Names that match nothing are configuration errors (issue 16): still only names, never run.
        "registries": (f"registries = [\"EntryClass\", {q(code)}]", EXIT_ERROR, [],
                       f"tool.archsync.registries: {code!r} matches no registry or collection in the project"),
        "registries-qualified": (
            f"registries = [\"EntryClass\", {q('pkg/x.py::' + code)}]", EXIT_ERROR, [],
            f"tool.archsync.registries: no collection named \"pkg/x.py::{code}\" in the project"),
        "registries-decorator": (f"registries = [\"EntryClass\", {q('@' + code)}]", EXIT_ERROR, [],
                                 f"tool.archsync.registries: {'@' + code!r} matches no registry or collection in "
                                 f"the project"),
        "guard": (f"guard = [\"*_ARCHS\", {q(code)}, {q(shell)}]", EXIT_ERROR, [],
                  f"tool.archsync.guard: {code!r}, {shell!r} match no collection in the project"),
        "families": (f"families = [{q(code)}]", EXIT_ERROR, [],
                     f"tool.archsync.families: {code!r} matches no predicate in the project"),
        "name-pattern": ("name-pattern = " + q(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9_]*|__import__\('os'\)\.system\("
                                               + re.escape(f"'touch {marker}'") + r"\)"), EXIT_FINDINGS, drift, None),
        "cache-dir-shell": (f"cache-dir = {q(shell)}", EXIT_FINDINGS, drift, None),
        "cache-dir-backticks": (f"cache-dir = {q(backticks)}", EXIT_FINDINGS, drift, None),
        "src": (f"src = [\".\", {q(backticks)}, {q(code)}]", EXIT_ERROR, [],
                f"tool.archsync.src: {backticks!r} is not a directory in the project"),
        "exclude": (f"exclude = [{q(shell)}, {q(code)}]", EXIT_FINDINGS, drift, None),
        "extends": (f"extends = [{q(code)}]", EXIT_ERROR, [], f"tool.archsync.extends: invalid pack name \"{code}\""),
        "extends-path": (f"extends = [{q('../../../' + str(marker))}]", EXIT_ERROR, [],
                         f"tool.archsync.extends: invalid pack name '../../../{marker}'"),
        "siblings": (f"siblings = [[{q(code)}, {q(shell)}]]", EXIT_FINDINGS, drift, None),
        "config-maps": (f"config-maps = [{q('pkg/models.py::' + code)}]", EXIT_ERROR, [],
                        f"tool.archsync.config-maps: {'pkg/models.py::' + code!r} matches no dict in the project"),
        # The hostile subject and member are only names: the exemption matches nothing and is stale.
        "exemption": (
            "[[tool.archsync.exempt]]\nsubject = " + q(code) + "\nmembers = [" + q(shell) + "]\nreason = " + q(code),
            EXIT_FINDINGS, drift + [
                f"pyproject.toml:4:1: ARC202 exemption for '{shell}' in {code} no longer suppresses anything "
                "(pyproject.toml: tool.archsync.exempt[0]); remove it",
            ], None),
        "mirror": ("[[tool.archsync.mirror]]\ncollections = [" + q(code) + ", " + q(shell) + "]", EXIT_ERROR, [],
                   f"tool.archsync.mirror[0].collections: no collection named \"{code}\" in the project"),
        "subset": ("[[tool.archsync.subset]]\nof = " + q(code) + "\nin = " + q(shell), EXIT_ERROR, [],
                   f"tool.archsync.subset[0].of: no collection named \"{code}\" in the project"),
    }


CONFIG_PAYLOADS = sorted(_config_payloads(Path("/x")))


@pytest.mark.parametrize("name", CONFIG_PAYLOADS)
def test_configuration_cannot_load_code(tmp_path, name):
    """In this process: code a configuration made run would leave its marker here as well as anywhere."""
    marker = tmp_path / "markers" / "pwned"
    marker.parent.mkdir()
    body, exit_code, expected, error = _config_payloads(marker)[name]
    root = make_project(tmp_path / "proj", "[tool.archsync]\n" + body if not body.startswith("[[") else body)
    for command, result in ((["check"], lambda: archsync("check", cwd=root)),
                            (["check", "--no-cache"], lambda: archsync("check", "--no-cache", cwd=root)),
                            (["flake8"], lambda: flake8(".", cwd=root))):
        result = result()
        assert not marker.exists() and markers(marker.parent) == [], f"configuration ran code\n{result}"
        if command[0] == "check":
            assert result.returncode == exit_code, result
            assert result.lines == expected, result
            if exit_code == EXIT_ERROR:
                assert result.stdout == "", result
                assert result.err_lines == [f"archsync: error: {(root / 'pyproject.toml').resolve()}: {error}"], result
        else:
            assert result.returncode in (EXIT_CLEAN, EXIT_FINDINGS), result


# -- 3. no network access ---------------------------------------------------------------------------

_NO_NETWORK = r'''
import os, socket, sys
_MARK = os.environ["ARCHSYNC_NET_MARKER"]
def _deny(*args, **kwargs):
    with open(_MARK, "a") as handle:
        handle.write(f"{os.getpid()} {args!r}\n")
    raise OSError("network access attempted")
for _name in ("connect", "connect_ex", "sendto", "sendmsg", "bind", "listen"):
    setattr(socket.socket, _name, _deny)
for _name in ("create_connection", "getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr",
              "create_server", "socketpair"):
    setattr(socket, _name, _deny)
_init = socket.socket.__init__
def _guarded_init(self, family=-1, *args, **kwargs):
    if family in (socket.AF_INET, socket.AF_INET6):
        _deny("socket", family)
    _init(self, family, *args, **kwargs)
socket.socket.__init__ = _guarded_init
sys.argv[0] = ENTRY
'''


def _network_tree(root: Path, modules: int = 60) -> Path:
    """The healthy project, a module that would phone home on import, and enough modules
    that the engine parses with its worker pool."""
    make_project(root)
    (root / "pkg" / "phone_home.py").write_text(
        'import socket\nPHONE_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n'
        'socket.create_connection(("192.0.2.1", 80), timeout=1)\n')
    gen = root / "pkg" / "gen"
    gen.mkdir()
    for i in range(modules):
        (gen / f"m{i:02d}.py").write_text(
            f'G{i}_ARCHS = frozenset({{"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"}})\n')
    return root


@pytest.mark.parametrize("front_end", ["archsync", "flake8-j2"])
@pytest.mark.e2e
def test_no_network_access_with_sockets_blocked(tmp_path, front_end):
    root = _network_tree(tmp_path / "proj")
    marker = tmp_path / "network-attempts"
    if front_end == "archsync":
        code = _NO_NETWORK.replace("ENTRY", repr(str(ARCHSYNC))) + \
            "from lint_plugin.frontends.cli import main\nsys.exit(main(sys.argv[1:]))\n"
        args = ["check"]
    else:
        code = _NO_NETWORK.replace("ENTRY", repr("flake8")) + \
            "from flake8.main.cli import main\nsys.exit(main(sys.argv[1:]))\n"
        args = ["--isolated", "--select=ARC", "-j", "2", "."]
    for _ in range(2):  # cold, then warm
        result = run([sys.executable, "-c", code, *args], root, env={"ARCHSYNC_NET_MARKER": str(marker)})
        assert not marker.exists(), f"network access attempted:\n{marker.read_text()}\n{result}"
        assert result.returncode == EXIT_FINDINGS, result
        assert flake8_lines(result) == [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ], result


def _strace(tmp_path: Path, trace: str, command: Sequence, cwd: Path, *options: str) -> Tuple[Result, List[str]]:
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    log = tmp_path / f"strace-{len(list(tmp_path.glob('strace-*')))}.log"
    result = run(["strace", "-f", "-qq", "-s", "4096", *options, "-e", f"trace={trace}", "-o", log, *command], cwd)
    if not log.exists() or "PTRACE" in result.stderr or "Operation not permitted" in result.stderr:
        pytest.skip(f"strace cannot trace here: {result.stderr.strip()[:200]}")
    return result, log.read_text().splitlines()


@pytest.mark.parametrize("front_end", ["archsync", "archsync-no-cache", "flake8-j2"])
@pytest.mark.e2e
def test_no_network_syscalls_under_strace(tmp_path, front_end):
    root = _network_tree(tmp_path / "proj")
    command = {
        "archsync": [ARCHSYNC, "check"],
        "archsync-no-cache": [ARCHSYNC, "check", "--no-cache"],
        "flake8-j2": [sys.executable, "-m", "flake8", "--isolated", "--select=ARC", "-j", "2", "."],
    }[front_end]
    result, calls = _strace(tmp_path, "network", command, root)
    assert result.returncode == EXIT_FINDINGS, result
    assert flake8_lines(result) == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    inet = [call for call in calls if "AF_INET" in call]  # AF_INET6 too
    assert inet == [], "network system calls:\n" + "\n".join(inet[:20])
    connects = [call for call in calls if re.search(r"\b(connect|sendto|sendmsg|bind)\(", call)
                and "AF_UNIX" not in call and "AF_LOCAL" not in call]
    assert connects == [], "network system calls:\n" + "\n".join(connects[:20])


# -- what archsync writes and opens (strace audit) -----------------------------------------------------

_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
_MUTATING = ("mkdir", "mkdirat", "rename", "renameat", "renameat2", "unlink", "unlinkat", "rmdir", "symlink",
             "symlinkat", "link", "linkat", "truncate", "chmod", "fchmodat", "creat")


def _paths_of(call: str) -> List[str]:
    """The paths a call names; `-y` prints a directory descriptor's path (`openat(4</p>, "name", ...)`)."""
    relative = re.findall(r'\d+<([^>]*)>, "((?:[^"\\]|\\.)*)"', call)
    if relative:
        return [os.path.join(directory, name) for directory, name in relative]
    return re.findall(r'"((?:[^"\\]|\\.)*)"', call)


@pytest.mark.e2e
def test_archsync_writes_only_its_cache_and_reads_only_what_it_should(tmp_path):
    root = _network_tree(tmp_path / "proj")
    (root / "pkg" / "notes.txt").write_text("not python\n")
    trace = "openat,open,creat," + ",".join(c for c in _MUTATING if c != "creat")
    result, calls = _strace(tmp_path, trace, [ARCHSYNC, "check"], root, "-y")
    assert result.returncode == EXIT_FINDINGS, result
    assert flake8_lines(result) == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    cache_dir = str(root / ".archsync_cache")
    package_home = str(Path(lint_plugin.__file__).resolve().parent.parent)
    allowed_reads = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix, package_home, str(root)})
    bad_writes, bad_reads = [], []
    for call in calls:
        name = call.split("(", 1)[0].split()[-1] if "(" in call else ""
        if "= -1" in call or not name:
            continue  # failed calls change nothing
        paths = [os.path.normpath(os.path.join(str(root), p)) for p in _paths_of(call)[:2]]
        mutating = name in _MUTATING or (name in ("open", "openat") and any(f in call for f in _WRITE_FLAGS))
        for path in paths:
            if mutating and not (path == cache_dir or path.startswith(cache_dir + "/") or path.startswith("/dev/")):
                bad_writes.append(call)
            if (name in ("open", "openat") and path.endswith((".py", ".toml", ".txt", ".json", ".cfg", ".ini"))
                    and not path.startswith(allowed_reads)):
                bad_reads.append(call)
            if name in ("open", "openat") and path.endswith("notes.txt"):
                bad_reads.append(call)
    assert bad_writes == [], "archsync wrote outside its cache directory:\n" + "\n".join(bad_writes[:20])
    assert bad_reads == [], "archsync opened files it has no business reading:\n" + "\n".join(bad_reads[:20])


# -- output cannot be turned into CI commands ---------------------------------------------------------

def test_github_format_cannot_be_used_to_inject_workflow_commands(tmp_path):
    """A hostile file name or collection member holding a newline and `::command::` text: in
    `--format github` every diagnostic stays one `::error ...::` line (GitHub runs any stdout line
    starting with `::` as a workflow command)."""
    root = make_project(tmp_path / "proj")
    injected = "x\n::add-mask::secret\n::warning file=a.py::injected\r\n.py"
    (root / "pkg" / injected).write_text('EVIL_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    (root / "pkg" / "members.py").write_text(
        'MEMBER_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Evil\\n::set-output name=x::y"})\n')
    result = archsync("check", "--format", "github", cwd=root)
    assert result.returncode == EXIT_FINDINGS, result
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith("::error ") for line in lines), result
    # Newlines and carriage returns become %0A / %0D, and `:` in a property %3A: no line starts a new command.
    assert lines == [
        "::error file=pkg/members.py,line=1,col=1,title=ARC101 family-member-missing::ARC101 'Qwen3_5ForCausalLM' "
        "is matched by is_qwen3_5() (pkg/config.py:1) but missing from MEMBER_ARCHS",
        "::error file=pkg/members.py,line=1,col=62,title=ARC201 unknown-architecture::ARC201 "
        "'Evil%0A::set-output name=x::y' in MEMBER_ARCHS is not a registered architecture",
        "::error file=pkg/overrides.py,line=1,col=1,title=ARC101 family-member-missing::ARC101 'Qwen3_5ForCausalLM' "
        "is matched by is_qwen3_5() (pkg/config.py:1) but missing from X_ARCHS",
        "::error file=pkg/x%0A%3A%3Aadd-mask%3A%3Asecret%0A%3A%3Awarning file=a.py%3A%3Ainjected%0D%0A.py,line=1,col=1,"
        "title=ARC101 family-member-missing::ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from EVIL_ARCHS",
    ], result
