"""`# noqa` on the reported line, honoured the same way by `archsync` and by flake8."""
from __future__ import annotations

import re

from conftest import EXIT_CLEAN, EXIT_FINDINGS, SHAPES, archsync, flake8, flake8_lines

ROOT = SHAPES / "noqa"

# srv/tables.py: the noqa comments of lines 3-7 cover ARC101, those of lines 8-12 do not. The four
# unsuppressed whitelists lack the family's name for one cause: one finding, naming the other places.
UNSUPPRESSED = [
    "srv/tables.py:8:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (srv/families.py:4) "
    "but missing from OTHER_CODE_ARCHS; the same for 'OscarMoeForCausalLM' in OTHER_PREFIX_ARCHS (line 9), "
    "UNSUPPRESSED_ARCHS (line 10) and NEXT_LINE_ARCHS (line 12)",
]


def test_archsync_honours_noqa_on_the_reported_line():
    result = archsync("check", "srv/tables.py", cwd=ROOT)
    assert result.lines == UNSUPPRESSED, result
    assert result.returncode == EXIT_FINDINGS


def test_flake8_honours_noqa_on_the_reported_line():
    result = flake8("srv/tables.py", cwd=ROOT)
    assert result.lines == UNSUPPRESSED, result
    assert result.returncode == 1


def test_json_output_honours_noqa_too():
    result = archsync("check", "--format", "json", "srv/tables.py", cwd=ROOT)
    [finding] = result.json["diagnostics"]
    assert [finding["subject"]] + [d["subject"] for d in finding["related"]] == [
        "OTHER_CODE_ARCHS", "OTHER_PREFIX_ARCHS", "UNSUPPRESSED_ARCHS", "NEXT_LINE_ARCHS"], result


def test_without_the_comments_every_whitelist_is_reported(tree):
    # The control: the suppressed whitelists are real findings.
    root = tree("shapes/noqa")
    tables = root / "srv/tables.py"
    tables.write_text(re.sub(r"  # (?i:noqa)\S*(?: ?\S+)?$", "", tables.read_text(), flags=re.M))
    assert "  # noqa" not in tables.read_text().lower(), tables.read_text()
    expected = [
        "srv/tables.py:3:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (srv/families.py:4) "
        "but missing from CODE_ARCHS; the same for 'OscarMoeForCausalLM' in BARE_ARCHS (line 4), PREFIX_ARCHS "
        "(line 5), LIST_ARCHS (line 6), UPPER_ARCHS (line 7), OTHER_CODE_ARCHS (line 8), OTHER_PREFIX_ARCHS "
        "(line 9), UNSUPPRESSED_ARCHS (line 10) and NEXT_LINE_ARCHS (line 12)",
    ]
    result = archsync("check", "srv/tables.py", cwd=root)
    assert result.lines == expected, result
    assert flake8("srv/tables.py", cwd=root).lines == expected


def test_file_level_flake8_noqa():
    for run in (archsync("check", "srv/skipped_file.py", cwd=ROOT), flake8("srv/skipped_file.py", cwd=ROOT)):
        assert run.stdout == "", run
        assert run.returncode == EXIT_CLEAN, run


def test_noqa_later_in_a_multi_line_statement_is_read_as_flake8_reads_it():
    # flake8 reads a bracketed statement line by line, but a backslash-continued
    # statement as one logical line, so the comment on its second line covers the
    # diagnostic reported on its first. archsync promises to read noqa comments as flake8 does.
    expected = [
        "srv/multiline.py:4:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (srv/families.py:4) "
        "but missing from BRACKETED_ARCHS",
    ]
    assert_both_report(ROOT, "srv/multiline.py", expected)


def test_flake8_reads_noqa_itself_so_its_own_options_apply(tree):
    """`--disable-noqa` brings every `# noqa`ed finding back (the plugin used to filter them itself);
    `--per-file-ignores` and `--extend-ignore` work on ARC codes as on flake8's own."""
    root = tree("shapes/noqa")
    normal = flake8_lines(flake8(".", cwd=root))
    disabled = flake8_lines(flake8(".", "--disable-noqa", cwd=root))
    assert set(normal) < set(disabled), (normal, disabled)
    per_file = flake8_lines(flake8(".", "--per-file-ignores=srv/tables.py:ARC101", cwd=root))
    assert per_file == [line for line in normal if not line.startswith("srv/tables.py:")], per_file
    assert flake8_lines(flake8(".", "--extend-ignore=ARC101", cwd=root)) == \
        [line for line in normal if ": ARC101 " not in line]
    for line in sorted(set(disabled) - set(normal)):  # each one back has a noqa comment in its statement or file
        path, number = line.split(":")[:2]
        text = (root / path).read_text(encoding="utf-8")
        statement = text.splitlines()[int(number) - 1:int(number) + 4]
        assert any("noqa" in part.lower() for part in statement) or "flake8: noqa" in text.lower(), line


def test_noqa_is_read_on_the_physical_lines_flake8_reads(tree):
    """flake8 reads a file's lines as `readlines` splits them: at "\\n", "\\r\\n" and "\\r", the breaks Python's
    line numbers count. A form feed, a vertical tab, "\\x1c"-"\\x1e", NEL, U+2028 and U+2029 (where
    `str.splitlines` also breaks) are characters inside a line: a `# noqa` after one is on the reported line,
    and the lines after one keep their numbers."""
    root = tree("shapes/noqa")
    (root / "srv/separators.py").write_text(
        '"""Whitelists on lines that hold characters `str.splitlines` breaks at."""\n'
        '# NEL \x85, line \u2028 and paragraph \u2029 separators, FS GS RS \x1c\x1d\x1e, a vertical tab \x0b\n'
        'FORM_FEED_ARCHS = frozenset({"OscarForCausalLM"})\x0c  # noqa: ARC101\n'
        'AFTER_ARCHS = frozenset({"OscarForCausalLM"})  # noqa: ARC101\n'
        'REPORTED_ARCHS = frozenset({"OscarForCausalLM"})\n', encoding="utf-8")
    expected = [
        "srv/separators.py:5:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (srv/families.py:4) "
        "but missing from REPORTED_ARCHS",
    ]
    assert_both_report(root, "srv/separators.py", expected)


def test_flake8_noqa_after_a_form_feed_is_not_a_file_level_noqa(tree):
    """`# flake8: noqa` exempts a file only at the start of one of flake8's lines; after a form feed it is
    not (flake8 warns that it is on a line with code), though `str.splitlines` would start a line there."""
    root = tree("shapes/noqa")
    (root / "srv/not_skipped.py").write_text('NOT_SKIPPED_ARCHS = frozenset({"OscarForCausalLM"})\x0c# flake8: noqa\n',
                                            encoding="utf-8")
    expected = [
        "srv/not_skipped.py:1:1: ARC101 'OscarMoeForCausalLM' is matched by is_oscar() (srv/families.py:4) "
        "but missing from NOT_SKIPPED_ARCHS",
    ]
    assert_both_report(root, "srv/not_skipped.py", expected)


def assert_both_report(root, path, expected):
    """flake8 and `archsync check` print `expected` for `path`: they read `# noqa` alike."""
    via_flake8 = flake8(path, cwd=root)
    assert via_flake8.lines == expected, via_flake8
    via_archsync = archsync("check", path, cwd=root)
    assert via_archsync.lines == expected, via_archsync
