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
from typing import Dict, List, Sequence, Tuple

import pytest

from conftest import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    REPO,
    Result,
    archsync,
    archsync_process,
    flake8,
    flake8_lines,
    flake8_process,
)

MODELS = (
    "class Qwen3_5ForCausalLM:\n    pass\n\n\n"
    "class Qwen3_5ForConditionalGeneration:\n    pass\n\n\n"
    "EntryClass = [Qwen3_5ForCausalLM, Qwen3_5ForConditionalGeneration]\n"
)
PREDICATE = ('def is_qwen3_5(config): return config.architectures[0] in '
             '("Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration")\n')
GUARDED = 'X_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
SUMMARY = re.compile(r"archsync: (?:no problems|1 problem|\d+ problems) \(\d+ files?, \d+ analysed\)")


def assert_check(result: Result, expected: Sequence[str]) -> None:
    """Exact stdout, the exit code that follows it, and only the summary line on stderr."""
    assert result.lines == list(expected), result
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


# -- 1. bad files, each next to the healthy ones ----------------------------------------------

@dataclass(frozen=True)
class Case:
    files: Dict[str, bytes]  # root-relative path -> bytes
    archsync: Tuple[str, ...]  # exact `archsync check` stdout lines
    flake8: Tuple[str, ...]  # exact `flake8 --select=ARC` lines (without ./)
    flake8_e9: Tuple[str, ...] = ()  # files flake8 itself reports as E9xx (cannot parse/read)


def python_says(source: bytes) -> str:
    """What this interpreter's parser says of `source`: the part of an ARC902 reason that is not ours."""
    try:
        ast.parse(source)
    except SyntaxError as exc:
        return str(exc.msg)
    except ValueError as exc:
        return str(exc)
    raise AssertionError("it parses")


# An ARC902 reason is Python's own parser speaking (`ast.parse`): its words vary by version.
NEWER_FSTRING = b'X_LABELS = {"Qwen3_5ForCausalLM": f"{"qwen"} 3.5"}\n'  # parses from Python 3.12 on
CASES = {
    "syntax-error": Case(
        {"pkg/broken.py": b'BROKEN_ARCHS = frozenset({"Qwen3_5ForCausalLM",\n'},
        ("pkg/broken.py:1:1: ARC902 file not analysed: syntax error at line 1: "
         + python_says(b'BROKEN_ARCHS = frozenset({"Qwen3_5ForCausalLM",\n'),
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/broken.py",)),
    # Before Python 3.12 an f-string may not reuse its quotes (PEP 701): the reason says whose Python is too old.
    "f-string-of-a-newer-python": Case(
        {"pkg/labels.py": NEWER_FSTRING},
        (("pkg/labels.py:1:1: ARC902 file not analysed: syntax error at line 1: " + python_says(NEWER_FSTRING)
          + f" (archsync runs on Python {sys.version_info[0]}.{sys.version_info[1]}; an f-string written for Python "
            "3.12 or later does not parse before it: run archsync on the project's Python)",)
         if sys.version_info < (3, 12) else ())
        + ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
           "but missing from X_ARCHS",),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/labels.py",) if sys.version_info < (3, 12) else ()),
    # A model file that does not parse still registers what its registration statement says, read
    # alone, with or without the prefilter: MOE_ARCHS holds a registered name, and nothing is unknown.
    "syntax-error-in-a-model-file": Case(
        {"pkg/moe.py": b"class Qwen3_5MoeForCausalLM:\n    def forward(self:\n        pass\n\n\n"
                       b"EntryClass = [Qwen3_5MoeForCausalLM]\n",
         "pkg/moe_cache.py": b'MOE_ARCHS = frozenset({"Qwen3_5MoeForCausalLM"})\n'},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/moe.py",)),
    # Nothing in it can be an architecture name: the prefilter never parses it (documented skip).
    "syntax-error-without-names": Case(
        {"pkg/junk.py": b"def broken(:\n    return 1\n"},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/junk.py",)),
    # `register_buffer("inv_freq", ...)` registers nothing (its string cannot be a name): the file
    # is no registration candidate, so it is skipped like any other file without names.
    "syntax-error-in-a-layer-that-only-registers-buffers": Case(
        {"pkg/layers.py": b'class Rotary:\n    def __init__(self, t):\n        self.register_buffer("inv_freq", t)\n\n'
                          b'    def broken(:\n        pass\n'},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/layers.py",)),
    # So is one whose registering decorator is on a class that is no model class (an op, a kernel): its
    # strings register nothing (`class_registrations`).
    "syntax-error-in-an-op-registered-by-decorator": Case(
        {"pkg/ops.py": b'@CustomOp.register("fused", "FusedForward")\nclass FusedForward:\n    def broken(:\n'
                       b'        pass\n'},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/ops.py",)),
    # ... while a registering decorator on a model class may register whatever its strings say: the file
    # is analysed.
    "syntax-error-in-a-file-registering-by-decorator": Case(
        {"pkg/kernels.py": b'@register_kernel("fused", "FusedForCausalLM")\nclass FusedForCausalLM:\n'
                           b'    def broken(:\n        pass\n'},
        ("pkg/kernels.py:1:1: ARC902 file not analysed: syntax error at line 3: "
         + python_says(b'@register_kernel("fused", "FusedForCausalLM")\nclass FusedForCausalLM:\n'
                       b'    def broken(:\n        pass\n'),
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/kernels.py",)),
    # flake8 decodes such a file as latin-1 and does call the plugin: it must still report what
    # `archsync check` reports for the bytes on disk, not analyse flake8's re-encoded copy.
    "undecodable-latin1": Case(
        {"pkg/latin.py": b'LATIN_ARCHS = frozenset({"Caf\xe9ForCausalLM"})\n'},
        ("pkg/latin.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not UTF-8, and no "
         "encoding is declared before it (PEP 263)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/latin.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not UTF-8, and no "
         "encoding is declared before it (PEP 263)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    # Python refuses to run a file whose bytes are not UTF-8 and that declares no encoding (PEP 263), even
    # where the byte is in a comment the parser would skip: its collection is not read as if it ran.
    "latin1-in-a-comment-without-cookie": Case(
        {"pkg/latin_comment.py": b'# Caf\xe9 models\nCOMMENT_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'},
        ("pkg/latin_comment.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not UTF-8, "
         "and no encoding is declared before it (PEP 263)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/latin_comment.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not UTF-8, "
         "and no encoding is declared before it (PEP 263)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    "cookie-naming-an-unknown-codec": Case(
        {"pkg/unknown_codec.py": b'# -*- coding: klingon -*-\n'
                                 b'KLINGON_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",
         "pkg/unknown_codec.py:1:1: ARC902 file not analysed: cannot decode: line 1 declares an unknown encoding, "
         "'klingon'"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",
         "pkg/unknown_codec.py:1:1: ARC902 file not analysed: cannot decode: line 1 declares an unknown encoding, "
         "'klingon'")),
    "utf8-bom-with-a-latin1-cookie": Case(
        {"pkg/bom_cookie.py": b'\xef\xbb\xbf# -*- coding: latin-1 -*-\n'
                              b'BOM_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'},
        ("pkg/bom_cookie.py:1:1: ARC902 file not analysed: cannot decode: it starts with a UTF-8 byte-order mark, "
         "but line 1 declares 'latin-1'",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/bom_cookie.py:1:1: ARC902 file not analysed: cannot decode: it starts with a UTF-8 byte-order mark, "
         "but line 1 declares 'latin-1'",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    # A model file Python refuses registers nothing (importing it fails), not even from its registration
    # statements read alone: the collection naming its architecture names an unregistered one (a variant
    # of a registered name, `Moe` more, not a slip of it: no did-you-mean).
    "model-file-that-python-refuses": Case(
        {"pkg/moe.py": b"# Caf\xe9\nclass Qwen3_5MoeForCausalLM:\n    pass\n\n\nEntryClass = [Qwen3_5MoeForCausalLM]\n",
         "pkg/moe_cache.py": b'MOE_ARCHS = frozenset({"Qwen3_5MoeForCausalLM"})\n'},
        ("pkg/moe.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not UTF-8, and no "
         "encoding is declared before it (PEP 263)",
         "pkg/moe_cache.py:1:24: ARC201 'Qwen3_5MoeForCausalLM' in MOE_ARCHS is not a registered architecture",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/moe.py:1:1: ARC902 file not analysed: cannot decode: byte 0xe9 on line 1 is not UTF-8, and no "
         "encoding is declared before it (PEP 263)",
         "pkg/moe_cache.py:1:24: ARC201 'Qwen3_5MoeForCausalLM' in MOE_ARCHS is not a registered architecture",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    # Columns count decoded characters: each é is one column, whatever its bytes.
    "latin1-with-coding-cookie": Case(
        {"pkg/latin_cookie.py": (
            '# -*- coding: latin-1 -*-\n'
            'LATIN_ARCHS = {"Qwen3_5ForConditionalGeneration": "\xe9\xe9\xe9\xe9", "Qwen3_5ForCausalLMM": 1}\n'
        ).encode("latin-1")},
        ("pkg/latin_cookie.py:2:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from LATIN_ARCHS",
         "pkg/latin_cookie.py:2:59: ARC201 'Qwen3_5ForCausalLMM' in LATIN_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/latin_cookie.py:2:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from LATIN_ARCHS",
         "pkg/latin_cookie.py:2:59: ARC201 'Qwen3_5ForCausalLMM' in LATIN_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    "utf8-non-ascii-before-member": Case(
        {"pkg/utf.py": 'UTF_ARCHS = {"Qwen3_5ForConditionalGeneration": "\xe9\xe9\xe9\xe9", "Qwen3_5ForCausalLMM": 1}\n'
         .encode("utf-8")},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",
         "pkg/utf.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from UTF_ARCHS",
         "pkg/utf.py:1:57: ARC201 'Qwen3_5ForCausalLMM' in UTF_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",
         "pkg/utf.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from UTF_ARCHS",
         "pkg/utf.py:1:57: ARC201 'Qwen3_5ForCausalLMM' in UTF_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?")),
    # The reason must say why clearly (Python's words), never "syntax error at line None".
    "nul-bytes": Case(
        {"pkg/nul.py": b'NUL_ARCHS = frozenset({"Qwen3_5ForCausalLM"})\n\x00\n'},
        ("pkg/nul.py:1:1: ARC902 file not analysed: cannot parse: "
         + python_says(b'NUL_ARCHS = frozenset({"Qwen3_5ForCausalLM"})\n\x00\n'),
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/nul.py",)),
    # The byte-order mark is not a column.
    "utf8-bom": Case(
        {"pkg/bom.py": b"\xef\xbb\xbf"
         b'BOM_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLMM"})\n'},
        ("pkg/bom.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from BOM_ARCHS",
         "pkg/bom.py:1:59: ARC201 'Qwen3_5ForCausalLMM' in BOM_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/bom.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from BOM_ARCHS",
         "pkg/bom.py:1:59: ARC201 'Qwen3_5ForCausalLMM' in BOM_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    "crlf": Case(
        {"pkg/crlf.py": b'# CRLF line endings\r\n\r\nCRLF_ARCHS = frozenset({\r\n'
                        b'    "Qwen3_5ForConditionalGeneration",\r\n    "Qwen3_5ForCausalLMM",\r\n})\r\n'},
        ("pkg/crlf.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from CRLF_ARCHS",
         "pkg/crlf.py:5:5: ARC201 'Qwen3_5ForCausalLMM' in CRLF_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/crlf.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from CRLF_ARCHS",
         "pkg/crlf.py:5:5: ARC201 'Qwen3_5ForCausalLMM' in CRLF_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    "cr-only": Case(
        {"pkg/cr.py": b'# old Mac line endings\rFIRST = 1\r'
                      b'CR_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\r'},
        ("pkg/cr.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from CR_ARCHS",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/cr.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from CR_ARCHS",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    # A tab is one column.
    "tabs": Case(
        {"pkg/tabs.py": b'if True:\n\tTAB_ARCHS = frozenset({\n\t\t"Qwen3_5ForConditionalGeneration",\n'
                        b'\t\t"Qwen3_5ForCausalLMM",\n\t})\n'},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",
         "pkg/tabs.py:2:2: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from TAB_ARCHS",
         "pkg/tabs.py:4:3: ARC201 'Qwen3_5ForCausalLMM' in TAB_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",
         "pkg/tabs.py:2:2: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from TAB_ARCHS",
         "pkg/tabs.py:4:3: ARC201 'Qwen3_5ForCausalLMM' in TAB_ARCHS is not a registered architecture; "
         "did you mean 'Qwen3_5ForCausalLM'?")),
    "inconsistent-tabs": Case(
        {"pkg/tabs.py": b'if True:\n        A = 1\n\tTAB_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",
         "pkg/tabs.py:1:1: ARC902 file not analysed: syntax error at line 3: "
         + python_says(b'if True:\n        A = 1\n\tTAB_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/tabs.py",)),
    "empty-and-blank": Case(
        {"pkg/empty.py": b"", "pkg/blank.py": b"\n\n   \n\t\n", "pkg/only_bom.py": b"\xef\xbb\xbf"},
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",)),
    # Not `*.py`: never read. A `.py` name with spaces and unicode: analysed like any other.
    "non-py-and-odd-names": Case(
        {"pkg/notes.txt": b'ODD_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n',
         "pkg/data.pyc": b"\x00\x01garbage",
         "pkg/caf\u00e9 x.py": b'ODD_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'},
        ("pkg/caf\u00e9 x.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from ODD_ARCHS",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/caf\u00e9 x.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from ODD_ARCHS",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
}


def _write_case(root: Path, case: Case) -> None:
    for rel, data in case.files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_file_next_to_healthy_ones(project, name):
    case = CASES[name]
    _write_case(project, case)

    # cold, uncached, warm, and with every file parsed
    for args in (("check",), ("check", "--no-cache"), ("check",), ("check", "--no-cache", "--no-prefilter")):
        result = archsync(*args, cwd=project)
        assert result.lines == list(case.archsync), result
        assert result.returncode == EXIT_FINDINGS, result
        assert len(result.err_lines) == 1 and SUMMARY.fullmatch(result.err_lines[0]), result

    if name == "nul-bytes" and sys.version_info < (3, 10):
        return  # flake8 itself stops on 3.9: its own ast.parse raises ValueError on NUL, before any plugin runs
    result = flake8(".", cwd=project, select="ARC,E9")
    lines = flake8_lines(result)
    arc = [line for line in lines if re.match(r"[^:]+:\d+:\d+: ARC", line)]
    e9 = sorted({line.split(":", 1)[0] for line in lines if re.match(r"[^:]+:\d+:\d+: E9\d\d ", line)})
    assert arc == list(case.flake8), result
    assert e9 == sorted(case.flake8_e9), result
    assert result.returncode == EXIT_FINDINGS, result


# The README's flake8 section says where the two front ends differ, and that this is the only place.
README_SAYS = ("A file flake8 cannot parse or read is flake8's own `E999` or `E902`, and flake8 calls no plugin on\n"
               "it: its `ARC902` is printed only by `archsync check` (select `E9` too, `--select=ARC,E9`, to see\n"
               "flake8's). That is the one difference.")


def test_flake8_differs_from_check_only_by_arc902_on_files_flake8_cannot_parse():
    """What the README says, held to every bad file above (whose lines are the real runs', checked by
    `test_bad_file_next_to_healthy_ones`): flake8 prints what `archsync check` prints, but for the ARC902
    of a file flake8 itself reports as E9xx; a file Python refuses to decode is not one of those."""
    assert README_SAYS in (REPO / "README.md").read_text(encoding="utf-8")
    for name, case in CASES.items():
        on_e9_files = [line for line in case.archsync if " ARC902 " in line and line.split(":")[0] in case.flake8_e9]
        assert [line for line in case.archsync if line not in on_e9_files] == list(case.flake8), name
    refused = [name for name, case in CASES.items() if any("ARC902 file not analysed: cannot decode" in line
                                                           for line in case.flake8)]
    assert sorted(refused) == ["cookie-naming-an-unknown-codec", "latin1-in-a-comment-without-cookie",
                               "model-file-that-python-refuses", "undecodable-latin1", "utf8-bom-with-a-latin1-cookie"]


def test_flake8_selecting_arc_alone_is_silent_on_a_file_it_cannot_parse(project):
    """... so the README asks for `E9` beside `ARC` to see it."""
    _write_case(project, CASES["syntax-error"])
    healthy = ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
               "but missing from X_ARCHS")
    assert flake8_lines(flake8(".", cwd=project, select="ARC")) == [healthy]
    e999, *rest = flake8_lines(flake8(".", cwd=project, select="ARC,E9"))
    assert re.fullmatch(r"pkg/broken\.py:1:\d+: E999 SyntaxError: .+", e999) and rest == [healthy], (e999, rest)


# -- huge files --------------------------------------------------------------------------------

TWENTY_MB = 20 * 1024 * 1024


def _write_big(path: Path, head: str, line: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(head)
        handle.write(line * ((TWENTY_MB - len(head)) // len(line) + 1))
    assert path.stat().st_size >= TWENTY_MB


@pytest.mark.e2e
def test_twenty_megabytes_of_code_without_names_is_skipped(project):
    """20 MB of statements that hold no name: the byte prefilter skips it (not parsed)."""
    _write_big(project / "pkg" / "big.py", "", 'value_0 = [1, 2, 3, {"k": "payload"}]  # filler\n')
    for args in (("check",), ("check",)):
        assert_check(archsync_process(*args, cwd=project, timeout=240), [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ])


@pytest.mark.e2e
def test_twenty_megabyte_file_that_holds_names_is_analysed(project):
    """A guarded collection followed by 20 MB of comments: parsed and analysed, no blow-up."""
    head = 'BIG_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n'
    _write_big(project / "pkg" / "big.py", head, "# " + "filler " * 140 + "\n")
    expected = [
        "pkg/big.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from BIG_ARCHS",
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ]
    for args in (("check",), ("check",)):  # cold, then warm from the cache
        assert_check(archsync_process(*args, cwd=project, timeout=240), expected)
    result = flake8_process(".", cwd=project, timeout=240)
    assert flake8_lines(result) == expected and result.returncode == EXIT_FINDINGS, result


@pytest.mark.e2e
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
    result = archsync_process("check", "--no-cache", cwd=project, timeout=15)
    assert result.returncode == EXIT_FINDINGS, result
    arc201 = [line for line in result.lines if " ARC201 " in line]
    assert len(arc201) == count, result
    assert arc201[0] == "pkg/many.py:2:5: ARC201 'Unknown0ForCausalLM' in MANY_ARCHS is not a registered architecture"
    assert (
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS"
    ) in result.lines, result


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


@pytest.mark.e2e
def test_unreadable_file_is_arc902(project, tmp_path):
    prefix = _unprivileged_prefix(tmp_path / "probe")
    secret = project / "pkg" / "secret.py"
    secret.write_text('SECRET_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    secret.chmod(0)
    try:
        expected = [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
            "pkg/secret.py:1:1: ARC902 file not analysed: cannot read: Permission denied",
        ]
        for args in (("check",), ("check", "--no-cache"), ("check",)):
            assert_check(archsync_process(*args, cwd=project, prefix=prefix), expected)
        # flake8 cannot read it either and reports E902 itself; the plugin still reports the rest.
        result = flake8_process(".", cwd=project, select="ARC,E902", prefix=prefix)
        lines = flake8_lines(result)
        assert [line for line in lines if " ARC" in line] == [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ], result
        assert [line.split(":")[0] for line in lines if " E902 " in line] == ["pkg/secret.py"], result
    finally:
        secret.chmod(0o644)


@pytest.mark.e2e
def test_unreadable_directory_is_skipped(project, tmp_path):
    prefix = _unprivileged_prefix(tmp_path / "probe")
    closed = project / "pkg" / "closed"
    closed.mkdir()
    (closed / "hidden.py").write_text('HIDDEN_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\n')
    closed.chmod(0)
    try:
        for args in (("check",), ("check", "--no-cache")):
            assert_check(archsync_process(*args, cwd=project, prefix=prefix), [
                "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
                "but missing from X_ARCHS",
            ])
    finally:
        closed.chmod(0o755)


# -- symlinks ----------------------------------------------------------------------------------

@pytest.mark.e2e
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
        assert_check(archsync_process(*args, cwd=project, timeout=60), [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ])
    result = flake8_process(".", cwd=project, timeout=60)
    assert flake8_lines(result) == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ] and result.returncode == EXIT_FINDINGS, result


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
        assert_check(archsync(*args, cwd=project), [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ])
    result = flake8(".", cwd=project)
    assert flake8_lines(result) == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result
    assert _listing(outside) == before, "something was written outside the project"


def test_file_symlink_out_of_the_tree_is_not_followed(project, tmp_path):
    """`pkg/ext.py -> ../outside/out.py`: the outside file is neither analysed nor written near."""
    outside = _outside(tmp_path)
    before = _listing(outside)
    os.symlink(outside / "out.py", project / "pkg" / "ext.py")
    for args in (("check",), ("check", "--no-cache")):
        assert_check(archsync(*args, cwd=project), [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ])
    assert _listing(outside) == before, "archsync wrote outside the project"
    result = flake8(".", cwd=project)
    assert flake8_lines(result) == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ] and result.returncode == EXIT_FINDINGS, result
    assert _listing(outside) == before, "the flake8 plugin indexed the link's target directory and wrote there"


# -- special files and odd names ----------------------------------------------------------------

@pytest.mark.e2e
def test_fifo_and_device_files_do_not_hang(project):
    """A named pipe called `*.py`, a `*.py` link to /dev/zero, and the same for pyproject.toml's
    neighbours: never opened (reading either would block or never end). flake8 itself blocks on a
    FIFO it discovers, so only `archsync` is run here."""
    os.mkfifo(project / "pkg" / "fifo.py")
    os.symlink("/dev/zero", project / "pkg" / "zero.py")
    os.symlink("/dev/urandom", project / "pkg" / "random.py")
    for args in (("check",), ("check", "--no-cache"), ("check",)):
        assert_check(archsync_process(*args, cwd=project, timeout=60), [
            "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
            "but missing from X_ARCHS",
        ])


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
@pytest.mark.e2e
def test_pyproject_that_is_not_a_regular_file_does_not_hang(project, kind):
    """Not a configuration file: the defaults apply (the same result as an empty [tool.archsync])."""
    pyproject = project / "pyproject.toml"
    pyproject.unlink()
    {"fifo": lambda: os.mkfifo(pyproject), "dev-zero": lambda: os.symlink("/dev/zero", pyproject),
     "directory": lambda: pyproject.mkdir()}[kind]()
    assert_check(archsync_process("check", "--no-cache", cwd=project, timeout=60), [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ])


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

def _deep_sources() -> Dict[str, str]:
    return {
        "100k-nested-parens":
            "D_ARCHS = " + "(" * 100_000 + '"Qwen3_5ForConditionalGeneration"' + ")" * 100_000 + "\n",
        "50k-list-plus": "D_ARCHS = " + "+".join(['["Qwen3_5ForConditionalGeneration"]'] * 50_000) + "\n",
        "50k-a-plus-a": "D_ARCHS = " + "a+" * 50_000 + "a\n",
        "20k-elif-chain": ('ELIF_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\nif x == 0:\n    pass\n'
                           + "".join(f"elif x == {i}:\n    pass\n" for i in range(1, 20_000))),
        "1000-term-union": "D_ARCHS = " + " | ".join(['{"Qwen3_5ForConditionalGeneration"}'] * 1000) + "\n",
        "150-nested-calls":
            "D_ARCHS = " + "frozenset(" * 150 + '{"Qwen3_5ForConditionalGeneration"}' + ")" * 150 + "\n",
        "20k-term-or-predicate": ("def is_qwen3_5_deep(config):\n    a = config.architectures[0]\n    return "
                                  + " or ".join(['a == "Qwen3_5ForCausalLM"'] * 20_000) + "\n"),
    }


# name -> (exact `archsync check` lines, exact `flake8 --select=ARC` lines when flake8 itself copes).
# The first ARC902 reason is CPython's parser speaking; the others are how CPython gives up
# (RecursionError / MemoryError), in archsync's words.
DEEP_EXPECTED: Dict[str, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {
    "100k-nested-parens": (
        ("pkg/deep.py:1:1: ARC902 file not analysed: syntax error at line 1: "
         + python_says(b"D_ARCHS = " + b"(" * 100_000),
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",)),
    "50k-list-plus": (
        ("pkg/deep.py:1:1: ARC902 file not analysed: expression nested too deeply to parse",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",)),
    "50k-a-plus-a": (
        ("pkg/deep.py:1:1: ARC902 file not analysed: expression nested too deeply to parse",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",)),
    "20k-elif-chain": (
        ("pkg/deep.py:1:1: ARC902 file not analysed: expression nested too deeply to parse",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS",)),
    # Partly read: the one name it did read takes part.
    "1000-term-union": (
        ("pkg/deep.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from D_ARCHS",
         "pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression nested too deeply (pkg/deep.py:1) "
         "(1 name read still takes part)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/deep.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from D_ARCHS",
         "pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression nested too deeply (pkg/deep.py:1) "
         "(1 name read still takes part)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    # The set sits deeper than the analyser reads: no name read, so no ARC101 for D_ARCHS.
    "150-nested-calls": (
        ("pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression nested too deeply (pkg/deep.py:1) "
         "(0 names read still take part)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression nested too deeply (pkg/deep.py:1) "
         "(0 names read still take part)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
    # Not a lineage predicate (its name says "deep"): its 20,000 compares are a subject, one name written
    # 20,000 times, and ARC301 says so once.
    "20k-term-or-predicate": (
        ("pkg/deep.py:3:46: ARC301 'Qwen3_5ForCausalLM' is listed 20000 times in is_qwen3_5_deep#1 (first at line 3)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS"),
        ("pkg/deep.py:3:46: ARC301 'Qwen3_5ForCausalLM' is listed 20000 times in is_qwen3_5_deep#1 (first at line 3)",
         "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from X_ARCHS")),
}


if sys.version_info < (3, 10):  # 3.9's parser reads a flat 50,000-term chain; the analyser's depth limit speaks
    _X_MISSING = ("pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
                  "but missing from X_ARCHS")
    DEEP_EXPECTED["50k-list-plus"] = (
        ("pkg/deep.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
         "but missing from D_ARCHS",
         "pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression nested too deeply (pkg/deep.py:1) "
         "(1 name read still takes part)", _X_MISSING), DEEP_EXPECTED["50k-list-plus"][1])
    DEEP_EXPECTED["50k-a-plus-a"] = (
        ("pkg/deep.py:1:1: ARC901 D_ARCHS is only partly analysed: expression nested too deeply (pkg/deep.py:1); "
         "cannot resolve `a` in pkg/deep.py (0 names read still take part)", _X_MISSING),
        DEEP_EXPECTED["50k-a-plus-a"][1])


@pytest.mark.parametrize("name", sorted(DEEP_EXPECTED))
@pytest.mark.e2e
def test_deeply_nested_code(project, name):
    expected, expected_by_flake8 = DEEP_EXPECTED[name]
    (project / "pkg" / "deep.py").write_text(_deep_sources()[name])
    # One cold run: it reads every file as `check --no-cache` would (`--no-cache` only skips the cache's
    # reading and writing), and writes what it read to the cache besides.
    assert_check(archsync_process("check", cwd=project, timeout=120), expected)
    # flake8 parses every file itself before calling plugins; on a 50k-deep `a+a` chain its own
    # ast.parse raises RecursionError (an upstream flake8 limitation). Whatever flake8 does, no
    # frame of ours may be in a traceback.
    # (pyflakes, run by flake8 whatever --select says, also gives up on a 1000-term union.)
    # One flake8 process: its RecursionError ends a parallel run through `Pool.terminate()`, which
    # once hung past the timeout under load (the pool's own race, not ours).
    result = flake8_process("--jobs=1", ".", cwd=project, timeout=120, traceback_ok=True)
    assert "lint_plugin" not in result.stderr, result
    failures = [line for line in result.lines if "failed during execution" in line]
    assert not any("ARC" in line or "archsync" in line for line in failures), result
    if "Traceback" not in result.stderr and not failures:
        assert flake8_lines(result) == list(expected_by_flake8), result


def test_long_reference_chain_does_not_crash(project):
    """2,000 collections each built from the next: every one resolved whole, never a RecursionError."""
    n = 2000
    text = "".join(f'C{i}_ARCHS = C{i + 1}_ARCHS | {{"Qwen3_5ForConditionalGeneration"}}\n' for i in range(n))
    text += f'C{n}_ARCHS = frozenset({{"Qwen3_5ForConditionalGeneration"}})\n'
    (project / "pkg" / "chain.py").write_text(text)
    result = archsync("check", "--no-cache", cwd=project)
    assert result.returncode == EXIT_FINDINGS, result
    assert (
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS"
    ) in result.lines, result
    # one cause, the 2,001 lists of one file: one finding, which names eight more and counts the rest
    assert (
        "pkg/chain.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from C0_ARCHS; the same for 'Qwen3_5ForCausalLM' in C1_ARCHS (line 2), C2_ARCHS (line 3), "
        "C3_ARCHS (line 4), C4_ARCHS (line 5), C5_ARCHS (line 6), C6_ARCHS (line 7), C7_ARCHS (line 8) and "
        "C8_ARCHS (line 9); and 1992 more lists of this file"
    ) in result.lines, result
    assert len(result.lines) == 2 and not [line for line in result.lines if "ARC901" in line], result
    as_json = archsync("check", "--no-cache", "--format", "json", cwd=project).json["diagnostics"]
    [chain] = [d for d in as_json if d["path"] == "pkg/chain.py"]
    assert [chain["subject"]] + [d["subject"] for d in chain["related"]] == [f"C{i}_ARCHS" for i in range(n + 1)]


def test_long_delegation_chain_does_not_crash(project):
    """2,000 predicates each delegating to the next, the last to is_qwen3_5: no RecursionError."""
    n = 2000
    text = "from pkg.config import is_qwen3_5\n\n"
    text += "".join(f"def is_qwen3_5_{i}(c):\n    return is_qwen3_5_{i + 1}(c)\n\n" for i in range(n))
    text += f"def is_qwen3_5_{n}(c):\n    return is_qwen3_5(c)\n"
    (project / "pkg" / "chain.py").write_text(text)
    result = archsync("check", "--no-cache", cwd=project)
    assert result.returncode == EXIT_FINDINGS, result
    assert result.lines == [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ], result


def test_star_import_of_an_empty_collection(project):
    """`from m import *` where the name is an empty collection: resolved to nothing, no IndexError."""
    (project / "pkg" / "stara.py").write_text("EMPTY = set()\n")
    (project / "pkg" / "starb.py").write_text(
        'from pkg.stara import *\n\nS_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"}) | EMPTY\n')
    expected = [
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
        "pkg/starb.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from S_ARCHS",
    ]
    assert_check(archsync("check", "--no-cache", cwd=project), expected)


def test_warnings_from_parsing_analysed_code_never_leak(project):
    """An invalid escape in analysed code: the parser's warning is not ours to print, nor to obey.

    Python 3.12 prints SyntaxWarning by default (3.11: DeprecationWarning under -W default); with
    -W error the warning must not turn a file that parses into ARC902 either.
    """
    (project / "pkg" / "escapes.py").write_text(
        'import re\n\nESC_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration"})\nPATTERN = re.compile("\\d+")\n')
    expected = [
        "pkg/escapes.py:3:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from ESC_ARCHS",
        "pkg/overrides.py:1:1: ARC101 'Qwen3_5ForCausalLM' is matched by is_qwen3_5() (pkg/config.py:1) "
        "but missing from X_ARCHS",
    ]
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
