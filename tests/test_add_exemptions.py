"""`archsync check --add-exemptions`: today's findings recorded as exemptions to review (issue 16, adoption).

Through the real console script. `SOURCE_DATE_EPOCH` fixes the date the reasons carry
(1767225600 is 2026-01-01, UTC), so the appended text is written out literally here.
"""
from __future__ import annotations

import os

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    RULE_FIXTURES,
    SGLANG_BUG,
    archsync,
    copy_tree,
    flake8,
    write,
)

DATE = {"SOURCE_DATE_EPOCH": "1767225600"}
REASON = 'each with the reason "recorded by archsync on 2026-01-01: review": review them'
DUPLICATE = "sglang/srt/layers/dup.py:1:72: ARC301 'Qwen3_5ForCausalLM' is listed twice in _DUP_ARCHS (first at line 1)"
# What the seed bug tree with a duplicate gets: ARC104 is said of the same pairs as ARC101, which
# comes first (one diagnostic per pair), so it surfaces once ARC101 is exempted and is recorded too.
RECORDED = """
# Recorded by `archsync check --add-exemptions` on 2026-01-01: the findings of that day. For each, fix
# the code (ARC202 then says the exemption is stale) or write down why the difference is deliberate.

# ARC301 duplicate-member in sglang/srt/layers/dup.py
[[tool.archsync.exempt]]
subject = "_DUP_ARCHS"
members = ["Qwen3_5ForCausalLM"]
codes = ["ARC301"]
reason = "recorded by archsync on 2026-01-01: review"

# ARC101 family-member-missing, ARC104 sibling-variant-missing in sglang/srt/arg_groups/overrides.py
[[tool.archsync.exempt]]
subject = "_MAMBA_EXTRA_BUFFER_ARCHS"
members = ["Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"]
codes = ["ARC101", "ARC104"]
reason = "recorded by archsync on 2026-01-01: review"

# ARC101 family-member-missing, ARC104 sibling-variant-missing in sglang/srt/arg_groups/overrides.py
[[tool.archsync.exempt]]
subject = "_MAMBA_RADIX_CACHE_ARCHS"
members = ["Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"]
codes = ["ARC101", "ARC104"]
reason = "recorded by archsync on 2026-01-01: review"
"""


@pytest.fixture
def root(tmp_path):
    root = copy_tree(SGLANG_BUG, tmp_path / "project")
    write(root / "sglang/srt/layers/dup.py", '_DUP_ARCHS = ["Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration", '
                                              '"Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM", '
                                              '"Qwen3_5MoeForConditionalGeneration"]\n')
    return root


def test_every_finding_is_recorded_and_the_tree_then_checks_clean(root):
    pyproject = root / "pyproject.toml"
    before = pyproject.read_bytes()
    assert len(archsync("check", cwd=root).lines) == 2  # the seed's cause, and a duplicate
    result = archsync("check", "--add-exemptions", cwd=root, env=DATE)
    assert (result.returncode, result.stdout) == (EXIT_CLEAN, ""), result
    assert result.err_lines == [
        f"archsync: recorded 2 findings (5 places, and 4 they hid) as 3 exemptions in pyproject.toml, {REASON}",
        "archsync: no problems (18 files, 4 analysed)"], result
    assert pyproject.read_bytes() == before + RECORDED.encode()  # appended; not one byte before it changed
    clean = archsync("check", cwd=root)
    assert (clean.returncode, clean.stdout, clean.err_lines) == (
        EXIT_CLEAN, "", ["archsync: no problems (18 files, 4 analysed)"]), clean
    via_flake8 = flake8(".", cwd=root)
    assert (via_flake8.returncode, via_flake8.lines) == (0, []), via_flake8


def test_no_prefilter_records_the_same(root):
    before = (root / "pyproject.toml").read_bytes()
    result = archsync("check", "--add-exemptions", "--no-prefilter", cwd=root, env=DATE)
    assert result.returncode == EXIT_CLEAN, result
    assert (root / "pyproject.toml").read_bytes() == before + RECORDED.encode()


def test_recording_twice_adds_nothing_and_writes_nothing(root):
    first = archsync("check", "--add-exemptions", cwd=root, env=DATE)
    assert first.returncode == EXIT_CLEAN, first
    pyproject = root / "pyproject.toml"
    recorded = pyproject.read_bytes(), pyproject.stat().st_mtime_ns, pyproject.stat().st_ino
    again = archsync("check", "--add-exemptions", cwd=root, env={"SOURCE_DATE_EPOCH": "1798761600"})
    assert (again.returncode, again.stdout, again.err_lines) == (
        EXIT_CLEAN, "", ["archsync: nothing to record", "archsync: no problems (18 files, 4 analysed)"]), again
    assert (pyproject.read_bytes(), pyproject.stat().st_mtime_ns, pyproject.stat().st_ino) == recorded


def test_select_and_paths_limit_what_is_recorded(root):
    result = archsync("check", "--add-exemptions", "--select", "ARC3", "sglang/srt/layers", cwd=root, env=DATE)
    assert result.err_lines == [
        'archsync: recorded 1 finding as 1 exemption in pyproject.toml, with the reason "recorded by archsync on '
        '2026-01-01: review": review them',
        "archsync: no problems (18 files, 4 analysed)"], result
    rest = archsync("check", cwd=root)
    assert (rest.returncode, [line.split(": ")[1].split()[0] for line in rest.lines]) == (
        EXIT_FINDINGS, ["ARC101"]), rest


def test_findings_an_exemption_cannot_express_are_reported_and_left(tmp_path):
    root = copy_tree(RULE_FIXTURES / "stale", tmp_path / "stale")  # two stale exemptions (ARC202)
    write(root / "cache/broken.py", 'X_ARCHS = ["MikeForCausalLM",)\n')  # ARC902
    strategies = root / "cache/strategies.py"
    strategies.write_text(strategies.read_text(encoding="utf-8") + '\nLATE_ARCHS = frozenset({"KiloForCausalLM", '
                          '"KiloForCausalLM"}) | frozenset(load_more())\n', encoding="utf-8")  # ARC301 and ARC901
    before = (root / "pyproject.toml").read_bytes()
    left = [
        "cache/broken.py:1:1: ARC902 file not analysed: syntax error at line 1: closing parenthesis ')' does not "
        "match opening parenthesis '['",
        "cache/strategies.py:20:1: ARC901 LATE_ARCHS is only partly analysed: cannot follow "
        "`frozenset(load_more())` (cache/strategies.py:20) (1 name read still takes part)",
        "pyproject.toml:11:1: ARC202 exemption for 'NovemberForCausalLM' in EXTRA_BUFFER_ARCHS no longer suppresses "
        "anything (pyproject.toml: tool.archsync.exempt[0]); remove it",
        "pyproject.toml:18:1: ARC202 exemption for 'Kilo*' in OFFLOAD_ARCHS no longer suppresses anything "
        "(pyproject.toml: tool.archsync.exempt[1]); remove it",
    ]
    assert archsync("check", cwd=root).lines == left[:2] + [
        "cache/strategies.py:20:44: ARC301 'KiloForCausalLM' is listed twice in LATE_ARCHS (first at line 20)"
    ] + left[2:]
    result = archsync("check", "--add-exemptions", cwd=root, env=DATE)
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, left), result
    assert result.err_lines == [
        'archsync: recorded 1 finding as 1 exemption in pyproject.toml, with the reason "recorded by archsync on '
        '2026-01-01: review": review them',
        "archsync: not exempted: cache/broken.py:1:1: ARC902: not about one name in a subject, which is all an "
        "exemption can say",
        "archsync: not exempted: cache/strategies.py:20:1: ARC901: not about one name in a subject, which is all an "
        "exemption can say",
        "archsync: not exempted: pyproject.toml:11:1: ARC202: a stale exemption is not exempted: remove it from "
        "pyproject.toml",
        "archsync: not exempted: pyproject.toml:18:1: ARC202: a stale exemption is not exempted: remove it from "
        "pyproject.toml",
        "archsync: 4 problems (3 files, 2 analysed)"], result
    assert (root / "pyproject.toml").read_bytes() == before + b"""
# Recorded by `archsync check --add-exemptions` on 2026-01-01: the findings of that day. For each, fix
# the code (ARC202 then says the exemption is stale) or write down why the difference is deliberate.

# ARC301 duplicate-member in cache/strategies.py
[[tool.archsync.exempt]]
subject = "LATE_ARCHS"
members = ["KiloForCausalLM"]
codes = ["ARC301"]
reason = "recorded by archsync on 2026-01-01: review"
"""
    assert archsync("check", cwd=root).lines == left


def test_what_is_not_exempted_is_named_by_the_path_check_prints(tmp_path):
    """Run from a subdirectory: the paths are relative to it, as on check's own lines."""
    root = copy_tree(RULE_FIXTURES / "stale", tmp_path / "stale")
    write(root / "cache/broken.py", 'X_ARCHS = ["MikeForCausalLM",)\n')  # ARC902
    result = archsync("check", "--add-exemptions", cwd=root / "cache", env=DATE)
    line = ("broken.py:1:1: ARC902 file not analysed: syntax error at line 1: closing parenthesis ')' does not "
            "match opening parenthesis '['")
    assert (result.returncode, result.lines) == (EXIT_FINDINGS, [line]), result
    assert result.err_lines == [
        "archsync: nothing to record",
        "archsync: not exempted: broken.py:1:1: ARC902: not about one name in a subject, which is all an "
        "exemption can say",
        "archsync: 1 problem (3 files, 2 analysed)"], result


def test_line_endings_and_a_missing_final_newline_are_kept(root):
    pyproject = root / "pyproject.toml"
    crlf = b'[project]\r\nname = "sglang-mini"\r\nversion = "0.0.1"  # no newline at the end'
    pyproject.write_bytes(crlf)
    result = archsync("check", "--add-exemptions", "--select", "ARC301", cwd=root, env=DATE)
    assert result.returncode == EXIT_CLEAN, result
    assert pyproject.read_bytes() == crlf + b"""\r
\r
# Recorded by `archsync check --add-exemptions` on 2026-01-01: the findings of that day. For each, fix\r
# the code (ARC202 then says the exemption is stale) or write down why the difference is deliberate.\r
\r
# ARC301 duplicate-member in sglang/srt/layers/dup.py\r
[[tool.archsync.exempt]]\r
subject = "_DUP_ARCHS"\r
members = ["Qwen3_5ForCausalLM"]\r
codes = ["ARC301"]\r
reason = "recorded by archsync on 2026-01-01: review"\r
""".replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    assert archsync("check", "--select", "ARC301", cwd=root).returncode == EXIT_CLEAN


@pytest.mark.parametrize("text, message", [
    ('[project\nname = "x"\n',
     "{pyproject}: invalid TOML: Expected ']' at the end of a table declaration (at line 1, column 9)"),
    ('[project]\nname = "x"\n\n[tool.archsync]\nexempt = []\n',
     "nothing recorded: with the exemptions appended, pyproject.toml would not load: {pyproject}: invalid TOML: "
     "Cannot mutate immutable namespace ('tool', 'archsync', 'exempt') (at line 11, column 23)"),
])
def test_a_pyproject_that_cannot_take_the_tables_is_left_alone(root, text, message):
    pyproject = root / "pyproject.toml"
    pyproject.write_text(text, encoding="utf-8")
    result = archsync("check", "--add-exemptions", cwd=root, env=DATE)
    assert (result.returncode, result.stdout, result.err_lines) == (
        EXIT_ERROR, "", ["archsync: error: " + message.format(pyproject=pyproject)]), result
    assert pyproject.read_text(encoding="utf-8") == text


def test_a_read_only_pyproject_is_refused_by_the_guarded_writer(root):
    pyproject = root / "pyproject.toml"
    before = pyproject.read_bytes()
    os.chmod(pyproject, 0o444)
    try:
        result = archsync("check", "--add-exemptions", cwd=root, env=DATE)
    finally:
        os.chmod(pyproject, 0o644)
    assert (result.returncode, result.stdout, result.err_lines) == (
        EXIT_ERROR, "", ["archsync: error: pyproject.toml: read-only; nothing recorded"]), result
    assert pyproject.read_bytes() == before


def test_no_pyproject_stdin_and_a_bad_date_are_errors(root, tmp_path):
    alone = write(tmp_path / "alone" / "lists.py", '_DUP_ARCHS = ["AbcForCausalLM", "AbcForCausalLM"]\n').parent
    cases = [
        (("--add-exemptions",), alone, {},
         f"archsync: error: no pyproject.toml in {alone}: exemptions live in its [tool.archsync] table; create one "
         f"first"),
        (("--add-exemptions", "--stdin-filename", "sglang/srt/layers/dup.py", "-"), root, {},
         "archsync: error: --add-exemptions records what is saved; it cannot read stdin"),
        (("--add-exemptions",), root, {"SOURCE_DATE_EPOCH": "yesterday"},
         "archsync: error: SOURCE_DATE_EPOCH='yesterday' is not a number of seconds since 1970"),
    ]
    for args, cwd, env, message in cases:
        result = archsync("check", *args, cwd=cwd, env=env, input="")
        assert (result.returncode, result.stdout, result.err_lines) == (EXIT_ERROR, "", [message]), result
    assert not (root / "pyproject.toml").read_text(encoding="utf-8").count("tool.archsync.exempt")
