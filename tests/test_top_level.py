"""Parse less: a file read for its lists of model types alone keeps only what spells `model_type`."""
from __future__ import annotations

import ast

from lint_plugin.config import load_config
from lint_plugin.extract.from_bytes import extract_file
from lint_plugin.extract.top_level import blocks_spelling
from lint_plugin.project.discovery import SourceFile
from lint_plugin.project.file_facts import model_type_facts
from lint_plugin.rules.codes import CODES

SOURCE = '''"""Serving helpers."""
import os

MLA_TYPES = ("deepseek_v2", "deepseek_v3")


@cache(
    size=1,
)
def page_size(config):
    if config.architectures[0] in ("DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"):
        return 1
    return 16


class Runner(Base):
    """Runs a model."""

    LIMIT = 4

    @property
    def name(self):
        return "runner"

    def uses_mla(self, config):
        return config.model_type in MLA_TYPES

    async def close(self):
        pass
# a note at column 0, inside the class


async def serve():
    pass
'''

EXPECTED = '''"""Serving helpers."""
import os

MLA_TYPES = ("deepseek_v2", "deepseek_v3")











class Runner(Base):
    """Runs a model."""

    LIMIT = 4

    pass



    def uses_mla(self, config):
        return config.model_type in MLA_TYPES

    pass






'''


def test_definitions_that_do_not_spell_the_word_are_blanked_and_every_kept_line_stays_where_it_was():
    reduced = blocks_spelling(SOURCE.encode(), [b"model_type"]).decode()
    assert reduced == EXPECTED
    ast.parse(reduced)


def test_a_file_without_the_word_keeps_its_module_level_statements_alone():
    assert blocks_spelling(b"X = 1\n\n\ndef f():\n    return 2\n", [b"model_type"]) == b"X = 1\n\n\n\n\n"


def test_the_facts_of_what_is_kept_are_the_whole_files_facts_there():
    whole = extract_file(SOURCE.encode(), "serve/runner.py", "serve.runner", (), False, r"[A-Z]\w+For\w+")
    reduced = extract_file(blocks_spelling(SOURCE.encode(), [b"model_type"]), "serve/runner.py", "serve.runner", (),
                           False, r"[A-Z]\w+For\w+")
    kept = {c.name for c in reduced.collections}
    assert kept == {"MLA_TYPES"} and "page_size#1" in {c.name for c in whole.collections}
    assert [c for c in whole.collections if c.name in kept] == list(reduced.collections)
    assert reduced.type_keyed == whole.type_keyed == ("MLA_TYPES",)


GROWN = '''TEMPLATES = {"llama": "llama-2"}


def register_template(name, template):
    TEMPLATES[name] = template


register_template("deepseek_v3", "deepseek")


def template_of(config):
    return TEMPLATES.get(config.model_type)
'''


def test_a_table_looked_up_with_a_model_type_is_read_wherever_the_module_writes_it(tmp_path):
    """`register_template` spells no `model_type`, but writes the table `template_of` looks up with one:
    reading in part keeps it, and the table holds what the whole file says."""
    config = load_config(tmp_path, CODES)
    source = SourceFile(str(tmp_path / "templates.py"), "templates.py", "templates", False)
    whole = extract_file(GROWN.encode(), "templates.py", "templates", (), False, config.name_pattern)
    part = model_type_facts(config, source, GROWN.encode())
    assert part is not None and part.type_keyed == whole.type_keyed == ("TEMPLATES",)
    assert [c for c in part.collections if c.name == "TEMPLATES"] == \
        [c for c in whole.collections if c.name == "TEMPLATES"]
