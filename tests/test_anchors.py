"""One pass for the prefilter's literals: the compiled matcher and the pure-Python path agree.

`lint_plugin/extract/anchors.py` finds where the literals the byte expressions start with are spelt,
with `ahocorasick_rs` when it is installed (the `fast` extra, in the `test` extra too, so both paths
run here), and each expression is tried only there; without it, each expression searches the bytes
itself. The matcher reports leftmost-longest matches, and the occurrences a match steps over (a
literal inside another, or overlapping its end) are added back: the positions must be every
occurrence, and the signals the same on either path, for every file of the fixtures and of a
generated benchmark tree.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lint_plugin.config import load_config
from lint_plugin.extract.anchors import COMPILED, Anchored, Anchors
from lint_plugin.project.discovery import discover
from lint_plugin.project.prefilter import Prefilter, stored_signals

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gen import generate  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

compiled_only = pytest.mark.skipif(not COMPILED, reason="ahocorasick_rs is not installed (the `fast` extra)")


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="CI installs the `test` extra, which has the matcher")
def test_ci_runs_both_paths():
    assert COMPILED  # else every comparison below would be skipped there


def _every_occurrence(data: bytes, literal: bytes) -> List[int]:
    found, start = [], data.find(literal)
    while start != -1:
        found.append(start)
        start = data.find(literal, start + 1)
    return found


def _positions(anchors: Anchors, data: bytes) -> Dict[bytes, List[int]]:
    scan = anchors.scan(data)
    return {literal: list(scan.starts(literal)) for literal in anchors.literals}


@compiled_only
def test_literals_inside_others_and_overlapping_their_ends_are_all_found():
    literals = [b"from", b"\nfrom", b"egist", b"register_model", b"\nE", b"\nEntryClass", b"EntryClass",
                b"ab", b"bc", b"aa"]
    data = b"\nfrom a import b\nEntryClass = [X]\nregister_model(x)\nabc aaaa\nE"
    scan = Anchors(literals, compiled=True).scan(data)
    assert {literal: list(scan.starts(literal)) for literal in literals} == {
        b"from": [1],
        b"\nfrom": [0],
        b"egist": [35],
        b"register_model": [34],
        b"\nE": [16, 60],
        b"\nEntryClass": [16],
        b"EntryClass": [17],
        b"ab": [52],
        b"bc": [53],
        b"aa": [56, 57, 58],
    }
    assert (scan.count(b"aa"), scan.count(b"\nE")) == (2, 2)  # as `bytes.count` counts: no overlaps


@compiled_only
@settings(max_examples=300, deadline=None)
@given(literals=st.lists(st.binary(min_size=1, max_size=4).map(lambda b: bytes(98 + c % 3 for c in b)),
                         min_size=1, max_size=6),
       data=st.binary(max_size=60).map(lambda b: bytes(97 + c % 4 for c in b)))
def test_the_compiled_pass_finds_every_occurrence_of_every_literal(literals, data):
    # a four-letter alphabet, three of them in the literals: literals overlap each other and themselves
    anchors = Anchors(literals, compiled=True)
    assert _positions(anchors, data) == {literal: _every_occurrence(data, literal) for literal in anchors.literals}
    assert _positions(anchors, data) == _positions(Anchors(literals, compiled=False), data)


EXPRESSIONS = (Anchored.of(b"ab", rb"[ab]*c"), Anchored.branches((b"\nab", b"\nb"), rb"\n(?:ab|b)[abc]*"))


@compiled_only
@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=60).map(lambda b: bytes(b"abc\n"[c % 4] for c in b)))
def test_an_expression_tried_where_its_literals_are_matches_as_its_own_search(data):
    anchors = Anchors([literal for expression in EXPRESSIONS for literal in expression.literals], compiled=True)
    scan = anchors.scan(data)
    for expression in EXPRESSIONS:
        assert [m.span() for m in scan.finditer(expression)] == [m.span() for m in expression.pattern.finditer(data)]
        assert [m.span() for m in scan.finditer(expression, padded=True)] == \
            [m.span() for m in expression.pattern.finditer(b"\n" + data)]


def _same_signals(root: Path) -> int:
    config = load_config(root)
    compiled, fallback = Prefilter(config, compiled=True), Prefilter(config, compiled=False)
    assert compiled.anchors.compiled and not fallback.anchors.compiled
    files = 0
    for source in discover(config):
        data = Path(source.path).read_bytes()
        assert stored_signals(compiled.signals(data)) == stored_signals(fallback.signals(data)), source.path
        assert compiled.registration_snippets(data) == fallback.registration_snippets(data), source.path
        files += 1
    return files


@compiled_only
def test_every_fixture_file_has_the_same_signals_on_both_paths():
    projects = sorted(path.parent for path in FIXTURES.rglob("pyproject.toml"))
    assert len(projects) > 60
    assert sum(_same_signals(root) for root in projects) > 400


@compiled_only
def test_every_file_of_a_generated_tree_has_the_same_signals_on_both_paths(tmp_path):
    generate(tmp_path / "tree", 1)
    assert _same_signals(tmp_path / "tree") > 300


@compiled_only
def test_an_empty_literal_leaves_the_searches_to_answer():
    anchors = Anchors([b"", b"ab"], compiled=True)
    scan = anchors.scan(b"xab")
    assert (anchors.compiled, scan.has(b""), scan.has(b"ab"), list(scan.starts(b"ab"))) == (False, True, True, [1])
