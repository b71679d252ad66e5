"""Facts of one file's bytes, as the index asks for them: all of them, or its registrations alone.

The index's workers call these, and so does the result cache's check of an edited file
(`fresh_key.py`), which must give the record a run would give; kept apart from the index so that
check needs neither the worker pool nor the index.
"""
from __future__ import annotations

import dataclasses
from typing import Optional, Tuple

from ..config import Config
from ..extract.facts import FileFacts
from ..extract.from_bytes import extract_file, extract_registrations
from ..extract.model_type_keys import MODEL_TYPE
from ..extract.source_text import Refused, source_text
from ..extract.top_level import blocks_spelling
from .discovery import SourceFile
from .prefilter import Prefilter


class JobState:
    """What workers need: the configuration and its prefilter (inherited at fork). `digests`:
    whether records need the digest of their bytes, which only a cache (index or results) reads."""

    def __init__(self, config: Config, prefilter: Prefilter, digests: bool = True) -> None:
        self.config = config
        self.prefilter = prefilter
        self.digests = digests


def facts_for(job: JobState, source: SourceFile, data: bytes, full: bool) -> Tuple[FileFacts, bool]:
    """(facts, partial): all facts, or registrations from their statements alone when safe."""
    if not full:
        alone = registrations_alone(job.prefilter, job.config, source, data)
        if alone is not None:
            return alone, True
    return complete_facts(job.prefilter, job.config, source, data), False


def registrations_alone(prefilter: Prefilter, config: Config, source: SourceFile, data: bytes
                        ) -> Optional[FileFacts]:
    """Registrations read from their column-0 statements without the rest of the file, or None
    when that is not safe (indented or unbalanced statements, aliased class names) or the file
    is one Python would not decode (it registers nothing when run)."""
    snippets = prefilter.registration_snippets(data)
    if snippets is None or isinstance(source_text(data), Refused):
        return None
    facts = extract_registrations(snippets, source.rel, source.module, config.registries)
    # aliased class names (`import X as Name`) need the import table: parse it all
    if facts is None or any(b" as " + m.name.encode() in data for r in facts.registrations for m in r.names):
        return None
    return facts


def complete_facts(prefilter: Prefilter, config: Config, source: SourceFile, data: bytes) -> FileFacts:
    """All facts of a file. One that does not parse still registers what its registration
    statements say when they parse alone, as the first pass reads them without the rest (one
    Python would not decode registers nothing)."""
    facts = extract_file(data, source.rel, source.module, config.registries, source.is_package, config.name_pattern)
    if facts.error is None:
        return facts
    alone = registrations_alone(prefilter, config, source, data)
    return dataclasses.replace(facts, registrations=alone.registrations) if alone is not None else facts


def model_type_facts(config: Config, source: SourceFile, data: bytes) -> Optional[FileFacts]:
    """The facts of a file read for its lists of model types alone (`resolve/model_types.py`): of its
    module-level statements and the functions and methods that spell `model_type`, or one of the tables
    it looks up with one (a function may add to a table: `TABLE[name] = ...`); None when that text does
    not parse (the whole file is read then)."""
    words = [MODEL_TYPE]
    while True:
        text = blocks_spelling(data, words)
        facts = extract_file(text, source.rel, source.module, config.registries, source.is_package,
                             config.name_pattern)
        if facts.error is not None:
            return None
        # a table of the module's own that the text read leaves out somewhere: read where it is written too
        left_out = [table for table in (name.encode() for name in facts.type_keyed if name.isidentifier())
                    if table not in words and data.count(table) != text.count(table)]
        if not left_out:
            return facts
        words += left_out
