"""In process, over hand-built diagnostics: how a baseline matches findings, and how findings become exemptions."""
from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

from lint_plugin.config import config_from_text
from lint_plugin.diagnostics import Diagnostic
from lint_plugin.report.baseline import compare
from lint_plugin.report.exemptions import apply_exemptions
from lint_plugin.report.recorded import record
from lint_plugin.rules import CODES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LISTS = "pkg/lists.py"


def finding(line: int, subject: str, member: str, code: str = "ARC101", path: str = LISTS,
            message: str = "") -> Diagnostic:
    return Diagnostic(path, line, 1, code, message or f"'{member}' is missing from {subject} (pkg/f.py:{line})",
                      subject=subject, member=member)


def test_a_finding_that_moved_is_not_new_whatever_its_message_quotes():
    baseline = [finding(10, "_A_ARCHS", "XForCausalLM"), finding(20, "_B_ARCHS", "XForCausalLM")]
    current = [finding(13, "_A_ARCHS", "XForCausalLM"), finding(23, "_B_ARCHS", "XForCausalLM"),
               finding(23, "_B_ARCHS", "YForCausalLM")]
    result = compare(current, baseline)
    assert (result.new, result.known) == ((current[2],), 2)


def test_code_path_subject_and_member_each_make_a_finding_new():
    old = finding(10, "_A_ARCHS", "XForCausalLM")
    others = [finding(10, "_A_ARCHS", "XForCausalLM", code="ARC104"),
              finding(10, "_A_ARCHS", "XForCausalLM", path="pkg/renamed.py"),
              finding(10, "_B_ARCHS", "XForCausalLM"),
              finding(10, "_A_ARCHS", "ZForCausalLM")]
    for other in others:
        assert compare([other], [old]).new == (other,), other


def test_copies_are_counted_and_the_last_one_is_new():
    twice = [finding(5, "_A_ARCHS", "X", code="ARC301"), finding(7, "_A_ARCHS", "X", code="ARC301")]
    thrice = [finding(6, "_A_ARCHS", "X", code="ARC301"), finding(8, "_A_ARCHS", "X", code="ARC301"),
              finding(9, "_A_ARCHS", "X", code="ARC301")]
    assert compare(thrice, twice).new == (thrice[2],)
    assert compare(twice, thrice).new == ()


def test_an_ordinal_that_moved_is_matched_once_the_exact_identity_finds_nothing():
    # a test added before `fn`'s sixteenth makes it the seventeenth; NAME's first arm became its second
    baseline = [finding(100, "Args.fn#16", "XForCausalLM"), finding(3, "NAME", "XForCausalLM")]
    current = [finding(104, "Args.fn#17", "XForCausalLM"), finding(5, "NAME@2", "XForCausalLM")]
    assert compare(current, baseline).new == ()
    # but an exact match is taken first: a new #2 beside an unchanged #1 is new
    assert compare([finding(1, "fn#1", "X"), finding(2, "fn#2", "X")], [finding(1, "fn#1", "X")]).new == (
        finding(2, "fn#2", "X"),)


def test_recorded_names_are_escaped_for_toml_and_for_globs(tmp_path):
    odd = 'Odd*Na?me[x]"\\\x01\x7fLM'
    found = [finding(1, "fn#2", odd), finding(2, "fn#2", "Odd_NameLM"), finding(3, "_C_ARCHS", "A", code="ARC301")]
    recording = record(found, "2026-01-01")
    assert (recording.tables, recording.recorded, recording.left) == (2, tuple(found[:1] + found[1:2] + found[2:]),
                                                                       ())
    table = tomllib.loads(recording.text)["tool"]["archsync"]["exempt"]
    assert table == [
        {"subject": "_C_ARCHS", "members": ["A"], "codes": ["ARC301"], "reason": "recorded by archsync on 2026-01-01: "
                                                                                 "review"},
        {"subject": "fn#2", "members": ['Odd[*]Na[?]me[[]x]"\\\x01\x7fLM', "Odd_NameLM"], "codes": ["ARC101"],
         "reason": "recorded by archsync on 2026-01-01: review"},
    ]
    pattern = table[1]["members"][0]
    assert fnmatch.fnmatchcase(odd, pattern)
    assert not fnmatch.fnmatchcase('OddXNaYmexx]"\\\x01\x7fLM', pattern)
    config = config_from_text(tmp_path, '[project]\nname = "p"\n' + recording.text, CODES)
    assert apply_exemptions(found, config.exemptions, "pyproject.toml") == []


def test_what_an_exemption_cannot_say_is_left_with_the_reason():
    surrogate = finding(1, "_A_ARCHS", "X\udcffLM")
    whole_file = Diagnostic("pkg/broken.py", 1, 1, "ARC902", "file not analysed: syntax error")
    stale = Diagnostic("pyproject.toml", 4, 1, "ARC202", "exemption for 'X' in _A_ARCHS no longer suppresses anything",
                       subject="_A_ARCHS", member="X")
    recording = record([surrogate, whole_file, stale], "2026-01-01")
    assert (recording.text, recording.recorded) == ("", ())
    assert recording.left == (
        (surrogate, "its name holds a character TOML cannot hold (a lone surrogate)"),
        (whole_file, "not about one name in a subject, which is all an exemption can say"),
        (stale, "a stale exemption is not exempted: remove it from pyproject.toml"),
    )


def test_the_recorded_text_loads_as_the_project_configuration(tmp_path):
    recording = record([finding(1, "_A_ARCHS", "XForCausalLM")], "2026-01-01")
    config = config_from_text(Path(tmp_path), recording.text, CODES)
    (exemption,) = config.exemptions
    assert (exemption.subject, exemption.members, exemption.codes, exemption.reason, exemption.line) == (
        "_A_ARCHS", ("XForCausalLM",), ("ARC101",), "recorded by archsync on 2026-01-01: review", 3)
