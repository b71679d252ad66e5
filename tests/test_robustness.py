"""Hostile inputs: broken, odd, huge, unreadable and looping files, and every kind of configuration error.

Every test builds a small project in tmp_path that always holds one healthy drift (the
registration, the `is_qwen3_5` family and a guarded `X_ARCHS` that misses the CausalLM
variant), adds one bad thing next to it, and runs the real `archsync` console script and
`python -m flake8 --select=ARC...` as subprocesses. The healthy ARC101 must survive every
bad neighbour, the exit code must be right, stderr must carry no traceback, and what happens
to the bad file (ARC902 with its reason, analysed normally, or skipped) is spelled out by
the assertion of each case.

Decisions assumed where the brief leaves them open (see each test):
  * a file that cannot parse but holds nothing that could be an architecture name (the byte
    prefilter never chooses it) is skipped silently: flake8 reports it as E999 itself;
  * files flake8 itself cannot parse or read get no ARC diagnostics from flake8 (flake8 does
    not call AST plugins on them, it reports E999/E902); `archsync check` reports ARC902;
  * a symlink that leads out of the project (file or directory) is not followed, and
    symlink loops / dangling links are skipped silently, like symlinked directories are;
  * an unreadable *directory* is skipped silently (what discovery does today);
  * positions are 1-based character columns of the decoded line, whatever the encoding.
"""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

ARCHSYNC = Path(sys.executable).parent / "archsync"
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

MODELS = (
    "class Qwen3_5ForCausalLM:\n    pass\n\n\n"
    "class Qwen3_5ForConditionalGeneration:\n    pass\n\n\n"
    "EntryClass = [Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration]\n"
)
PREDICATE = ('def is_qwen3_5(config): return config.architectures[0] in '
             '("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration")\n')
GUARDED = 'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
FAMILY = "is_qwen3_5() (pkg/config.py:1)"
HEALTHY = f"pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by {FAMILY} but missing from X_ARCHS"
SUMMARY = re.compile(r"archsync: (?:no problems|1 problem|\d+ problems) \(\d+ files, \d+ analysed\)")


def arc101(path: str, line: int, collection: str, column: int = 1) -> str:
    return (f"{path}:{line}:{column}: ARC101 'Qwen3_5ForCausalLM' is matched by {FAMILY} "
            f"but missing from {collection}")


def arc201_typo(path: str, line: int, column: int, collection: str) -> str:
    return (f"{path}:{line}:{column}: ARC201 'Qwen3_5ForCausalLMM' in {collection} is not a registered "
            f"architecture; did you mean 'Qwen3_5ForCausalLM'?")


# -- running the real programs ---------------------------------------------------------------

@dataclass(frozen=True)
class Result:
    args: Tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> List[str]:
        return [line for line in self.stdout.splitlines() if line.strip()]

    @property
    def err_lines(self) -> List[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]

    def __str__(self) -> str:
        return (f"$ {' '.join(self.args)}\n[exit {self.returncode}]\n"
                f"--- stdout\n{self.stdout[-3000:]}--- stderr\n{self.stderr[-1500:]}")


def run(args: Sequence[str], cwd: Path, *, timeout: float = 120, prefix: Sequence[str] = (),
        env: Optional[Dict[str, str]] = None, traceback_ok: bool = False) -> Result:
    full_env = dict(os.environ)
    full_env.pop("PYTHONPATH", None)
    full_env["PYTHONDONTWRITEBYTECODE"] = "1"
    full_env.update(env or {})
    command = [*map(str, prefix), *map(str, args)]
    try:
        proc = subprocess.run(command, cwd=str(cwd), env=full_env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`{' '.join(command)[:300]}` did not finish within {timeout} s")
    result = Result(tuple(command), proc.returncode, proc.stdout.decode("utf-8", "replace"),
                    proc.stderr.decode("utf-8", "replace"))
    if not traceback_ok:
        assert "Traceback" not in result.stderr, str(result)
        assert "Traceback" not in result.stdout, str(result)
    return result


def archsync(*args, cwd: Path, **kwargs) -> Result:
    return run([ARCHSYNC, *args], cwd, **kwargs)


def flake8(*args, cwd: Path, select: str = "ARC", **kwargs) -> Result:
    return run([sys.executable, "-m", "flake8", "--isolated", f"--select={select}", *args], cwd, **kwargs)


def flake8_lines(result: Result) -> List[str]:
    return [line[2:] if line.startswith("./") else line for line in result.lines]


def _order(lines: Sequence[str]) -> List[str]:
    """The order `archsync check` prints in: path, line, column, code."""
    def key(line: str):
        path, line_no, column, rest = line.split(":", 3)
        return path, int(line_no), int(column), rest
    return sorted(lines, key=key)


def assert_check(result: Result, expected: Sequence[str]) -> None:
    """Exact stdout, the exit code that follows it, and only the summary line on stderr."""
    assert result.lines == _order(expected), result
    assert result.returncode == (EXIT_FINDINGS if expected else EXIT_CLEAN), result
    assert len(result.err_lines) == 1 and SUMMARY.fullmatch(result.err_lines[0]), result
    count = len(expected)
    words = "no problems" if not count else ("1 problem" if count == 1 else f"{count} problems")
    assert result.err_lines[0].startswith(f"archsync: {words} ("), result


# -- the project -----------------------------------------------------------------------------

def make_project(root: Path, config: str = "") -> Path:
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n' + (f"\n{config.strip()}\n" if config else ""))
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "models.py").write_text(MODELS)
    (root / "pkg" / "config.py").write_text(PREDICATE)
    (root / "pkg" / "overrides.py").write_text(GUARDED)
    return root


@pytest.fixture
def project(tmp_path) -> Path:
    return make_project(tmp_path / "proj")


def parse_reason(data: bytes) -> str:
    """The reason ARC902 gives for a file Python's own parser rejects (Python's own words)."""
    try:
        ast.parse(data)
    except SyntaxError as exc:
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    except (RecursionError, MemoryError):  # how CPython gives up on very deep nesting
        return "expression nested too deeply to parse"
    raise AssertionError("expected the snippet not to parse")


def column_of(line: str, needle: str) -> int:
    return line.index(needle) + 1


# -- 1. bad files, each next to the healthy ones ----------------------------------------------

@dataclass(frozen=True)
class Case:
    files: Dict[str, bytes]  # root-relative path -> bytes
    archsync: Tuple[str, ...]  # exact `archsync check` stdout lines
    flake8: Tuple[str, ...]  # exact `flake8 --select=ARC` lines (without ./)
    flake8_e9: Tuple[str, ...] = ()  # files flake8 itself reports as E9xx (cannot parse/read)
    reason: Optional[re.Pattern] = None  # when set, the one ARC902 line's reason must match this


def _syntax_error() -> Case:
    data = b'BROKEN_ARCHS = frozenset({"Qwen3_5ForCausalLM",\n'
    line = f"pkg/broken.py:1:1: ARC902 file not analysed: {parse_reason(data)}"
    return Case({"pkg/broken.py": data}, (line, HEALTHY), (HEALTHY,), ("pkg/broken.py",))


def _syntax_error_without_names() -> Case:
    # Nothing in it can be an architecture name: the prefilter never parses it (documented skip).
    return Case({"pkg/junk.py": b"def broken(:\n    return 1\n"}, (HEALTHY,), (HEALTHY,), ("pkg/junk.py",))


def _undecodable_latin1() -> Case:
    data = b'LATIN_ARCHS = frozenset({"Caf\xe9ForCausalLM"})\n'
    line = f"pkg/latin.py:1:1: ARC902 file not analysed: {parse_reason(data)}"
    # flake8 decodes such a file as latin-1 and does call the plugin: it must still report what
    # `archsync check` reports for the bytes on disk, not analyse flake8's re-encoded copy.
    return Case({"pkg/latin.py": data}, (line, HEALTHY), (line, HEALTHY))


def _latin1_with_coding_cookie() -> Case:
    text = ('# -*- coding: latin-1 -*-\n'
            'LATIN_ARCHS = {"Qwen3_5ForConditionalGeneration": "\xe9\xe9\xe9\xe9", "Qwen3_5ForCausalLMM": 1}\n')
    line2 = text.splitlines()[1]
    expected = (arc101("pkg/latin_cookie.py", 2, "LATIN_ARCHS"),
                arc201_typo("pkg/latin_cookie.py", 2, column_of(line2, '"Qwen3_5ForCausalLMM"'), "LATIN_ARCHS"),
                HEALTHY)
    return Case({"pkg/latin_cookie.py": text.encode("latin-1")}, expected, expected)


def _utf8_non_ascii_before_a_member() -> Case:
    text = 'UTF_ARCHS = {"Qwen3_5ForConditionalGeneration": "\xe9\xe9\xe9\xe9", "Qwen3_5ForCausalLMM": 1}\n'
    expected = (arc101("pkg/utf.py", 1, "UTF_ARCHS"),
                arc201_typo("pkg/utf.py", 1, column_of(text, '"Qwen3_5ForCausalLMM"'), "UTF_ARCHS"),
                HEALTHY)
    return Case({"pkg/utf.py": text.encode("utf-8")}, expected, expected)


def _nul_bytes() -> Case:
    data = b'NUL_ARCHS = frozenset({"Qwen3_5ForCausalLM"})\n\x00\n'
    line = "pkg/nul.py:1:1: ARC902 file not analysed: <reason>"
    return Case({"pkg/nul.py": data}, (line, HEALTHY), (HEALTHY,), ("pkg/nul.py",),
                reason=re.compile(r"(?!.*\bNone\b).*null bytes.*"))


def _bom() -> Case:
    text = 'BOM_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLMM"})\n'
    expected = (arc101("pkg/bom.py", 1, "BOM_ARCHS"),
                arc201_typo("pkg/bom.py", 1, column_of(text, '"Qwen3_5ForCausalLMM"'), "BOM_ARCHS"),
                HEALTHY)
    return Case({"pkg/bom.py": b"\xef\xbb\xbf" + text.encode()}, expected, expected)


def _crlf() -> Case:
    data = (b'# CRLF line endings\r\n\r\nCRLF_ARCHS = frozenset({\r\n    "Qwen3_5ForConditionalGeneration",\r\n'
            b'    "Qwen3_5ForCausalLMM",\r\n})\r\n')
    expected = (arc101("pkg/crlf.py", 3, "CRLF_ARCHS"), arc201_typo("pkg/crlf.py", 5, 5, "CRLF_ARCHS"), HEALTHY)
    return Case({"pkg/crlf.py": data}, expected, expected)


def _cr_only() -> Case:
    data = b'# old Mac line endings\rFIRST = 1\rCR_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\r'
    expected = (arc101("pkg/cr.py", 3, "CR_ARCHS"), HEALTHY)
    return Case({"pkg/cr.py": data}, expected, expected)


def _tabs() -> Case:
    data = (b'if True:\n\tTAB_ARCHS = frozenset({\n\t\t"Qwen3_5ForConditionalGeneration",\n'
            b'\t\t"Qwen3_5ForCausalLMM",\n\t})\n')
    expected = (arc101("pkg/tabs.py", 2, "TAB_ARCHS", column=2), arc201_typo("pkg/tabs.py", 4, 3, "TAB_ARCHS"),
                HEALTHY)
    return Case({"pkg/tabs.py": data}, expected, expected)


def _inconsistent_tabs() -> Case:
    data = b'if True:\n        A = 1\n\tTAB_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
    line = f"pkg/tabs.py:1:1: ARC902 file not analysed: {parse_reason(data)}"
    return Case({"pkg/tabs.py": data}, (line, HEALTHY), (HEALTHY,), ("pkg/tabs.py",))


def _empty_and_whitespace_files() -> Case:
    return Case({"pkg/empty.py": b"", "pkg/blank.py": b"\n\n   \n\t\n", "pkg/only_bom.py": b"\xef\xbb\xbf"},
                (HEALTHY,), (HEALTHY,))


def _non_py_and_odd_names() -> Case:
    guarded = b'ODD_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
    # Not `*.py`: never read. A `.py` name with spaces and unicode: analysed like any other.
    return Case({"pkg/notes.txt": guarded, "pkg/data.pyc": b"\x00\x01garbage", "pkg/caf\u00e9 x.py": guarded},
                (arc101("pkg/caf\xe9 x.py", 1, "ODD_ARCHS"), HEALTHY),
                (arc101("pkg/caf\xe9 x.py", 1, "ODD_ARCHS"), HEALTHY))


CASES = {
    "syntax-error": _syntax_error,
    "syntax-error-without-names": _syntax_error_without_names,
    "undecodable-latin1": _undecodable_latin1,
    "latin1-with-coding-cookie": _latin1_with_coding_cookie,
    "utf8-non-ascii-before-member": _utf8_non_ascii_before_a_member,
    "nul-bytes": _nul_bytes,
    "utf8-bom": _bom,
    "crlf": _crlf,
    "cr-only": _cr_only,
    "tabs": _tabs,
    "inconsistent-tabs": _inconsistent_tabs,
    "empty-and-blank": _empty_and_whitespace_files,
    "non-py-and-odd-names": _non_py_and_odd_names,
}


def _write_case(root: Path, case: Case) -> None:
    for rel, data in case.files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _match_with_reason(lines: List[str], expected: Sequence[str], reason: Optional[re.Pattern]) -> None:
    assert len(lines) == len(expected), (lines, expected)
    for got, want in zip(lines, expected):
        if want.endswith("<reason>"):
            prefix = want[: -len("<reason>")]
            assert got.startswith(prefix), (got, want)
            assert reason is not None and reason.fullmatch(got[len(prefix):]), \
                f"ARC902 reason {got[len(prefix):]!r} does not say why clearly"
        else:
            assert got == want, (lines, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_file_next_to_healthy_ones(project, name):
    case = CASES[name]()
    _write_case(project, case)

    for args in (("check",), ("check", "--no-cache"), ("check",)):  # cold, uncached, warm
        result = archsync(*args, cwd=project)
        _match_with_reason(result.lines, _order(case.archsync), case.reason)
        assert result.returncode == EXIT_FINDINGS, result
        assert len(result.err_lines) == 1 and SUMMARY.fullmatch(result.err_lines[0]), result

    result = flake8(".", cwd=project, select="ARC,E9")
    lines = flake8_lines(result)
    arc = [line for line in lines if re.match(r"[^:]+:\d+:\d+: ARC", line)]
    e9 = sorted({line.split(":", 1)[0] for line in lines if re.match(r"[^:]+:\d+:\d+: E9\d\d ", line)})
    assert arc == _order(case.flake8), result
    assert e9 == sorted(case.flake8_e9), result
    assert result.returncode == EXIT_FINDINGS, result


# -- huge files --------------------------------------------------------------------------------

TWENTY_MB = 20 * 1024 * 1024


def _write_big(path: Path, head: str, line: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(head)
        handle.write(line * ((TWENTY_MB - len(head)) // len(line) + 1))
    assert path.stat().st_size >= TWENTY_MB


def test_twenty_megabytes_of_code_without_names_is_skipped(project):
    """20 MB of statements that hold no name: the byte prefilter skips it (not parsed)."""
    _write_big(project / "pkg" / "big.py", "", 'value_0 = [1, 2, 3, {"k": "payload"}]  # filler\n')
    for args in (("check",), ("check",)):
        assert_check(archsync(*args, cwd=project, timeout=240), [HEALTHY])


def test_twenty_megabyte_file_that_holds_names_is_analysed(project):
    """A guarded collection followed by 20 MB of comments: parsed and analysed, no blow-up."""
    head = 'BIG_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
    _write_big(project / "pkg" / "big.py", head, "# " + "filler " * 140 + "\n")
    expected = [arc101("pkg/big.py", 1, "BIG_ARCHS"), HEALTHY]
    for args in (("check",), ("check",)):  # cold, then warm from the cache
        assert_check(archsync(*args, cwd=project, timeout=240), expected)
    result = flake8(".", cwd=project, timeout=240)
    assert flake8_lines(result) == expected and result.returncode == EXIT_FINDINGS, result


def test_many_findings_in_one_file_stay_linear(project):
    """20,000 unregistered names in one guarded literal: 20,000 ARC201 lines, promptly.

    Guards against per-diagnostic rescans of the whole file (e.g. the `# noqa` lookup
    lower-casing or re-splitting the text for every diagnostic): linear, this takes about
    3 s here; quadratic, about 30 s. The file carries a `# noqa` for another code so that
    the noqa reader cannot skip it.
    """
    count = 20_000
    body = "".join(f'    "Unknown{i}ForCausalLM",\n' for i in range(count))
    (project / "pkg" / "many.py").write_text(f"MANY_ARCHS = frozenset({{  # noqa: E501\n{body}}})\n")
    result = archsync("check", "--no-cache", cwd=project, timeout=15)
    assert result.returncode == EXIT_FINDINGS, result
    arc201 = [line for line in result.lines if " ARC201 " in line]
    assert len(arc201) == count, result
    assert arc201[0] == "pkg/many.py:2:5: ARC201 'Unknown0ForCausalLM' in MANY_ARCHS is not a registered architecture"
    assert HEALTHY in result.lines, result


# -- unreadable files and directories ----------------------------------------------------------

_NO_DAC = ("setpriv", "--inh-caps=-dac_override,-dac_read_search",
           "--bounding-set=-dac_override,-dac_read_search", "--")


def _unprivileged_prefix(probe: Path) -> Tuple[str, ...]:
    """A command prefix under which chmod 000 really stops reads, or skip.

    As root, permission bits do not stop reads (CAP_DAC_OVERRIDE). `setpriv` can drop that
    capability for the child while it stays uid 0, so the interpreter under /root stays usable.
    """
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and setpriv is unavailable: chmod 000 does not stop root from reading")
    probe.write_text("secret")
    probe.chmod(0)
    try:
        check = subprocess.run([*_NO_DAC, "cat", str(probe)], capture_output=True)
    finally:
        probe.chmod(0o644)
        probe.unlink()
    if check.returncode == 0:
        pytest.skip("running as root and dropping CAP_DAC_OVERRIDE did not stop reads")
    return _NO_DAC


def test_unreadable_file_is_arc902(project, tmp_path):
    prefix = _unprivileged_prefix(tmp_path / "probe")
    secret = project / "pkg" / "secret.py"
    secret.write_text('SECRET_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    secret.chmod(0)
    try:
        expected = ["pkg/secret.py:1:1: ARC902 file not analysed: cannot read: Permission denied", HEALTHY]
        for args in (("check",), ("check", "--no-cache"), ("check",)):
            assert_check(archsync(*args, cwd=project, prefix=prefix), expected)
        # flake8 cannot read it either and reports E902 itself; the plugin still reports the rest.
        result = flake8(".", cwd=project, select="ARC,E902", prefix=prefix)
        lines = flake8_lines(result)
        assert [line for line in lines if " ARC" in line] == [HEALTHY], result
        assert [line.split(":")[0] for line in lines if " E902 " in line] == ["pkg/secret.py"], result
    finally:
        secret.chmod(0o644)


def test_unreadable_directory_is_skipped(project, tmp_path):
    prefix = _unprivileged_prefix(tmp_path / "probe")
    closed = project / "pkg" / "closed"
    closed.mkdir()
    (closed / "hidden.py").write_text('HIDDEN_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    closed.chmod(0)
    try:
        for args in (("check",), ("check", "--no-cache")):
            assert_check(archsync(*args, cwd=project, prefix=prefix), [HEALTHY])
    finally:
        closed.chmod(0o755)


# -- symlinks ----------------------------------------------------------------------------------

def test_symlink_loops_and_dangling_links_do_not_hang(project):
    pkg = project / "pkg"
    os.symlink(".", pkg / "self_loop")  # directory loop
    os.symlink("..", pkg / "up")  # back to the root
    os.symlink("a.py", pkg / "b.py")  # file loop
    os.symlink("b.py", pkg / "a.py")
    os.symlink("c.py", pkg / "c.py")  # points at itself
    os.symlink("/nonexistent/nowhere.py", pkg / "dangling.py")
    nested = pkg / "deep"
    nested.mkdir()
    os.symlink("../../pkg", nested / "again")
    for args in (("check",), ("check", "--no-cache")):
        assert_check(archsync(*args, cwd=project, timeout=60), [HEALTHY])
    result = flake8(".", cwd=project, timeout=60)
    assert flake8_lines(result) == [HEALTHY] and result.returncode == EXIT_FINDINGS, result


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "out.py").write_text('OUT_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    return outside


def _listing(directory: Path) -> List[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


def test_directory_symlink_out_of_the_tree_is_not_followed(project, tmp_path):
    outside = _outside(tmp_path)
    before = _listing(outside)
    os.symlink(outside, project / "pkg" / "linked_dir")
    for args in (("check",), ("check", "--no-cache")):
        assert_check(archsync(*args, cwd=project), [HEALTHY])
    result = flake8(".", cwd=project)
    assert flake8_lines(result) == [HEALTHY], result
    assert _listing(outside) == before, "something was written outside the project"


def test_file_symlink_out_of_the_tree_is_not_followed(project, tmp_path):
    """`pkg/ext.py -> ../outside/out.py`: the outside file is neither analysed nor written near."""
    outside = _outside(tmp_path)
    before = _listing(outside)
    os.symlink(outside / "out.py", project / "pkg" / "ext.py")
    for args in (("check",), ("check", "--no-cache")):
        assert_check(archsync(*args, cwd=project), [HEALTHY])
    assert _listing(outside) == before, "archsync wrote outside the project"
    result = flake8(".", cwd=project)
    assert flake8_lines(result) == [HEALTHY] and result.returncode == EXIT_FINDINGS, result
    assert _listing(outside) == before, "the flake8 plugin indexed the link's target directory and wrote there"


# -- special files and odd names ----------------------------------------------------------------

def test_fifo_and_device_files_do_not_hang(project):
    """A named pipe called `*.py`, a `*.py` link to /dev/zero, and the same for pyproject.toml's
    neighbours: never opened (reading either would block or never end). flake8 itself blocks on a
    FIFO it discovers, so only `archsync` is run here."""
    os.mkfifo(project / "pkg" / "fifo.py")
    os.symlink("/dev/zero", project / "pkg" / "zero.py")
    os.symlink("/dev/urandom", project / "pkg" / "random.py")
    for args in (("check",), ("check", "--no-cache"), ("check",)):
        assert_check(archsync(*args, cwd=project, timeout=60), [HEALTHY])


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_pyproject_that_is_not_a_regular_file_does_not_hang(project, kind):
    """Not a configuration file: the defaults apply (the same result as an empty [tool.archsync])."""
    pyproject = project / "pyproject.toml"
    pyproject.unlink()
    {"fifo": lambda: os.mkfifo(pyproject), "dev-zero": lambda: os.symlink("/dev/zero", pyproject),
     "directory": lambda: pyproject.mkdir()}[kind]()
    assert_check(archsync("check", "--no-cache", cwd=project, timeout=60), [HEALTHY])


def test_file_name_that_is_not_utf8(project):
    """A file whose name is not UTF-8 (bytes 0xff): reported without a crash, even when the
    output encoding is strict UTF-8 (PYTHONIOENCODING=utf-8, common in CI)."""
    name = os.fsencode(project / "pkg") + b"/bad\xff.py"
    with open(name, "wb") as handle:
        handle.write(b'BAD_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    for env in ({}, {"PYTHONIOENCODING": "utf-8"}):
        for fmt in ("text", "json", "github", "sarif"):
            result = archsync("check", "--format", fmt, cwd=project, env=env)
            assert result.returncode == EXIT_FINDINGS, result
            assert "X_ARCHS" in result.stdout and "BAD_ARCHS" in result.stdout, result


def test_non_ascii_output_on_an_ascii_terminal(project):
    """Names and paths beyond ASCII printed where stdout is ASCII-only: escaped, never a crash."""
    (project / "pkg" / "caf\u00e9.py").write_text(
        'CAFE_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Caf\u00e9ForCausalLM"})\n')
    for fmt in ("text", "json", "github"):
        result = archsync("check", "--format", fmt, cwd=project, env={"PYTHONIOENCODING": "ascii"})
        assert result.returncode == EXIT_FINDINGS, result
        assert "X_ARCHS" in result.stdout and "CAFE_ARCHS" in result.stdout, result


# -- deep nesting -------------------------------------------------------------------------------

def _names_read(count: int) -> str:
    return "1 name read still takes part" if count == 1 else f"{count} names read still take part"


def _deep_cases() -> Dict[str, Tuple[str, Tuple[str, ...]]]:
    parens = "D_ARCHS = " + "(" * 100_000 + '"Qwen3_5ForConditionalGeneration"' + ")" * 100_000 + "\n"
    plus_lists = "D_ARCHS = " + "+".join(['["Qwen3_5ForConditionalGeneration"]'] * 50_000) + "\n"
    plus_names = "D_ARCHS = " + "a+" * 50_000 + "a\n"
    union = "D_ARCHS = " + " | ".join(['{"Qwen3_5ForConditionalGeneration"}'] * 1000) + "\n"
    calls = "D_ARCHS = " + "frozenset(" * 150 + '{"Qwen3_5ForConditionalGeneration"}' + ")" * 150 + "\n"
    elifs = ('ELIF_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\nif x == 0:\n    pass\n'
             + "".join(f"elif x == {i}:\n    pass\n" for i in range(1, 20_000)))
    or_chain = ("def is_qwen3_5_deep(config):\n    a = config.architectures[0]\n    return "
                + " or ".join(['a == "Qwen3_5ForCausalLM"'] * 20_000) + "\n")

    def arc902(text: str) -> Tuple[str, ...]:
        return f"pkg/deep.py:1:1: ARC902 file not analysed: {parse_reason(text.encode())}", HEALTHY

    partly = lambda names: (  # noqa: E731
        arc101("pkg/deep.py", 1, "D_ARCHS"),
        f"pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression nested too deeply (pkg/deep.py:1) "
        f"({_names_read(names)})",
        HEALTHY,
    )
    return {
        "100k-nested-parens": (parens, arc902(parens)),
        "50k-list-plus": (plus_lists, arc902(plus_lists)),
        "50k-a-plus-a": (plus_names, arc902(plus_names)),
        "20k-elif-chain": (elifs, arc902(elifs)),
        "1000-term-union": (union, partly(1)),
        "150-nested-calls": (calls, (f"pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression "
                                     f"nested too deeply (pkg/deep.py:1) ({_names_read(0)})", HEALTHY)),
        "20k-term-or-predicate": (or_chain, (HEALTHY,)),
    }


DEEP_CASES = ("100k-nested-parens", "50k-list-plus", "50k-a-plus-a", "20k-elif-chain", "1000-term-union",
              "150-nested-calls", "20k-term-or-predicate")


@pytest.mark.parametrize("name", DEEP_CASES)
def test_deeply_nested_code(project, name):
    text, expected = _deep_cases()[name]
    (project / "pkg" / "deep.py").write_text(text)
    for args in (("check",), ("check", "--no-cache")):
        assert_check(archsync(*args, cwd=project, timeout=120), expected)
    # flake8 parses every file itself before calling plugins; on a 50k-deep `a+a` chain its own
    # ast.parse raises RecursionError (an upstream flake8 limitation). Whatever flake8 does, no
    # frame of ours may be in a traceback.
    # (pyflakes, run by flake8 whatever --select says, also gives up on a 1000-term union.)
    result = flake8(".", cwd=project, timeout=120, traceback_ok=True)
    assert "lint_plugin" not in result.stderr, result
    failures = [line for line in result.lines if "failed during execution" in line]
    assert not any("ARC" in line or "archsync" in line for line in failures), result
    if "Traceback" not in result.stderr and not failures:
        assert flake8_lines(result) == _order([line for line in expected if "ARC902" not in line]), result


def test_long_reference_chain_does_not_crash(project):
    """2,000 collections each built from the next: resolved (or reported), never a RecursionError."""
    n = 2000
    text = "".join(f'C{i}_ARCHS = C{i + 1}_ARCHS | {{"Qwen3_5ForConditionalGeneration"}}\n' for i in range(n))
    text += f'C{n}_ARCHS = frozenset({{"Qwen3_5ForConditionalGeneration"}})\n'
    (project / "pkg" / "chain.py").write_text(text)
    result = archsync("check", "--no-cache", cwd=project)
    assert result.returncode == EXIT_FINDINGS, result
    assert HEALTHY in result.lines, result
    assert arc101("pkg/chain.py", n + 1, f"C{n}_ARCHS") in result.lines, result


def test_long_delegation_chain_does_not_crash(project):
    """2,000 predicates each delegating to the next, the last to is_qwen3_5: no RecursionError."""
    n = 2000
    text = "from pkg.config import is_qwen3_5\n\n"
    text += "".join(f"def is_qwen3_5_{i}(c):\n    return is_qwen3_5_{i + 1}(c)\n\n" for i in range(n))
    text += f"def is_qwen3_5_{n}(c):\n    return is_qwen3_5(c)\n"
    (project / "pkg" / "chain.py").write_text(text)
    result = archsync("check", "--no-cache", cwd=project)
    assert result.returncode == EXIT_FINDINGS, result
    assert HEALTHY.split(" ARC101 ")[0] in result.stdout, result


def test_star_import_of_an_empty_collection(project):
    """`from m import *` where the name is an empty collection: resolved to nothing, no IndexError."""
    (project / "pkg" / "stara.py").write_text("EMPTY = set()\n")
    (project / "pkg" / "starb.py").write_text(
        'from pkg.stara import *\n\nS_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"}) | EMPTY\n')
    expected = [HEALTHY, arc101("pkg/starb.py", 3, "S_ARCHS")]
    assert_check(archsync("check", "--no-cache", cwd=project), expected)


def test_warnings_from_parsing_analysed_code_never_leak(project):
    """An invalid escape in analysed code: the parser's warning is not ours to print, nor to obey.

    Python 3.12 prints SyntaxWarning by default (3.11: DeprecationWarning under -W default); with
    -W error the warning must not turn a file that parses into ARC902 either.
    """
    (project / "pkg" / "escapes.py").write_text(
        'import re\n\nESC_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\nPATTERN = re.compile("\\d+")\n')
    expected = [arc101("pkg/escapes.py", 3, "ESC_ARCHS"), HEALTHY]
    for warnings in ("default", "error"):
        assert_check(archsync("check", "--no-cache", cwd=project, env={"PYTHONWARNINGS": warnings}), expected)


# -- configuration errors: exactly one `archsync: error:` line naming the key, exit 2 --------------

CONFIG_ERRORS = {
    # name: (pyproject text after [project], what the one error line must name)
    "invalid-toml": ("[tool.archsync\nsrc = [\".\"]\n", "invalid TOML"),
    "duplicate-key-toml": ('[tool.archsync]\nguard = ["*_ARCHS"]\nguard = ["*_LIST"]\n', "invalid TOML"),
    "unknown-key": ('[tool.archsync]\ncolour = "red"\n', "tool.archsync.colour"),
    "archsync-not-a-table": ("[tool]\narchsync = 3\n", "tool.archsync"),
    "src-type": ('[tool.archsync]\nsrc = "."\n', "tool.archsync.src"),
    "exclude-type": ("[tool.archsync]\nexclude = [1]\n", "tool.archsync.exclude"),
    "guard-type": ('[tool.archsync]\nguard = "X_ARCHS"\n', "tool.archsync.guard"),
    "families-type": ("[tool.archsync]\nfamilies = 3\n", "tool.archsync.families"),
    "registries-type": ("[tool.archsync]\nregistries = {a = 1}\n", "tool.archsync.registries"),
    "extends-type": ('[tool.archsync]\nextends = "sglang"\n', "tool.archsync.extends"),
    "name-pattern-type": ("[tool.archsync]\nname-pattern = 5\n", "tool.archsync.name-pattern"),
    "name-pattern-empty": ('[tool.archsync]\nname-pattern = ""\n', "tool.archsync.name-pattern"),
    "cache-dir-type": ('[tool.archsync]\ncache-dir = ["x"]\n', "tool.archsync.cache-dir"),
    "siblings-type": ('[tool.archsync]\nsiblings = [["ForCausalLM"]]\n', "tool.archsync.siblings"),
    "mirror-type": ('[tool.archsync]\nmirror = "X_ARCHS"\n', "tool.archsync.mirror"),
    "subset-type": ("[tool.archsync]\nsubset = 1\n", "tool.archsync.subset"),
    "exempt-type": ("[tool.archsync]\nexempt = [1]\n", "tool.archsync.exempt"),
    "bad-regex": ('[tool.archsync]\nname-pattern = "[A-Z"\n', "tool.archsync.name-pattern"),
    "exemption-without-reason": (
        '[[tool.archsync.exempt]]\nsubject = "X_ARCHS"\nmembers = ["Qwen3_5ForCausalLM"]\n',
        "tool.archsync.exempt[0].reason"),
    "exemption-blank-reason": (
        '[[tool.archsync.exempt]]\nsubject = "X_ARCHS"\nmembers = ["Qwen3_5ForCausalLM"]\nreason = "  "\n',
        "tool.archsync.exempt[0].reason"),
    "exemption-members-type": (
        '[[tool.archsync.exempt]]\nsubject = "X_ARCHS"\nmembers = "Qwen3_5ForCausalLM"\nreason = "r"\n',
        "tool.archsync.exempt[0].members"),
    "exemption-bad-code": (
        '[[tool.archsync.exempt]]\nsubject = "X_ARCHS"\nmembers = ["Q"]\ncodes = ["E501"]\nreason = "r"\n',
        "tool.archsync.exempt[0].codes"),
    "exemption-unknown-key": (
        '[[tool.archsync.exempt]]\nsubject = "X_ARCHS"\nmembers = ["Q"]\nreason = "r"\nwhy = "x"\n',
        "tool.archsync.exempt[0].why"),
    "unknown-pack": ('[tool.archsync]\nextends = ["nosuchpack"]\n', "tool.archsync.extends"),
    "pack-path-traversal": ('[tool.archsync]\nextends = ["../../etc/passwd"]\n', "tool.archsync.extends"),
    "mirror-with-one-collection": (
        '[[tool.archsync.mirror]]\ncollections = ["X_ARCHS"]\n', "tool.archsync.mirror[0].collections"),
    "mirror-without-collections": ("[[tool.archsync.mirror]]\nfamilies = []\n", "tool.archsync.mirror[0]"),
    "mirror-names-missing-collection": (
        '[[tool.archsync.mirror]]\ncollections = ["X_ARCHS", "NOPE_ARCHS"]\n', "tool.archsync.mirror[0]"),
    "subset-names-missing-collection": (
        '[[tool.archsync.subset]]\nof = "X_ARCHS"\nin = "NOPE_ARCHS"\n', "tool.archsync.subset[0]"),
    "subset-type-of-in": ('[[tool.archsync.subset]]\nof = 1\nin = "registered"\n', "tool.archsync.subset[0].of"),
}


@pytest.mark.parametrize("name", sorted(CONFIG_ERRORS))
def test_configuration_error(project, name):
    body, key = CONFIG_ERRORS[name]
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[project]\nname = "demo"\n\n' + body)
    for args in (("check",), ("check", "--format", "json"), ("check", "--no-cache"), ("show",)):
        result = archsync(*args, cwd=project)
        assert result.returncode == EXIT_ERROR, result
        assert result.stdout == "", result
        assert len(result.err_lines) == 1, result
        message = result.err_lines[0]
        assert message.startswith("archsync: error: "), result
        assert str(pyproject.resolve()) in message, result
        assert key in message, f"the error does not name {key!r}: {message}"
    # flake8 reports it once, as ARC900, on one file, and nothing else from us.
    result = flake8(".", cwd=project)
    lines = flake8_lines(result)
    assert len(lines) == 1 and ": ARC900 archsync configuration error: " in lines[0], result
    assert key in lines[0], result
    assert result.returncode == EXIT_FINDINGS, result


def test_unreadable_pyproject_encoding_is_a_configuration_error(project):
    pyproject = project / "pyproject.toml"
    pyproject.write_bytes(b'[project]\nname = "d\xe9mo"\n\n[tool.archsync]\nguard = ["*_ARCHS"]\n')
    result = archsync("check", cwd=project)
    assert result.returncode == EXIT_ERROR and result.stdout == "", result
    assert len(result.err_lines) == 1 and result.err_lines[0].startswith("archsync: error: "), result
    assert str(pyproject.resolve()) in result.err_lines[0], result
