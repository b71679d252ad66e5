"""The language server's session (`lint_plugin/session.py`), in process: every check equals a cold run.

A session keeps the configuration, the discovered files, every file's record and the last run
between checks. Each step below changes something (a buffer, a file on disk, pyproject.toml), then
the session's report is compared with a cold `archsync check --no-cache` of a copy of the tree in
which every open buffer is saved (`archsync check --no-cache`): diagnostic by diagnostic,
their fixes included. It runs once with the watcher's stamps taken before each check (as the
server's poller keeps them) and once without a watcher (the session stamps the project itself).
The steps also say which way the session answered: the last run's findings reported again
(`reused`), or a run from what it kept.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from conftest import SOURCE_FIXTURES, as_reported, cold_report, copy_tree
from lint_plugin.config import ConfigError
from lint_plugin.diagnostics import Diagnostic, FixRequest
from lint_plugin.pipeline import Report
from lint_plugin.project.files import encode_as_source
from lint_plugin.project.stamps import stamps
from lint_plugin.session import Session

OVERRIDES = "sglang/srt/arg_groups/overrides.py"
MODEL_CONFIG = "sglang/srt/configs/model_config.py"
TEXT_MODELS = "sglang/srt/models/qwen3_5_text.py"
EXTRA_MODEL = "sglang/srt/models/qwen3_5_extra.py"
UNSAVED = "sglang/srt/arg_groups/brand_new.py"
REGISTERED = "EntryClass = [Qwen3_5MoeForCausalLM, Qwen3_5ForCausalLM]"
MOE = '        "Qwen3_5MoeForCausalLM",\n'

Found = List[Tuple[Diagnostic, Optional[FixRequest]]]


def _with_fixes(diagnostics) -> Found:
    return [(d, d.fix) for d in diagnostics]  # a diagnostic compares without its fix: compare both


class Editor:
    """Open buffers over a project, checked through one session, each check compared with a cold run."""

    def __init__(self, root: Path, scratch: Path, watched: bool) -> None:
        self.root = root
        self.scratch = scratch
        self.watched = watched
        self.session = Session(root)
        self.buffers: Dict[str, str] = {}
        self.copies = 0

    def open(self, rel: str) -> None:
        self.buffers[rel] = (self.root / rel).read_text(encoding="utf-8")

    def edit(self, rel: str, old: str, new: str) -> None:
        assert old in self.buffers[rel], (rel, old)
        self.buffers[rel] = self.buffers[rel].replace(old, new, 1)

    def check(self) -> Report:
        watched = stamps(self.root) if self.watched else None  # the watcher saw every change on disk
        return self.session.check({rel: encode_as_source(text) for rel, text in self.buffers.items()}, watched)

    def cold(self) -> List[dict]:
        """`archsync check --no-cache` of a copy of the tree with every buffer saved, as JSON."""
        self.copies += 1
        copy = copy_tree(self.root, self.scratch / f"saved-{self.copies}")
        for rel, text in self.buffers.items():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).write_bytes(encode_as_source(text))
        found = cold_report(copy)
        shutil.rmtree(copy)
        return found

    def expect(self, reused: bool) -> Found:
        """Check, assert the result is the cold run's, and that the session answered the way said."""
        report = self.check()
        found = _with_fixes(report.diagnostics)
        assert as_reported(report.diagnostics) == self.cold()
        assert report.reused is reused, "the last run's findings reported again" if reused else "a run"
        return found


def _messages(found: Found) -> List[str]:
    return [f"{d.path}:{d.line}: {d.code} {d.text}" for d, _ in found]


@pytest.fixture(params=["watched", "unwatched"])
def editor(request, tmp_path):
    root = copy_tree(SOURCE_FIXTURES / "sglang_qwen3_5" / "bug", tmp_path / "bug").resolve()
    return Editor(root, tmp_path, watched=request.param == "watched")


def test_every_check_equals_a_cold_run_through_edits(editor):
    root = editor.root
    editor.open(OVERRIDES)
    seed = editor.expect(reused=False)
    assert [d.code for d, _ in seed] == ["ARC101"] * 4
    assert editor.expect(reused=True) == seed  # nothing changed

    # A comment: the buffer's record is as it was, the findings are reported again. A noqa is a
    # comment too: the report stage reads it from the buffer.
    editor.buffers[OVERRIDES] += "# a comment\n"
    assert editor.expect(reused=True) == seed
    radix = "_MAMBA_RADIX_CACHE_ARCHS = frozenset("
    editor.edit(OVERRIDES, radix, radix + "  # noqa: ARC101")
    assert len(editor.expect(reused=True)) == 2
    editor.edit(OVERRIDES, radix + "  # noqa: ARC101", radix)

    # A name added to a whitelist, then one removed from the other
    qwen3_next = '        "Qwen3NextForCausalLM",\n'
    editor.edit(OVERRIDES, qwen3_next, qwen3_next + '        "Qwen3_5ForCausalLM",\n')
    assert len(editor.expect(reused=False)) == 3
    editor.edit(OVERRIDES, '        "KimiLinearForCausalLM",\n        "GraniteMoeHybridForCausalLM",\n',
                '        "GraniteMoeHybridForCausalLM",\n')
    editor.expect(reused=False)

    # Lines moved: every fact of the buffer moves, and so does every finding in it
    editor.edit(OVERRIDES, '"""Per-architecture', '# moved\n# down\n"""Per-architecture')
    moved = editor.expect(reused=False)
    assert all(d.line > 35 for d, _ in moved), _messages(moved)

    # A registration removed in a second buffer, then one added (a new class beside it), named by the
    # predicate in a third buffer, the file the whitelists' family is imported from
    editor.open(TEXT_MODELS)
    editor.open(MODEL_CONFIG)
    editor.expect(reused=True)  # buffers opened as they are on disk
    editor.edit(TEXT_MODELS, REGISTERED, "EntryClass = [Qwen3_5ForCausalLM]")
    fewer = editor.expect(reused=False)
    assert not any(d.code == "ARC101" and "'Qwen3_5MoeForCausalLM'" in d.text for d, _ in fewer), \
        _messages(fewer)
    assert any(d.code == "ARC201" and "'Qwen3_5MoeForCausalLM'" in d.text for d, _ in fewer), _messages(fewer)
    editor.edit(TEXT_MODELS, "EntryClass = [Qwen3_5ForCausalLM]",
                "class Qwen3_5ExtraForCausalLM(Qwen3_5ForCausalLM):\n    pass\n\n\n"
                "EntryClass = [Qwen3_5MoeForCausalLM, Qwen3_5ForCausalLM, Qwen3_5ExtraForCausalLM]")
    editor.expect(reused=False)
    editor.edit(MODEL_CONFIG, MOE, MOE + '        "Qwen3_5ExtraForCausalLM",\n')
    wider = editor.expect(reused=False)
    assert any("'Qwen3_5ExtraForCausalLM' is matched by is_qwen3_5()" in d.text for d, _ in wider), \
        _messages(wider)

    # An unsaved new file, then closed; a buffer closed with unsaved changes: its file stands in again
    editor.buffers[UNSAVED] = '_NEW_ARCHS = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5ForCausalLM"})\n'
    assert any(d.path == UNSAVED for d, _ in editor.expect(reused=False))
    del editor.buffers[UNSAVED]
    editor.expect(reused=False)
    del editor.buffers[TEXT_MODELS]
    editor.expect(reused=False)

    # On disk while buffers are open: a new model file (registering what the open predicate names),
    # a touch (the same bytes), an edit, then the file deleted
    extra = root / EXTRA_MODEL
    extra.write_text("class Qwen3_5ExtraForCausalLM:\n    pass\n\n\nEntryClass = Qwen3_5ExtraForCausalLM\n",
                     encoding="utf-8")
    assert any("'Qwen3_5ExtraForCausalLM'" in d.text for d, _ in editor.expect(reused=False))
    os.utime(extra, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    editor.expect(reused=True)
    extra.write_text(extra.read_text(encoding="utf-8") + "# edited on disk\n", encoding="utf-8")
    editor.expect(reused=True)  # a comment: the same record
    extra.unlink()
    editor.expect(reused=False)

    # A file other files import from, changed on disk while no buffer holds it
    del editor.buffers[MODEL_CONFIG]
    editor.expect(reused=False)
    config_module = root / MODEL_CONFIG
    config_module.write_text(config_module.read_text(encoding="utf-8").replace(MOE, ""), encoding="utf-8")
    narrower = editor.expect(reused=False)
    assert not any("'Qwen3_5MoeForCausalLM' is matched" in d.text for d, _ in narrower), _messages(narrower)

    # pyproject.toml: an exclude that drops an open buffer's file, a broken table, the repair
    pyproject = root / "pyproject.toml"
    original = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(original + f'\n[tool.archsync]\nexclude = ["{TEXT_MODELS}"]\n', encoding="utf-8")
    editor.open(TEXT_MODELS)
    editor.expect(reused=False)
    pyproject.write_text(original + "\n[tool.archsync]\nbogus = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="tool.archsync.bogus: unknown key"):
        editor.check()
    pyproject.write_text(original, encoding="utf-8")
    editor.expect(reused=False)
    editor.expect(reused=True)

    # A noqa written on disk into a file with findings that no buffer holds, then taken out: the
    # noqa lookups the session kept were of the text before (`report/memory_noqa.py`)
    del editor.buffers[OVERRIDES]  # closed with unsaved edits: the file stands in again
    before = editor.expect(reused=False)
    assert before
    on_disk = root / OVERRIDES
    text = on_disk.read_text(encoding="utf-8")
    on_disk.write_text(text.replace(radix, radix + "  # noqa: ARC101", 1), encoding="utf-8")
    assert len(editor.expect(reused=True)) < len(before)
    on_disk.write_text(text, encoding="utf-8")
    assert editor.expect(reused=True) == before


def test_a_buffer_undone_to_the_text_of_the_last_run_is_the_last_run(editor):
    """Typing and undoing it: each step is checked, and the text the last run read reports it again."""
    editor.open(OVERRIDES)
    first = editor.expect(reused=False)
    before = editor.buffers[OVERRIDES]
    editor.edit(OVERRIDES, '        "FalconH1ForCausalLM",\n', "")
    editor.expect(reused=False)
    editor.buffers[OVERRIDES] = before
    assert editor.expect(reused=False) == first
    assert editor.expect(reused=True) == first


CHAIN = {  # a collection built from one built from a third, two collections and two predicates in cycles
    "sglang/srt/archs_c.py": '_BASE = ("Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration")\n',
    "sglang/srt/archs_b.py": 'from sglang.srt.archs_c import _BASE\n\n_MID = _BASE + ("Qwen3_5ForCausalLM",)\n',
    "sglang/srt/archs_a.py": 'from sglang.srt.archs_b import _MID\n\n_TOP_ARCHS = _MID + ("Qwen3NextForCausalLM",)\n',
    "sglang/srt/cyc_a.py": 'from sglang.srt.cyc_b import _CB_ARCHS\n\n'
                           '_CA_ARCHS = _CB_ARCHS | {"Qwen3_5ForConditionalGeneration"}\n',
    "sglang/srt/cyc_b.py": 'from sglang.srt.cyc_a import _CA_ARCHS\n\n_CB_ARCHS = _CA_ARCHS | {"Qwen3_5ForCausalLM"}\n',
    "sglang/srt/pred_a.py": 'from sglang.srt.pred_b import is_b\n\n\ndef is_a(arch):\n'
                            '    return arch in ("Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM") or is_b(arch)\n',
    "sglang/srt/pred_b.py": 'from sglang.srt.pred_a import is_a\n\n\ndef is_b(arch):\n'
                            '    return arch in ("Qwen3_5ForConditionalGeneration",) or is_a(arch)\n',
}


def test_resolution_kept_between_checks_is_what_a_cold_run_resolves(editor):
    """The session keeps the last run's resolution (`resolve/memory_resolutions.py`): each check below changes a file
    that other results were resolved through (a chain of imports, a cycle of collections, a cycle of
    predicates), by moving its lines (the same facts elsewhere) or by changing what it holds."""
    for rel, text in CHAIN.items():
        (editor.root / rel).write_text(text, encoding="utf-8")
    editor.open("sglang/srt/archs_c.py")
    first = editor.expect(reused=False)
    assert any("_TOP_ARCHS" in d.text for d, _ in first), _messages(first)
    assert any(d.path == "sglang/srt/cyc_a.py" and d.code == "ARC901" for d, _ in first), _messages(first)
    for rel in ("sglang/srt/archs_c.py", "sglang/srt/cyc_a.py", "sglang/srt/cyc_b.py", "sglang/srt/pred_b.py",
                "sglang/srt/archs_b.py"):
        editor.open(rel)
        editor.edit(rel, CHAIN[rel][:12], "# moved\n# down\n" + CHAIN[rel][:12])  # lines moved
        moved = editor.expect(reused=False)
        assert len(moved) == len(first), _messages(moved)
    # what a result two imports away was resolved through changes: the result changes
    editor.edit("sglang/srt/archs_c.py", ', "Qwen3_5MoeForConditionalGeneration"', "")
    fewer = editor.expect(reused=False)
    assert fewer != first
    editor.edit("sglang/srt/cyc_b.py", '{"Qwen3_5ForCausalLM"}', '{"Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"}')
    editor.expect(reused=False)
    editor.edit("sglang/srt/pred_b.py", '("Qwen3_5ForConditionalGeneration",)', '("Qwen3NextForCausalLM",)')
    editor.expect(reused=False)
    # the chain cut in the middle, on disk: the file the chain goes through deleted, then written again
    del editor.buffers["sglang/srt/archs_b.py"]
    (editor.root / "sglang/srt/archs_b.py").unlink()
    cut = editor.expect(reused=False)
    assert any("`_MID` comes from sglang.srt.archs_b, outside" in d.text for d, _ in cut), _messages(cut)
    (editor.root / "sglang/srt/archs_b.py").write_text(CHAIN["sglang/srt/archs_b.py"], encoding="utf-8")
    again = editor.expect(reused=False)
    assert not any("outside the project" in d.text for d, _ in again), _messages(again)


LLAMA = "srv/models/llama.py"
GEMMA = "srv/models/gemma.py"
QUANT = "srv/layers/quant.py"
NAMES = "srv/names.py"
KIMI = "srv/models/kimi_linear.py"


def _kin(path: str, name: str, subject: str, base: str, where: str, more: str = "", sure: str = "0.85") -> str:
    return (f"{path}: ARC105 '{name}' may belong in {subject}: it runs the code of '{base}' (`class {name}({base})` "
            f"defines no method, at {where}){more} (confidence {sure})")


def _gemma(where: str) -> str:
    return _kin("srv/layers/norm.py:3", "Gemma2ForCausalLM", "SOFTCAP_ARCHS", "GemmaForCausalLM", where,
                "; is a newer generation of 'GemmaForCausalLM'", "0.90")


def _mistral(path: str, subject: str, where: str) -> str:
    return _kin(path, "MistralForCausalLM", subject, "LlamaForCausalLM", where)


@pytest.fixture(params=["watched", "unwatched"])
def kin_editor(request, tmp_path):
    root = copy_tree(SOURCE_FIXTURES / "kinship" / "moved_lines", tmp_path / "moved_lines").resolve()
    return Editor(root, tmp_path, watched=request.param == "watched")


def test_kept_findings_name_the_lines_an_edit_moved_classes_to(kin_editor):
    """The session keeps the files it chose, the kinship and ARC105's findings between checks
    (`resolve/memory_choice.py`, `resolve/memory_kinship.py`, `rules/memory_arc105.py`). ARC105's messages name
    where a class is written: lines moved in its file give the new line, while the other file's finding
    stands as it was; what a class says (a method of its own) weighs it again; a list written into a
    file no batch of the last choice held is chosen and checked."""
    editor = kin_editor
    (editor.root / QUANT).write_text('"""FP8 kernels."""\n', encoding="utf-8")
    (editor.root / NAMES).write_text('"""Architecture names used across layers."""\n\n'
                                     'LLAMA_NAME = "LlamaForCausalLM"\nPHI_NAME = "PhiForCausalLM"\n', encoding="utf-8")
    (editor.root / "srv/layers/kv.py").write_text('"""KV cache layouts."""\nfrom srv.names import LLAMA, PHI\n\n'
                                                  '_KV_MODELS = [LLAMA, PHI]\n\n\ndef kv_layout(arch):\n'
                                                      '    return "paged" if arch in _KV_MODELS else "flat"\n',
                                                      encoding="utf-8")
    editor.open(LLAMA)
    first = editor.expect(reused=False)
    assert _messages(first) == [_gemma("srv/models/gemma.py:14"),
                                _mistral("srv/layers/rope.py:3", "SCALED_ROPE_ARCHS", "srv/models/llama.py:20")]
    text = editor.buffers[LLAMA]
    for lines in (2, 3, 1):
        editor.buffers[LLAMA] = "# moved\n" * lines + text
        assert _messages(editor.expect(reused=False)) == [
            _gemma("srv/models/gemma.py:14"),
            _mistral("srv/layers/rope.py:3", "SCALED_ROPE_ARCHS", f"srv/models/llama.py:{20 + lines}")]
    editor.open(GEMMA)
    editor.buffers[GEMMA] = "# moved\n# down\n" + editor.buffers[GEMMA]
    assert _messages(editor.expect(reused=False)) == [
        _gemma("srv/models/gemma.py:16"),
        _mistral("srv/layers/rope.py:3", "SCALED_ROPE_ARCHS", "srv/models/llama.py:21")]
    # a method of its own: Mistral shares less of Llama's code, below "strong"; then moved back
    editor.edit(LLAMA, "class MistralForCausalLM(LlamaForCausalLM):\n    pass\n",
                "class MistralForCausalLM(LlamaForCausalLM):\n    def forward(self, input_ids, positions):\n"
                "        return input_ids\n")
    assert _messages(editor.expect(reused=False)) == [_gemma("srv/models/gemma.py:16")]
    editor.buffers[LLAMA] = "\n\n" + text
    assert _messages(editor.expect(reused=False)) == [
        _gemma("srv/models/gemma.py:16"),
        _mistral("srv/layers/rope.py:3", "SCALED_ROPE_ARCHS", "srv/models/llama.py:22")]
    # a list where there was none, in a file chosen for the names it quotes
    editor.open(QUANT)
    editor.buffers[QUANT] += ('\n_FP8_MODELS = ["LlamaForCausalLM", "PhiForCausalLM"]\n\n\n'
                              'def fp8(arch):\n    return arch in _FP8_MODELS\n')
    assert _messages(editor.expect(reused=False)) == [
        _gemma("srv/models/gemma.py:16"),
        _mistral("srv/layers/quant.py:3", "_FP8_MODELS", "srv/models/llama.py:22"),
        _mistral("srv/layers/rope.py:3", "SCALED_ROPE_ARCHS", "srv/models/llama.py:22")]
    # a list of constants from a module whose facts (not its bytes' signals) come to define them: the
    # file importing them is chosen in a later batch than the last choice's (quant.py closed unsaved)
    del editor.buffers[QUANT]
    editor.open(NAMES)
    assert _messages(editor.expect(reused=False)) == [
        _gemma("srv/models/gemma.py:16"),
        _mistral("srv/layers/rope.py:3", "SCALED_ROPE_ARCHS", "srv/models/llama.py:22")]
    editor.edit(NAMES, "LLAMA_NAME = ", "LLAMA = ")
    editor.edit(NAMES, "PHI_NAME = ", "PHI = ")
    assert _messages(editor.expect(reused=False)) == [
        _mistral("srv/layers/kv.py:4", "_KV_MODELS", "srv/models/llama.py:22"),
        _gemma("srv/models/gemma.py:16"),
        _mistral("srv/layers/rope.py:3", "SCALED_ROPE_ARCHS", "srv/models/llama.py:22")]


def test_kept_kinship_names_the_line_a_config_class_use_moved_to(tmp_path):
    """With kinship = "all", a config class two models are built with names where one is written: the
    session's kept kinship takes that use from the moved lines."""
    root = copy_tree(SOURCE_FIXTURES / "kinship" / "config_class", tmp_path / "config_class").resolve()
    editor = Editor(root, tmp_path, watched=True)
    editor.open(KIMI)
    expected = "srv/scheduling.py:3: ARC105 'KimiK3LinearForCausalLM' may belong in CHUNKED_PREFILL_ARCHS: it " \
               "appears with 'KimiLinearForCausalLM' in 3 of the 4 lists that hold it; is built with the same " \
               "config class KimiLinearConfig as 'KimiLinearForCausalLM' (srv/models/kimi_linear.py:{}) " \
               "(confidence 0.44)"
    assert _messages(editor.expect(reused=False)) == [expected.format(15)]
    text = editor.buffers[KIMI]
    for lines in (1, 4):
        editor.buffers[KIMI] = "# moved\n" * lines + text
        assert _messages(editor.expect(reused=False)) == [expected.format(15 + lines)]


def test_sibling_tables_no_longer_looked_up_by_class_weigh_the_one_that_still_is_again(tmp_path):
    """ARC105 keeps a subject's findings while what it read is unchanged (`rules/memory_arc105.py`). What
    `_not_in_own_tables` read is the other lite tables looked up with a class name: when two of them come
    to be looked up with the architecture string instead, the third, unchanged, is weighed again (with
    nothing else changed, no list and no class, the kept findings would otherwise stand)."""
    root = copy_tree(SOURCE_FIXTURES / "consumers" / "own_tables", tmp_path / "own_tables").resolve()
    editor = Editor(root, tmp_path, watched=True)
    lite = "serve/lite/calibrate.py"
    editor.open(lite)
    assert [d.path for d, _ in editor.expect(reused=False)] == ["serve/layers/rope.py"]
    editor.edit(lite, "NORM_MAP[model_type], HEAD_MAP[model_type]", "NORM_MAP[model.arch], HEAD_MAP[model.arch]")
    assert [(d.path, d.line) for d, _ in editor.expect(reused=False)] == [
        ("serve/layers/rope.py", 2), ("serve/lite/calibrate.py", 3)]


def test_a_buffer_whose_lines_moved_is_read_once(tmp_path, monkeypatch):
    """The record the check of the last run's findings made of the edited buffer is the run's: its facts
    are not extracted again (a model file is among the largest a check reads)."""
    import lint_plugin.project.file_facts as file_facts

    root = copy_tree(SOURCE_FIXTURES / "sglang_qwen3_5" / "bug", tmp_path / "bug").resolve()
    session = Session(root)
    text = (root / OVERRIDES).read_bytes()
    session.check({OVERRIDES: text})
    read: List[str] = []
    extract = file_facts.extract_file

    def counted(source, path, *args, **kwargs):
        read.append(path)
        return extract(source, path, *args, **kwargs)

    monkeypatch.setattr(file_facts, "extract_file", counted)
    moved = session.check({OVERRIDES: b"# moved\n" + text})
    assert read == [OVERRIDES]
    assert [(d.line, d.code) for d in moved.diagnostics] == [(d.line, d.code) for d in Session(root).check(
        {OVERRIDES: b"# moved\n" + text}).diagnostics]


def test_names_only_resolution_registers_choose_files_again_through_edits(tmp_path):
    """Where resolution registers names the prefilter never read as registered (a support table, beside readers
    filed under the engine's own names), those names choose files in a second round (`resolve/chosen.py`). The
    session's kept choice and resolution must give what a cold run does at every step: a list quoting only the
    table's names, its typo fixed and made again, and the readers' registry turned into one keyed by model type
    (two of its three keys then known), which registers instead of the table."""
    root = copy_tree(SOURCE_FIXTURES / "shapes" / "support_table_readers", tmp_path / "readers").resolve()
    editor = Editor(root, tmp_path, watched=False)
    rope, readers = "deploy/rope.py", "deploy/fast/readers.py"
    editor.open(rope)
    editor.open(readers)
    typo = ("deploy/rope.py:5: ARC201 'CharlieForCasualLM' in needs_rope_scaling.scaled is not a registered "
            "architecture; did you mean 'CharlieForCausalLM'?")
    assert _messages(editor.expect(reused=False)) == [typo]
    editor.edit(rope, "CharlieForCasualLM", "CharlieForCausalLM")
    assert _messages(editor.expect(reused=False)) == []
    editor.edit(rope, "CharlieForCausalLM", "CharlieForCasualLM")
    assert _messages(editor.expect(reused=False)) == [typo]
    editor.edit(readers, 'name="alpha"', 'name="qwen2"')
    assert _messages(editor.expect(reused=False)) == [
        f"deploy/eager/supported_models.py:{line}: ARC201 '{name}' in _SUPPORTED_ARCHS is not a registered "
        "architecture" for line, name in ((4, "AlphaForCausalLM"), (5, "BravoForCausalLM"), (6, "CharlieForCausalLM"))]
    editor.edit(readers, 'name="qwen2"', 'name="alpha"')
    assert _messages(editor.expect(reused=False)) == [typo]
