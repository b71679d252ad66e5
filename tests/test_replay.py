"""A warm check answered from the record of the last identical one (`frontends/replay.py`).

One project (the SGLang seed) is checked until a check is answered from its record; then each
kind of change falls through to a real run, and every answer, replayed or not, must be byte for
byte what `archsync check --no-cache` prints with the same options: stdout, stderr, exit code, and
the output file. In process, so each run can say whether it was replayed; that a replayed check
imports nothing of the engine is a process's promise (`test_startup.py`).

Stamps count as settled here as soon as the run starts (the racy margins are 0: the files were
written moments ago, and no test waits two seconds for them); `test_a_racy_file_is_never_trusted`
keeps the record's margin.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import List

import pytest

from conftest import SGLANG_BUG, age_files, archsync, copy_tree
from lint_plugin.frontends import carried, replay
from lint_plugin.project import file_stamp

MODEL = "sglang/srt/models/qwen3_5.py"
OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODELS = "sglang/srt/models"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    root = copy_tree(SGLANG_BUG, tmp_path / "sglang")
    age_files(root)
    monkeypatch.setattr(replay, "RACY_NS", 0)
    monkeypatch.setattr(file_stamp, "RACY_NS", 0)  # the result cache's margin (an edited file is trusted at once)
    return root


@pytest.fixture
def answers(monkeypatch) -> List[bool]:
    """Whether each check since was answered from a record (True) or ran (False)."""
    seen: List[bool] = []
    real = replay.replayed

    def spy(args):
        code = real(args)
        seen.append(code is not None)
        return code

    monkeypatch.setattr(replay, "replayed", spy)
    return seen


def check(root: Path, *args: str, env=None):
    result = archsync("check", *args, cwd=root, env=env)
    return result.stdout, result.stderr, result.returncode


def cold(root: Path, *args: str):
    return check(root, "--no-cache", *args)


def settle(root: Path, *args: str, answers: List[bool]) -> None:
    """Check until a check is answered from its record: the first run writes the caches, the
    second is the result cache's and is recorded, the third is replayed."""
    for _ in range(4):
        check(root, *args)
        if answers[-1]:
            return
    raise AssertionError(f"never replayed: {answers}")


def replay_records(root: Path) -> List[Path]:
    return sorted((root / ".archsync_cache").glob("result-*-replay-*.json"))


FORMATS = [(), ("--format", "json"), ("--format", "github"), ("--format", "sarif"), ("--statistics",),
           ("--quiet", "--exit-zero"), ("--select", "ARC101", "sglang/srt"), ("--color", "always")]


@pytest.mark.parametrize("options", FORMATS, ids=lambda o: " ".join(o) or "text")
def test_a_warm_check_is_replayed_byte_for_byte(project, answers, options):
    expected = cold(project, *options)
    settle(project, *options, answers=answers)
    assert check(project, *options) == expected
    assert check(project, *options) == expected
    assert answers[-2:] == [True, True]


def test_the_output_file_is_written_again(project, answers, tmp_path):
    out = tmp_path / "report.sarif"
    options = ("--format", "sarif", "--output-file", str(out))
    expected = cold(project, *options)
    written = out.read_bytes()
    out.unlink()
    settle(project, *options, answers=answers)
    out.unlink()
    assert check(project, *options) == expected and answers[-1] is True
    assert out.read_bytes() == written
    assert json.loads(written)["runs"][0]["results"]


def test_each_invocation_has_its_own_record(project, answers):
    """Another format, codes or paths is another invocation: never answered from this one's record."""
    settle(project, answers=answers)
    for options in (("--format", "json"), ("--select", "ARC104"), ("sglang",), ("--color", "always")):
        expected = cold(project, *options)
        assert check(project, *options) == expected and answers[-1] is False, options
    expected = cold(project)
    assert check(project, env={"NO_COLOR": "1"}) == expected and answers[-1] is False  # what `--color auto` reads
    assert check(project) == expected and answers[-1] is True


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)


CHANGES = {
    "comment appended": lambda root: _append(root / MODEL, "# a comment\n"),
    "touched": lambda root: os.utime(root / MODEL),
    "same size, other bytes": lambda root: (root / MODEL).write_bytes(
        (root / MODEL).read_bytes().replace(b"Qwen3_5ForConditionalGeneration", b"Qwen3_6ForConditionalGeneration")),
    "file added": lambda root: (root / MODELS / "extra.py").write_text(
        "class ExtraForCausalLM:\n    pass\n\n\nEntryClass = ExtraForCausalLM\n", encoding="utf-8"),
    "file removed": lambda root: (root / MODEL).unlink(),
    "file renamed": lambda root: (root / MODEL).rename(root / MODELS / "qwen3_5_renamed.py"),
    "package added": lambda root: (root / MODELS / "more").mkdir() or (root / MODELS / "more" / "m.py").write_text(
        'ARCHS = ["Qwen3_5ForCausalLM"]\n', encoding="utf-8"),
    "configuration changed": lambda root: _append(root / "pyproject.toml", '\n[tool.archsync]\nignore = ["ARC104"]\n'),
    "nested project created": lambda root: (root / "sglang" / "srt" / "pyproject.toml").write_text(
        "", encoding="utf-8"),
    "index cache removed": lambda root: [p.unlink() for p in (root / ".archsync_cache").glob("index-*.json")],
    "result cache removed": lambda root: [p.unlink() for p in (root / ".archsync_cache").glob("result-*.json")
                                          if "-replay-" not in p.name],
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_any_change_falls_through_to_a_real_run(project, answers, change):
    settle(project, answers=answers)
    CHANGES[change](project)
    expected = cold(project)
    assert check(project) == expected and answers[-1] is False
    settle(project, answers=answers)  # recorded again, for the tree as it is now
    assert check(project) == expected and answers[-1] is True


def test_a_record_not_written_by_this_code_is_not_trusted(project, answers, monkeypatch):
    settle(project, answers=answers)
    monkeypatch.setattr(replay, "code_stamps", lambda: "0" * 16)
    monkeypatch.setattr(carried, "code_stamps", lambda: "0" * 16)  # other code: other stamps, other content
    monkeypatch.setattr(carried, "code_content", lambda: "1" * 16)
    expected = cold(project)
    assert check(project) == expected and answers[-1] is False


def test_another_version_has_its_own_records(project, answers, monkeypatch):
    settle(project, answers=answers)
    monkeypatch.setattr(replay, "__version__", "9.9.9")
    monkeypatch.setattr(carried, "__version__", "9.9.9")
    expected = cold(project)
    assert check(project) == expected and answers[-1] is False


@pytest.mark.parametrize("damage", ["truncated", "one byte flipped", "another invocation's"])
def test_a_damaged_record_is_not_trusted(project, answers, damage):
    settle(project, "--format", "json", answers=answers)
    [json_record] = replay_records(project)
    json_raw = json_record.read_bytes()
    json_record.unlink()
    settle(project, answers=answers)
    [text_record] = replay_records(project)
    for record in (project / ".archsync_cache").glob("result-*-carried-*.json"):
        record.unlink()  # would answer, soundly: the record by content is intact (its own damage: below)
    raw = text_record.read_bytes()
    text_record.write_bytes({"truncated": raw[: len(raw) // 2],
                             "one byte flipped": raw[:-40] + bytes([raw[-40] ^ 1]) + raw[-39:],
                             "another invocation's": json_raw}[damage])
    expected = cold(project)
    assert check(project) == expected and answers[-1] is False


def test_a_racy_file_is_never_trusted(project, answers, monkeypatch):
    """With the real margin: a file changed in the two seconds before a run leaves that run unrecorded,
    however many runs there are, until the file is older than the margin."""
    monkeypatch.setattr(replay, "RACY_NS", 2_000_000_000)
    for _ in range(3):
        check(project)
    assert not replay_records(project)  # the copy is fresh: every ctime is within the margin
    monkeypatch.setattr(replay, "RACY_NS", 0)
    settle(project, answers=answers)
    monkeypatch.setattr(replay, "RACY_NS", 2_000_000_000)
    _append(project / MODEL, "# a comment\n")
    expected = cold(project)
    for _ in range(3):
        assert check(project) == expected and answers[-1] is False


def test_records_are_kept_for_the_most_recent_invocations(project, answers):
    selections = ("ARC1", "ARC10", "ARC101", "ARC102", "ARC103", "ARC104", "ARC105", "ARC2", "ARC20", "ARC201")
    for codes in selections:
        settle(project, "--select", codes, answers=answers)
    assert len(replay_records(project)) == replay.KEPT == len(selections) - 2
    expected = cold(project, "--select", "ARC201")
    assert check(project, "--select", "ARC201") == expected and answers[-1] is True
    expected = cold(project, "--select", "ARC1")
    assert check(project, "--select", "ARC1") == expected and answers[-1] is False


@pytest.mark.parametrize("options", [("--no-cache",), ("--add-exemptions",)])
def test_checks_that_are_never_recorded(project, answers, options):
    settle(project, answers=answers)
    before = replay_records(project)
    check(project, *options)
    assert answers[-1] is False and replay_records(project) == before


def test_a_file_changed_while_a_check_runs_is_not_recorded_as_read(project, answers, monkeypatch):
    """Other bytes of the same size with the old mtime put back (`cp -p`), after the run read the file and
    before it is recorded: the mtime is settled, the ctime is not, so nothing is recorded."""
    first = cold(project)
    settle(project, answers=answers)
    [record] = replay_records(project)
    record.unlink()  # the next check is the result cache's, and would be recorded
    for record in (project / ".archsync_cache").glob("result-*-carried-*.json"):
        record.unlink()  # as would the record by content, which would answer it
    path = project / OVERRIDES
    comment = b"# Keep in sync with the hybrid models under sglang/srt/models/."
    real_done = replay.Recorder.done

    def done(self, code):
        before = path.stat()
        path.write_bytes(path.read_bytes().replace(comment, b'"Qwen3_5ForCausalLM",'.ljust(len(comment))))
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        real_done(self, code)

    monkeypatch.setattr(replay.Recorder, "done", done)
    check(project)
    monkeypatch.setattr(replay.Recorder, "done", real_done)
    expected = cold(project)
    assert expected != first  # one name fewer missing from the whitelist
    assert check(project) == expected and answers[-1] is False


# -- another checkout: the record by content (`frontends/carried.py`) ---------------------------------

def fresh_clone(root: Path, destination: Path) -> Path:
    """A CI job's checkout with the cache directory restored: every file written now, elsewhere."""
    return Path(shutil.copytree(root, destination, copy_function=shutil.copyfile))


@pytest.mark.parametrize("options", [(), ("--format", "json"), ("--format", "sarif"), ("--select", "ARC101", "sglang")],
                         ids=lambda o: " ".join(o) or "text")
def test_a_fresh_clone_is_answered_by_the_record_of_its_content(project, answers, tmp_path, options):
    """Paths, stamps and inodes all differ; the content does not: the record answers, with the root of
    the clone where the output names one (the JSON's `root`, SARIF's base URI)."""
    settle(project, *options, answers=answers)
    clone = fresh_clone(project, tmp_path / "elsewhere" / "checkout")
    expected = cold(clone, *options)
    assert check(clone, *options) == expected and answers[-1] is True
    assert str(project) not in expected[0]


def test_a_clone_answered_by_content_keeps_a_record_of_its_own(project, answers, tmp_path, monkeypatch):
    """Once the record by content has answered, the next check of that clone is answered by its stamps
    and hashes nothing; an edit there still runs. A clone written in the last two seconds keeps none (its
    files are not settled), and is answered by content again."""
    settle(project, answers=answers)
    digests: List[object] = []
    real = carried.tree_digest

    def counted(*args):
        digests.append(args)
        return real(*args)

    monkeypatch.setattr(carried, "tree_digest", counted)
    clone = fresh_clone(project, tmp_path / "elsewhere" / "checkout")
    expected = cold(clone)
    for _ in range(3):
        assert check(clone) == expected and answers[-1] is True
    assert len(digests) == 1
    _append(clone / MODEL, "# a comment\n")
    assert check(clone) == cold(clone) and answers[-1] is False

    monkeypatch.setattr(replay, "RACY_NS", 2_000_000_000)
    racy = fresh_clone(project, tmp_path / "just-written")
    del digests[:]
    for _ in range(2):
        assert check(racy) == expected and answers[-1] is True
    assert len(digests) == 2


FALLS_THROUGH = sorted(set(CHANGES) - {"touched"})  # a touched file holds the same bytes: still answered


@pytest.mark.parametrize("change", FALLS_THROUGH)
def test_a_fresh_clone_with_any_change_runs(project, answers, tmp_path, change):
    settle(project, answers=answers)
    expected = cold(project)
    assert check(fresh_clone(project, tmp_path / "first")) == expected and answers[-1] is True
    clone = fresh_clone(project, tmp_path / "second")
    CHANGES[change](clone)
    expected = cold(clone)
    assert check(clone) == expected and answers[-1] is False


def test_a_fresh_clone_of_the_same_path_is_answered_by_content(project, answers, tmp_path):
    """The same directory checked out again (a CI runner's fixed workspace): this checkout's record is
    there, every stamp it holds moved, so the record by content answers; one file edited: neither."""
    settle(project, answers=answers)
    expected = cold(project)
    moved = project.rename(tmp_path / "moved")
    fresh_clone(moved, project)
    assert check(project) == expected and answers[-1] is True
    _append(project / MODEL, "# a comment\n")
    assert check(project) == cold(project) and answers[-1] is False
