"""`archsync show`: families (rows) against guarded collections (columns), on the seed trees.

Each cell is full, partial (with what is missing) or absent; drawn as a terminal table,
Markdown, or a self-contained HTML page.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from conftest import EXIT_CLEAN, EXIT_ERROR, SGLANG_BUG, SGLANG_FIXED, SHAPES, add_config, archsync


def _show(root, *args):
    result = archsync("show", *args, cwd=root)
    assert result.returncode == EXIT_CLEAN, result
    return result


# -- text -----------------------------------------------------------------------------------------

def test_text_table_of_the_bug_tree():
    result = _show(SGLANG_BUG)
    assert result.stdout == (
        "family \\ collection  [1]         [2]\n"
        "is_qwen3_5()         partial -2  partial -2\n"
        "is_qwen3_next()      full        full\n"
        "\n"
        "[1] _MAMBA_EXTRA_BUFFER_ARCHS (sglang/srt/arg_groups/overrides.py:48)\n"
        "[2] _MAMBA_RADIX_CACHE_ARCHS (sglang/srt/arg_groups/overrides.py:35)\n"
        "\n"
        "Partial cells:\n"
        "  is_qwen3_5() -> _MAMBA_EXTRA_BUFFER_ARCHS: missing Qwen3_5ForCausalLM, Qwen3_5MoeForCausalLM\n"
        "  is_qwen3_5() -> _MAMBA_RADIX_CACHE_ARCHS: missing Qwen3_5ForCausalLM, Qwen3_5MoeForCausalLM\n"
    ), result


def test_text_table_with_every_collection_shows_absent_cells():
    result = _show(SGLANG_BUG, "--all")
    assert result.stdout == (
        "family \\ collection  [1]         [2]         [3]  [4]  [5]\n"
        "is_qwen3_5()         partial -2  partial -2  -    -    -\n"
        "is_qwen3_next()      full        full        -    -    -\n"
        "\n"
        "[1] _MAMBA_EXTRA_BUFFER_ARCHS (sglang/srt/arg_groups/overrides.py:48)\n"
        "[2] _MAMBA_RADIX_CACHE_ARCHS (sglang/srt/arg_groups/overrides.py:35)\n"
        "[3] _NSA_PREFILL_CP_ARCHS (sglang/srt/arg_groups/overrides.py:60)\n"
        # the literal of is_deepseek_dsa (a capability, no family) and `model_arch == "Granite..."`
        "[4] is_deepseek_dsa#1 (sglang/srt/configs/model_config.py:34)\n"
        "[5] supports_mamba_cache_extra_buffer#1 (sglang/srt/arg_groups/overrides.py:64)\n"
        "\n"
        "Partial cells:\n"
        "  is_qwen3_5() -> _MAMBA_EXTRA_BUFFER_ARCHS: missing Qwen3_5ForCausalLM, Qwen3_5MoeForCausalLM\n"
        "  is_qwen3_5() -> _MAMBA_RADIX_CACHE_ARCHS: missing Qwen3_5ForCausalLM, Qwen3_5MoeForCausalLM\n"
    ), result


def test_text_table_of_the_fixed_tree_is_all_full():
    # The fix adds two names to the radix-cache whitelist: the extra-buffer one moves to line 50.
    result = _show(SGLANG_FIXED)
    assert result.stdout == (
        "family \\ collection  [1]   [2]\n"
        "is_qwen3_5()         full  full\n"
        "is_qwen3_next()      full  full\n"
        "\n"
        "[1] _MAMBA_EXTRA_BUFFER_ARCHS (sglang/srt/arg_groups/overrides.py:50)\n"
        "[2] _MAMBA_RADIX_CACHE_ARCHS (sglang/srt/arg_groups/overrides.py:35)\n"
    ), result


def test_show_when_no_family_meets_a_guarded_collection():
    result = _show(SHAPES / "capability")
    assert result.stdout == "No family meets a guarded collection.\n", result


def test_show_reads_a_project_from_a_path_inside_it():
    assert _show(SGLANG_BUG / "sglang" / "srt", "--format", "markdown").stdout == \
        _show(SGLANG_BUG, "--format", "markdown").stdout


def test_show_stops_on_a_configuration_error(tree):
    root = tree("sglang_qwen3_5/bug")
    add_config(root, "bogus = 1")
    for fmt in ("text", "markdown", "html"):
        result = archsync("show", "--format", fmt, cwd=root)
        assert result.returncode == EXIT_ERROR, result
        assert result.stdout == "", result
        assert "tool.archsync.bogus" in result.stderr, result


# -- markdown --------------------------------------------------------------------------------------

def test_markdown_of_the_bug_tree():
    result = _show(SGLANG_BUG, "--format", "markdown")
    assert result.stdout == (
        "| family | `_MAMBA_EXTRA_BUFFER_ARCHS` | `_MAMBA_RADIX_CACHE_ARCHS` |\n"
        "|---|---|---|\n"
        "| `is_qwen3_5()` | partial, missing `Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` "
        "| partial, missing `Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` |\n"
        "| `is_qwen3_next()` | full | full |\n"
    ), result


def test_markdown_with_every_collection_leaves_absent_cells_empty():
    result = _show(SGLANG_BUG, "--format", "markdown", "--all")
    assert result.stdout == (
        "| family | `_MAMBA_EXTRA_BUFFER_ARCHS` | `_MAMBA_RADIX_CACHE_ARCHS` | `_NSA_PREFILL_CP_ARCHS` "
        "| `is_deepseek_dsa#1` | `supports_mamba_cache_extra_buffer#1` |\n"
        "|---|---|---|---|---|---|\n"
        "| `is_qwen3_5()` | partial, missing `Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` "
        "| partial, missing `Qwen3_5ForCausalLM`, `Qwen3_5MoeForCausalLM` |  |  |  |\n"
        "| `is_qwen3_next()` | full | full |  |  |  |\n"
    ), result


# -- html ------------------------------------------------------------------------------------------

class _Table(HTMLParser):
    """Rows of the page's table: each cell as (tag, class, title, text, list items)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows, self.tags, self.attributes = [], [], []
        self._cell = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend(attrs)
        attrs = dict(attrs)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = {"tag": tag, "class": attrs.get("class"), "title": attrs.get("title"), "text": "",
                          "items": []}
        elif tag == "li" and self._cell is not None:
            self._cell["items"].append("")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._cell["text"] = " ".join(self._cell["text"].split())
            self.rows[-1].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            if self._cell["items"] and self.tags and "li" in self.tags[-2:]:
                self._cell["items"][-1] += data
            else:
                self._cell["text"] += data


def _page(*args):
    result = _show(SGLANG_BUG, "--format", "html", *args)
    page = result.stdout
    table = _Table()
    table.feed(page)
    table.close()
    return page, table


def _assert_self_contained(page, table):
    assert page.startswith("<!DOCTYPE html>"), page
    assert page.rstrip().endswith("</html>"), page
    assert '<meta charset="utf-8">' in page, page
    assert re.search(r"<title>[^<]+</title>", page), page
    lowered = page.lower()
    assert "<script" not in lowered and "javascript:" not in lowered, page
    assert "http://" not in lowered and "https://" not in lowered, page
    assert "@import" not in lowered and "url(" not in lowered, page
    assert not {"link", "img", "iframe", "object", "embed"} & set(table.tags), table.tags
    assert not [(k, v) for k, v in table.attributes if k in ("src", "href")], table.attributes


def _cells(row):
    return [(c["tag"], c["class"], c["text"], c["items"]) for c in row]


def test_html_of_the_bug_tree_is_a_self_contained_page():
    page, table = _page()
    _assert_self_contained(page, table)
    assert [_cells(row) for row in table.rows] == [
        [("th", None, "family", []), ("th", None, "_MAMBA_EXTRA_BUFFER_ARCHS", []),
         ("th", None, "_MAMBA_RADIX_CACHE_ARCHS", [])],
        [("th", None, "is_qwen3_5()", []),
         ("td", "partial", "partial, missing", ["Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"]),
         ("td", "partial", "partial, missing", ["Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"])],
        [("th", None, "is_qwen3_next()", []), ("td", "full", "full", []), ("td", "full", "full", [])],
    ], page
    # Where each family and collection is defined, on hover.
    assert [c["title"] for c in table.rows[0][1:]] == [
        "sglang/srt/arg_groups/overrides.py:48", "sglang/srt/arg_groups/overrides.py:35"]
    assert [row[0]["title"] for row in table.rows[1:]] == [
        "sglang/srt/configs/model_config.py:18", "sglang/srt/configs/model_config.py:14"]


def test_html_with_every_collection_marks_absent_cells():
    page, table = _page("--all")
    _assert_self_contained(page, table)
    assert [_cells(row) for row in table.rows] == [
        [("th", None, "family", []), ("th", None, "_MAMBA_EXTRA_BUFFER_ARCHS", []),
         ("th", None, "_MAMBA_RADIX_CACHE_ARCHS", []), ("th", None, "_NSA_PREFILL_CP_ARCHS", []),
         ("th", None, "is_deepseek_dsa#1", []), ("th", None, "supports_mamba_cache_extra_buffer#1", [])],
        [("th", None, "is_qwen3_5()", []),
         ("td", "partial", "partial, missing", ["Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"]),
         ("td", "partial", "partial, missing", ["Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"]),
         ("td", "absent", "", []), ("td", "absent", "", []), ("td", "absent", "", [])],
        [("th", None, "is_qwen3_next()", []), ("td", "full", "full", []), ("td", "full", "full", []),
         ("td", "absent", "", []), ("td", "absent", "", []), ("td", "absent", "", [])],
    ], page


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_show_is_the_same_twice(fmt):
    assert _show(SGLANG_BUG, "--format", fmt).stdout == _show(SGLANG_BUG, "--format", fmt).stdout
