"""Wrong results, crashes and unescaped output an adversarial trial found (issue 17), each reproduced.

Every test runs the real `archsync` (or `flake8`) on a small tree written here; the data-loss and
write-outside items are in test_write_safety.py.
"""
from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    RACE_SECONDS,
    REPO,
    archsync,
    archsync_process,
    as_nobody,
    flake8,
    places,
    sigint_default,
    write,
)

ARCHSYNC = Path(sys.executable).with_name("archsync")
MODELS = ("class Qwen3_5ForCausalLM:\n    pass\n\n\nclass Qwen3_5ForConditionalGeneration:\n    pass\n\n\n"
          "EntryClass = [Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration]\n")
FAMILY = ('def is_qwen3_5(config):\n    return config.architectures[0] in ("Qwen3_5ForCausalLM", '
          '"Qwen3_5ForConditionalGeneration")\n')


def project(tmp_path: Path, config: str = "", **files: str) -> Path:
    root = tmp_path / "proj"
    write(root / "pyproject.toml", '[project]\nname = "adversarial"\n' + (f"\n[tool.archsync]\n{config}\n"
                                                                          if config else ""))
    write(root / "pkg/__init__.py", "")
    write(root / "pkg/models.py", MODELS)
    write(root / "pkg/family.py", FAMILY)
    for rel, text in files.items():  # pkg__lists="..." is pkg/lists.py
        write(root / (rel.replace("__", "/") + ".py"), text)
    return root


def no_traceback(result) -> None:
    assert "Traceback" not in result.stderr, result


# -- wrong results --------------------------------------------------------------------------------

def test_two_modules_defining_one_name_are_two_problems_and_one_fix_run_fixes_both(tmp_path):
    root = project(tmp_path, pkg__a="_LIMIT_ARCHS = {\"Qwen3_5ForConditionalGeneration\"}\n",
                   pkg__b="_LIMIT_ARCHS = {\"Qwen3_5ForConditionalGeneration\"}\n")
    result = archsync("check", "--no-cache", cwd=root)
    assert result.lines == [
        "pkg/a.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/family.py:1) but missing "
        "from _LIMIT_ARCHS",
        "pkg/b.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/family.py:1) but missing "
        "from _LIMIT_ARCHS",
    ], result
    fixed = archsync("fix", "--no-cache", cwd=root)
    assert fixed.returncode == EXIT_CLEAN and fixed.err_lines == ["archsync: fixed 2 problems in 2 files; "
                                                                  "0 remaining"], fixed


def _python312() -> str:
    found = shutil.which("python3.12")
    candidates = [found] if found else []
    candidates += sorted(str(p) for p in Path.home().glob(".pyenv/versions/3.12*/bin/python3.12"))
    for candidate in candidates:
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    pytest.skip("no Python 3.12 on this machine")


@pytest.mark.e2e
def test_the_cache_of_one_python_does_not_decide_for_another(tmp_path):
    """A file valid on 3.12 (a `type` statement) and a SyntaxError on 3.11: each reports what it parses."""
    root = project(tmp_path, pkg__lists="type Arch = str\n\n_X_ARCHS = {\"Qwen3_5ForConditionalGeneration\"}\n")
    python312 = _python312()
    run312 = [python312, "-c", "import sys; from lint_plugin.frontends.cli import main; sys.exit(main())", "check"]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    cold312 = subprocess.run(run312 + ["--no-cache"], cwd=root, env=env, capture_output=True, text=True)
    assert "ARC101" in cold312.stdout, cold312
    archsync("check", cwd=root)  # this interpreter writes its cache (the file does not parse here)
    warm312 = subprocess.run(run312, cwd=root, env=env, capture_output=True, text=True)
    assert warm312.stdout == cold312.stdout, warm312


def test_a_name_pattern_with_a_dot_gives_the_same_result_whatever_the_layout(tmp_path):
    config = 'name-pattern = "Qwen.*"'
    one_line = project(tmp_path / "a", config, pkg__lists='_X_ARCHS = {"Qwen3_5ForConditionalGeneration", "x"}\n')
    two_lines = project(tmp_path / "b", config,
                        pkg__lists='_X_ARCHS = {\n    "Qwen3_5ForConditionalGeneration",\n    "x",\n}\n')
    first = archsync("check", "--no-cache", cwd=one_line)
    second = archsync("check", "--no-cache", cwd=two_lines)
    assert [line.split(":", 3)[3] for line in first.lines] == [line.split(":", 3)[3] for line in second.lines]
    assert any("ARC101 'Qwen3_5ForCausalLM'" in line for line in first.lines), first


# -- crashes --------------------------------------------------------------------------------------

@pytest.mark.parametrize("pattern", [r"(?i)qwen\\w+", r"(Q)wen\\w*\\1?", r"\\N{LATIN CAPITAL LETTER Q}wen\\w+",
                                     r"\\u0051wen\\w+"])
def test_name_patterns_a_byte_expression_cannot_take_still_work(tmp_path, pattern):
    root = project(tmp_path, f'name-pattern = "{pattern}"',
                   pkg__lists='_X_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n')
    for result in (archsync("check", "--no-cache", cwd=root), flake8(".", cwd=root)):
        no_traceback(result)
        assert result.returncode == EXIT_FINDINGS, result
        assert any("ARC101 'Qwen3_5ForCausalLM'" in line for line in result.lines), result


@pytest.mark.parametrize("text, message", [
    ("x = " + "[" * 1000 + "]" * 1000 + "\n", "invalid TOML: nested too deeply to read"),
    ("x = " + "9" * 4301 + "\n", "invalid TOML: an integer longer than 4300 digits"),
])
def test_pyproject_the_toml_reader_cannot_take_is_a_configuration_error(tmp_path, text, message):
    root = project(tmp_path)
    (root / "pyproject.toml").write_text('[project]\nname = "x"\n' + text + '[tool.archsync]\n')
    result = archsync("check", cwd=root)
    no_traceback(result)
    assert result.returncode == EXIT_ERROR, result
    assert result.err_lines[0].startswith(f"archsync: error: {root / 'pyproject.toml'}: "), result
    assert result.err_lines[0].endswith(message), result


def test_one_key_written_two_ways_is_a_configuration_error(tmp_path):
    root = project(tmp_path, 'name-pattern = "[A-Z]\\\\w+"\nname_pattern = "Qwen\\\\w+"')
    result = archsync("check", cwd=root)
    assert result.returncode == EXIT_ERROR, result
    assert result.err_lines == [f"archsync: error: {root / 'pyproject.toml'}: tool.archsync.name_pattern: given "
                                "twice, as 'name-pattern' and 'name_pattern'; keep one"], result


def test_a_file_in_the_idna_encoding_is_reported_and_left_alone(tmp_path):
    source = '# -*- coding: idna -*-\n_X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
    root = project(tmp_path, pkg__lists=source)
    refused = "its encoding (idna) cannot write the file back as it was, so archsync will not edit it"
    as_json = archsync("check", "--no-cache", "--format", "json", cwd=root)
    no_traceback(as_json)
    assert json.loads(as_json.stdout)["diagnostics"][0]["fix"]["refused"] == refused
    fixed = archsync("fix", "--no-cache", cwd=root)
    no_traceback(fixed)
    assert f"archsync: not fixed: pkg/lists.py:2:1: ARC101 'Qwen3_5ForCausalLM': {refused}" in fixed.err_lines
    assert (root / "pkg/lists.py").read_text(encoding="utf-8") == source
    shown = flake8(".", "--archsync-show-fixes", cwd=root)
    no_traceback(shown)
    assert shown.lines[0].endswith(f"[no automatic fix: {refused}]"), shown


@pytest.mark.e2e
def test_a_path_in_a_directory_one_may_not_read_is_an_error_not_a_traceback(tmp_path):
    nobody = as_nobody()
    locked = tmp_path / "locked"
    write(locked / "f.py", '_X_ARCHS = ["A"]\n')
    locked.chmod(0o700)
    tmp_path.chmod(0o755)
    for args, stdin in (([locked / "f.py"], None), (["--stdin-filename", locked / "f.py", "-"], "x\n")):
        result = archsync_process("check", *args, cwd="/", prefix=nobody, input=stdin)
        assert (result.returncode, result.stderr) == (EXIT_ERROR, f"archsync: error: {locked / 'f.py'}: "
                                                                  "Permission denied\n"), result


def test_stdin_filename_that_is_a_directory_is_an_error(tmp_path):
    root = project(tmp_path)
    result = archsync("check", "--stdin-filename", "pkg", "-", cwd=root, input="x = 1\n")
    assert (result.returncode, result.err_lines) == (EXIT_ERROR, ["archsync: error: --stdin-filename pkg is a "
                                                                  "directory"]), result


# -- output escaped for its medium ----------------------------------------------------------------

HOSTILE = ('_X_ARCHS = [\n    "Qwen3_5ForConditionalGeneration",\n    "Qwen3_5ForCausalLM",\n'
           '    "Evil\\x1b[2JArch",\n    "Forged\\npkg/x.py:1:1: ARC101 fake",\n    "Lone\\ud800Arch",\n'
           '    "Qwen3_5For\\u0421ausalLM",\n]\n')


def test_text_output_escapes_what_the_tree_holds(tmp_path):
    root = project(tmp_path, 'name-pattern = "[A-Z][^\\"\']*"', pkg__lists=HOSTILE)
    write(root / "pkg/new\nline.py", '_N_ARCHS = ["Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"]\n'
                                      '_M_ARCHS = ["Qwen3_5ForConditionalGeneration"]\n')
    result = archsync("check", "--no-cache", cwd=root)
    no_traceback(result)
    assert "\x1b" not in result.stdout and "\ud800" not in result.stdout, result
    assert result.lines == [
        "pkg/lists.py:4:5: ARC201 'Evil\\x1b[2JArch' in _X_ARCHS is not a registered architecture",
        "pkg/lists.py:5:5: ARC201 'Forged\\x0apkg/x.py:1:1: ARC101 fake' in _X_ARCHS is not a registered "
        "architecture",
        "pkg/lists.py:6:5: ARC201 'Lone\\ud800Arch' in _X_ARCHS is not a registered architecture",
        "pkg/lists.py:7:5: ARC201 'Qwen3_5For\\u0421ausalLM' in _X_ARCHS is not a registered architecture; "
        "did you mean 'Qwen3_5ForCausalLM'?",
        # a file name holding a newline stays on its line
        "pkg/new\\x0aline.py:2:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/family.py:1) but "
        "missing from _M_ARCHS",
    ], result


def test_flake8_json_and_sarif_carry_what_the_tree_holds_without_breaking(tmp_path):
    root = project(tmp_path, 'name-pattern = "[A-Z][^\\"\']*"', pkg__lists=HOSTILE)
    write(root / "pkg/h#sh.py", '_Y_ARCHS = ["Qwen3_5ForConditionalGeneration"]\n')
    linted = flake8(".", cwd=root)
    no_traceback(linted)
    assert len([line for line in linted.lines if "ARC201" in line]) == 4 and "\x1b" not in linted.stdout, linted
    document = archsync("check", "--no-cache", "--format", "json", cwd=root)
    members = [d["member"] for d in json.loads(document.stdout)["diagnostics"] if d["code"] == "ARC201"]
    assert members == ["Evil\x1b[2JArch", "Forged\npkg/x.py:1:1: ARC101 fake", "Lone\\ud800Arch",
                       "Qwen3_5For\u0421ausalLM"], members  # exact data; only the lone surrogate is spelt out
    document.stdout.encode("utf-8")
    sarif = json.loads(archsync("check", "--no-cache", "--format", "sarif", cwd=root).stdout)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert "pkg/h%23sh.py" in uris and "pkg/h#sh.py" not in uris, uris



def test_a_name_rebound_in_terms_of_itself_is_read_as_python_evaluates_it(tmp_path):
    lists = ('_A_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n_A_ARCHS = frozenset(_A_ARCHS)\n\n'
             '_B_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n_B_ARCHS = _B_ARCHS | {"Qwen3_5ForCausalLM"}\n')
    root = project(tmp_path, pkg__lists=lists)
    result = archsync("check", "--no-cache", cwd=root)
    # _A_ARCHS lacks the text model (reported at the literal to edit); _B_ARCHS holds both: nothing to say
    assert result.lines == ["pkg/lists.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() "
                            "(pkg/family.py:1) but missing from _A_ARCHS"], result
    assert archsync("fix", "--no-cache", cwd=root).returncode == EXIT_CLEAN
    assert (root / "pkg/lists.py").read_text().splitlines()[0] == \
        '_A_ARCHS = {"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"}'


def test_fix_path_edits_only_files_under_path(tmp_path):
    root = project(tmp_path, pkg__a__x='_X_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n',
                   pkg__b__y='_Y_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n')
    before = (root / "pkg/b/y.py").read_bytes()
    result = archsync("fix", "--no-cache", "pkg/a/x.py", cwd=root)
    assert result.err_lines == ["archsync: fixed 1 problem in 1 file; 0 remaining"], result
    assert (root / "pkg/b/y.py").read_bytes() == before
    assert [line.split(": ")[0] for line in archsync("check", "--no-cache", cwd=root).lines] == ["pkg/b/y.py:1:1"]


def test_an_unsaved_buffer_of_a_new_file_gets_its_diagnostics(tmp_path):
    root = project(tmp_path)
    text = '_N_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n'
    unsaved = archsync("check", "--stdin-filename", "pkg/new.py", "-", cwd=root, input=text)
    write(root / "pkg/new.py", text)
    saved = archsync("check", "pkg/new.py", cwd=root)
    assert unsaved.lines == saved.lines == ["pkg/new.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by "
                                            "is_qwen3_5() (pkg/family.py:1) but missing from _N_ARCHS"], unsaved


def _slow_project(tmp_path: Path) -> Path:
    """1,500 model files: a cold run long enough (a second or more) to be interrupted in its middle."""
    root = project(tmp_path)
    for i in range(1500):
        write(root / f"pkg/gen/m{i}.py", f"class M{i}ForCausalLM:\n    pass\n\n\nEntryClass = [M{i}ForCausalLM]\n"
                                         f'_L{i}_ARCHS = {{"M{i}ForCausalLM", "M{i + 1}ForCausalLM"}}\n')
    return root


# A traceback frame of our own entry point: once `console` runs, Ctrl-C is ours to handle quietly. Frames named
# `main` elsewhere (the interpreter's `site.main` while it starts) do not count.
OUR_ENTRY_FRAME = rb'lint_plugin[/\\]frontends[/\\]cli\.py", line \d+, in (console|main)\n'


@pytest.mark.skipif(os.name != "posix", reason="process groups and SIGINT")
@pytest.mark.e2e
def test_ctrl_c_at_any_moment_of_a_cold_run_stops_it_quietly(tmp_path):
    """Ctrl-C reaches the whole process group (workers included): no traceback, no hang, and the process
    ends killed by SIGINT (what a shell needs to stop a loop; it reports 130), or finished first (1)."""
    root = _slow_project(tmp_path)
    rng = random.Random(130)
    deadline = time.monotonic() + RACE_SECONDS
    interrupted = 0
    while time.monotonic() < deadline:
        run = subprocess.Popen([str(ARCHSYNC), "check", "--no-cache"], cwd=root, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, start_new_session=True, preexec_fn=sigint_default)
        time.sleep(rng.uniform(0.05, 1.2))
        try:
            os.killpg(run.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
        try:
            _, err = run.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
            pytest.fail("archsync hung after Ctrl-C")
        if err.rstrip().endswith(b"KeyboardInterrupt") and not re.search(OUR_ENTRY_FRAME, err):
            continue  # it came while the interpreter started (site, imports), before our `console` ran
        assert b"Traceback" not in err, err.decode()
        assert run.returncode in (-signal.SIGINT, EXIT_FINDINGS), (run.returncode, err.decode())
        interrupted += run.returncode == -signal.SIGINT
    assert interrupted >= 1, "no run was interrupted"


@pytest.mark.skipif(os.name != "posix" or not shutil.which("bash"), reason="a POSIX shell and SIGINT")
@pytest.mark.e2e
def test_ctrl_c_stops_the_shell_script_that_runs_archsync(tmp_path):
    """A shell goes on after a command that exits 130 and stops only after one that died of SIGINT."""
    root = _slow_project(tmp_path)
    script = f"{shlex.quote(str(ARCHSYNC))} check --no-cache; echo went on"
    rng = random.Random(2)
    for _ in range(40):
        shell = subprocess.Popen(["bash", "-c", script], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 start_new_session=True, preexec_fn=sigint_default)
        time.sleep(rng.uniform(0.1, 0.5))  # a cold run of this tree takes 0.3 s or more
        os.killpg(shell.pid, signal.SIGINT)
        out, err = shell.communicate(timeout=30)
        if b"problem" in err or (err.rstrip().endswith(b"KeyboardInterrupt")
                                 and not re.search(OUR_ENTRY_FRAME, err)):
            continue  # archsync had finished, or had not started its code: nothing of ours was interrupted
        assert (shell.returncode, out, err) == (-signal.SIGINT, b"", b""), (shell.returncode, out, err)
        return
    pytest.fail("no run was interrupted")


def test_collections_defined_in_terms_of_each_other_are_partly_analysed_not_wrong(tmp_path):
    root = project(tmp_path, pkg__ma='from pkg.mb import _MB_ARCHS\n_MA_ARCHS = _MB_ARCHS | '
                                     '{"Qwen3_5ForConditionalGeneration"}\n',
                   pkg__mb='from pkg.ma import _MA_ARCHS\n_MB_ARCHS = _MA_ARCHS | {"Qwen3_5ForCausalLM"}\n')
    result = archsync("check", "--no-cache", cwd=root)
    assert result.lines == [
        "pkg/ma.py:2:1: ARC901 _MA_ARCHS is only partly analysed: `_MA_ARCHS` refers to itself (pkg.ma) "
        "(2 names read still take part)",
        "pkg/mb.py:2:1: ARC901 _MB_ARCHS is only partly analysed: `_MA_ARCHS` refers to itself (pkg.ma) "
        "(2 names read still take part)",
    ], result


# -- configuration values fuzzed: every one gives a result or a clear error, never a traceback --------

_HOSTILE_VALUES = ['"."', '".."', '"../x"', '"/abs"', '"a\\u0000b"', '"x/../../y"', '"é/ü"', '""', "1", "true",
                   "[" * 40 + "]" * 40, "9" * 5000, '"(?i)x"', '"(a)\\\\1"', '"[unclosed"', '"\\\\N{BULLET}"',
                   '"*"', '"**/*"', '["ok", 1]', '{a = 1}', '"\\u202eevil"', '"Qwen.*"', '"a\\nb"']
_KEYS = ["src", "exclude", "guard", "families", "registries", "name-pattern", "cache-dir", "kinship", "siblings",
         "extends", "config-maps", "universe-from", "name_pattern"]


def test_fuzzed_configuration_values_never_crash(tmp_path):
    rng = random.Random(int(os.environ.get("ARCHSYNC_FUZZ_SEED", "17")))
    root = project(tmp_path, pkg__lists='_X_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n')
    cases = int(os.environ.get("ARCHSYNC_CONFIG_FUZZ", "30"))
    outcomes = set()
    for _ in range(cases):
        values = [rng.choice(_HOSTILE_VALUES) for _ in range(3)]
        body = "\n".join(f"{key} = {value if rng.random() < 0.5 else '[' + value + ']'}"
                         for key, value in zip(rng.sample(_KEYS, rng.randint(1, 3)), values))
        (root / "pyproject.toml").write_text('[project]\nname = "fuzz"\n\n[tool.archsync]\n' + body + "\n",
                                             encoding="utf-8")
        result = archsync("check", cwd=root)  # the harness fails on any traceback
        assert result.returncode in (EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR), (body, result)
        if result.returncode == EXIT_ERROR:
            assert result.err_lines and result.err_lines[-1].startswith("archsync: error: "), (body, result)
        outcomes.add(result.returncode)
        assert not (root.parent / "x").exists() and not Path("/abs").exists(), body
    assert EXIT_ERROR in outcomes


def test_flake8_on_an_unsaved_latin1_buffer_reports_what_it_reports_on_the_file(tmp_path):
    source = ('# -*- coding: latin-1 -*-\n# Réglages\n_L_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})  # é\n'
              .encode("latin-1"))
    root = project(tmp_path)
    (root / "pkg/legacy.py").write_bytes(source)
    on_disk = flake8("pkg/legacy.py", cwd=root)
    from_stdin = flake8("--stdin-display-name", "pkg/legacy.py", "-", cwd=root, input=source)
    assert from_stdin.lines == on_disk.lines == [
        "pkg/legacy.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/family.py:1) but "
        "missing from _L_ARCHS"], (from_stdin, on_disk)


def test_three_copies_of_a_name_are_one_problem_and_one_fix_run_removes_both_extras(tmp_path):
    root = project(tmp_path, pkg__lists='_T_ARCHS = {"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM", '
                                        '"Qwen3_5ForCausalLM", "Qwen3_5ForCausalLM"}\n',
                   pkg__lines='_L_ARCHS = [\n    "Qwen3_5ForCausalLM",\n    "Qwen3_5ForCausalLM",  # again\n'
                              '    "Qwen3_5ForCausalLM",\n    "Qwen3_5ForConditionalGeneration",\n]\n')
    result = archsync("check", "--no-cache", cwd=root)
    assert result.lines == [
        "pkg/lines.py:3:5: ARC301 'Qwen3_5ForCausalLM' is listed 3 times in _L_ARCHS (first at line 2)",
        "pkg/lists.py:1:70: ARC301 'Qwen3_5ForCausalLM' is listed 3 times in _T_ARCHS (first at line 1)",
    ], result
    fixed = archsync("fix", "--no-cache", cwd=root)
    assert fixed.err_lines == ["archsync: fixed 2 problems in 2 files; 0 remaining"], fixed
    assert (root / "pkg/lists.py").read_text() == \
        '_T_ARCHS = {"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"}\n'
    assert (root / "pkg/lines.py").read_text() == \
        '_L_ARCHS = [\n    "Qwen3_5ForCausalLM",\n    "Qwen3_5ForConditionalGeneration",\n]\n'


def test_a_file_that_does_not_decode_and_quotes_a_registered_name_is_reported(tmp_path):
    root = project(tmp_path)
    (root / "pkg/legacy.py").write_bytes(b'NAMES = ["Qwen3_5ForConditionalGeneration", "caf\xe9"]\n'
                                         b'if arch in NAMES:\n    pass\n')
    result = archsync("check", "--no-cache", cwd=root)
    assert result.lines == ["pkg/legacy.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not "
                            "UTF-8, and no encoding is declared before it (PEP 263)"], result


def test_each_arm_of_a_module_level_if_or_try_is_checked(tmp_path):
    lists = ('import sys\n\nif sys.version_info >= (3, 12):\n'
             '    _V_ARCHS = {"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"}\nelse:\n'
             '    _V_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n\n'
             'try:\n    _T_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\nexcept ImportError:\n'
             '    _T_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n')
    root = project(tmp_path, pkg__lists=lists)
    assert places("--no-cache", cwd=root) == [
        "pkg/lists.py:6:5: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/family.py:1) but missing "
        "from _V_ARCHS@2",
        "pkg/lists.py:9:5: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/family.py:1) but missing "
        "from _T_ARCHS",
    ]
    assert archsync("fix", "--no-cache", cwd=root).returncode == EXIT_CLEAN
    assert archsync("check", "--no-cache", cwd=root).returncode == EXIT_CLEAN


def test_a_file_outside_any_project_is_checked_alone_and_nothing_is_cached(tmp_path):
    loose = tmp_path / "loose"
    for i in range(3):
        write(loose / f"f{i}.py", f'_X{i}_ARCHS = ["Qwen{i}ForCausalLM"]\n')
    result = archsync("check", loose / "f0.py", cwd=tmp_path)
    assert result.err_lines == ["archsync: no problems (1 file, 1 analysed)"], result
    assert sorted(os.listdir(loose)) == ["f0.py", "f1.py", "f2.py"], "a cache was written outside any project"


# -- names and coding cookies fuzzed: output stays one line per finding, fixes stay Python ------------

_COOKIES = ["", "# -*- coding: latin-1 -*-\n", "# coding: cp1252\n", "# vim: set fileencoding=koi8-r :\n",
            "# -*- coding: idna -*-\n", "# coding: utf-8\n", "# coding: shift_jis\n", "# coding: bogus-codec\n",
            "\ufeff"]
_PIECES = ["\x1b[31m", "\n", "\r", "\u202e", "\u200b", "\u0421", "\u03bf", "é", "\t", "\x00", "\ud800", "::", "%0A",
           "\\", "'", "ForCausalLM", "Qwen3_5", "Evil"]


def test_fuzzed_names_and_coding_cookies_never_break_output_or_files(tmp_path):
    rng = random.Random(int(os.environ.get("ARCHSYNC_FUZZ_SEED", "17")))
    cases = int(os.environ.get("ARCHSYNC_NAME_FUZZ", "12"))
    for case in range(cases):
        root = project(tmp_path / str(case), 'name-pattern = "[A-Z][^\\"\']*"')
        names = ["Qwen3_5ForConditionalGeneration"] + ["E" + "".join(rng.choice(_PIECES) for _ in range(3))
                                                       for _ in range(3)]
        cookie = rng.choice(_COOKIES)
        text = cookie + "_F_ARCHS = frozenset({" + ", ".join(repr(n) for n in names) + "})\n"
        codec = cookie.split("coding")[1].strip(" :=-*\n").split()[0] if "coding" in cookie else "utf-8"
        try:
            data = text.encode("utf-8-sig" if cookie == "\ufeff" else codec)
        except (LookupError, UnicodeError):
            data = text.encode("utf-8", "surrogatepass")
        (root / "pkg/fuzzed.py").write_bytes(data)
        text_run = archsync("check", "--no-cache", cwd=root)  # the harness fails on any traceback
        for line in text_run.stdout.splitlines():
            assert line.startswith(("pkg/", "./pkg/")) and not any(c in line for c in "\x1b\r\x00\u202e"), line
        json.loads(archsync("check", "--no-cache", "--format", "json", cwd=root).stdout)
        json.loads(archsync("check", "--no-cache", "--format", "sarif", cwd=root).stdout)
        linted = flake8(".", cwd=root)
        assert not any(c in linted.stdout for c in "\x1b\x00\u202e"), linted
        before = (root / "pkg/fuzzed.py").read_bytes()
        archsync("fix", "--no-cache", cwd=root)
        after = (root / "pkg/fuzzed.py").read_bytes()
        if after != before:  # a fix that was written is valid Python holding every name it held
            compile(after, "fuzzed.py", "exec")


def test_a_form_feed_starting_a_line_does_not_make_the_file_unfixable(tmp_path):
    source = ('import os\n\x0c\n\x0c_F_ARCHS = [\n    "Qwen3_5ForConditionalGeneration",\n]\n'
              '\x0c_G_ARCHS = {"Qwen3_5ForConditionalGeneration"}\n')
    root = project(tmp_path, pkg__feeds=source)
    as_json = json.loads(archsync("check", "--no-cache", "--format", "json", cwd=root).stdout)
    same_line = [d["fix"]["edits"][0] for finding in as_json["diagnostics"]
                 for d in (finding, *finding.get("related", ())) if d["subject"] == "_G_ARCHS"]
    assert same_line == [{"start_line": 6, "start_column": 47, "end_line": 6, "end_column": 47,
                          "new_text": ', "Qwen3_5ForCausalLM"'}]  # columns of the file, form feed counted
    fixed = archsync("fix", "--no-cache", cwd=root)
    assert fixed.err_lines == ["archsync: fixed 1 problem in 1 file; 0 remaining"], fixed
    assert (root / "pkg/feeds.py").read_text() == source.replace(
        '"Qwen3_5ForConditionalGeneration",\n]', '"Qwen3_5ForConditionalGeneration",\n    "Qwen3_5ForCausalLM",\n]'
    ).replace('{"Qwen3_5ForConditionalGeneration"}', '{"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"}')


def test_a_ctrl_c_while_a_class_is_made_is_an_interruption_not_an_error():
    """Python 3.11 wraps what `__set_name__` raises in a RuntimeError; a Ctrl-C while a lazily imported
    dataclass is defined must still end the run as interrupted, without a traceback."""
    from lint_plugin.frontends.cli import _interrupted

    class Interrupting:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    with pytest.raises(BaseException) as caught:
        type("Made", (), {"field": Interrupting()})
    assert _interrupted(caught.value)
    assert not _interrupted(RuntimeError("a real error"))
