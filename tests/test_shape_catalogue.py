"""Extraction and the fixer share one catalogue of shapes: each is read, then edited or refused with a reason.

`lint_plugin.extract.shapes.SHAPES` writes every way of spelling a collection once. Each is
checked through the real pipeline (in process) and the real editor: the collection reads
`AlphaForCausalLM`, and asking the editor to add `GammaForCausalLM` either adds it (the
pipeline then reads it too) or refuses in words. An internal error or a silent no-op fails.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from lint_plugin import pipeline
from lint_plugin.config import Config
from lint_plugin.diagnostics import FixRequest
from lint_plugin.extract.shapes import SHAPES, Shape
from lint_plugin.fix.editor import apply_fixes

# Shapes the editor refuses, and the reason it gives: anything else must be edited.
REFUSED = {
    "list equality": "uses#1 tests one name at a time (`==`, `startswith`, `\"A\" in arch`), not a literal list "
                     "archsync can edit; add a test for 'GammaForCausalLM' by hand",
    "grown by item": "ARCHS maps names to values, and with no peer entry to copy archsync cannot tell what "
                     "'GammaForCausalLM' should map to",
}


def _collection(root: Path, shape: Shape):
    config = Config(root, guard=(shape.target,), registries=())
    model = pipeline.run_with(config, pipeline.Request(use_cache=False)).model
    (found,) = [c for c in model.collections if c.subject == shape.target]
    return found


@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_every_shape_is_read_and_then_edited_or_refused_with_a_reason(tmp_path, shape):
    module = tmp_path / "lists.py"
    module.write_text(shape.source, encoding="utf-8")
    collection = _collection(tmp_path, shape)
    assert "AlphaForCausalLM" in collection.members.names and not collection.members.unknown, collection
    request = FixRequest("add", "lists.py", shape.target, collection.line, "GammaForCausalLM", ("AlphaForCausalLM",))
    result = apply_fixes(shape.source.encode(), [request])
    if shape.name in REFUSED:
        assert [r.reason for r in result.refused] == [REFUSED[shape.name]]
        assert result.source == shape.source.encode()
        return
    assert result.refused == () and result.applied == (request,), result
    module.write_bytes(result.source)
    assert _collection(tmp_path, shape).members.names == collection.members.names | {"GammaForCausalLM"}


def test_the_catalogue_names_each_shape_once():
    assert len({s.name for s in SHAPES}) == len(SHAPES)
    assert set(REFUSED) <= {s.name for s in SHAPES}
