"""ARC107 beyond its examples: which lists the baseline had, as the change left them (in process, two trees)."""
from __future__ import annotations

from pathlib import Path

from lint_plugin import pipeline

MODELS_THEN = ("models/kestrel.py", "class KestrelForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                                    "class WrenForCausalLM:\n    def forward(self):\n        pass\n\n\n"
                                    "EntryClass = [KestrelForCausalLM, WrenForCausalLM]\n")
MODELS_NOW = ("models/kestrel.py", MODELS_THEN[1].replace(
    "EntryClass = [KestrelForCausalLM, WrenForCausalLM]\n",
    "class KestrelV2ForCausalLM(KestrelForCausalLM):\n    pass\n\n\n"
    "EntryClass = [KestrelForCausalLM, WrenForCausalLM, KestrelV2ForCausalLM]\n"))
TEST = "    if config.architectures[0] == \"{}\":\n        return \"{}\"\n"


def new_findings(tmp_path: Path, then, now) -> list:
    def tree(name, files):
        root = tmp_path / name
        for path, text in files:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        (root / "pyproject.toml").write_text("", encoding="utf-8")
        return pipeline.run(pipeline.Request((root,), use_cache=False))

    done, baseline = tree("now", now), tree("then", then)
    return [f"{d.code} {d.subject} {d.member}" for d in pipeline.since(done, baseline, done.diagnostics).new]


def backend(*tests) -> tuple:
    return ("layers/attention.py", "def attention_backend(config):\n" + "".join(TEST.format(*t) for t in tests)
            + "    return \"mha\"\n")


def test_a_test_the_baseline_had_as_it_was_is_asked(tmp_path):
    then = (MODELS_THEN, backend(("WrenForCausalLM", "wren"), ("KestrelForCausalLM", "mla")))
    now = (MODELS_NOW, backend(("WrenForCausalLM", "wren"), ("KestrelForCausalLM", "mla")))
    assert new_findings(tmp_path, then, now) == ["ARC107 attention_backend#2 KestrelV2ForCausalLM"]


def test_a_test_the_change_inserted_is_not_asked_though_it_takes_the_number_of_one_the_baseline_had(tmp_path):
    then = (MODELS_THEN, backend(("WrenForCausalLM", "wren")))
    now = (MODELS_NOW, backend(("KestrelForCausalLM", "mla"), ("WrenForCausalLM", "wren")))  # #1 is new
    assert new_findings(tmp_path, then, now) == []


def test_a_test_the_change_rewrote_is_not_asked(tmp_path):
    then = (MODELS_THEN, backend(("WrenForCausalLM", "mla")))
    now = (MODELS_NOW, ("layers/attention.py", backend(("WrenForCausalLM", "mla"))[1].replace(
        '== "WrenForCausalLM"', 'in ("KestrelForCausalLM",)')))  # Wren out, Kestrel in: the author chose
    assert new_findings(tmp_path, then, now) == []
