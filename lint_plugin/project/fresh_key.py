"""The key a run would give the record of an edited file: what the result cache's check recomputes.

A file the run asked for its byte signals alone (level 0: most files of a tree, vLLM's model
files among them) needs the prefilter and nothing of extraction, whose modules are most of what
loading the engine costs: they are imported only for a file whose facts the run read.
"""
from __future__ import annotations

from ..config import Config
from .discovery import SourceFile
from .prefilter import Prefilter, stored_signals
from .results import TYPED, TYPED_REGISTERED, record_key


def fresh_key(config: Config, prefilter: Prefilter, source: SourceFile, data: bytes, level: int) -> str:
    """The key a run would give the record of these bytes, asked `level` of them (`record_states`)."""
    signals = stored_signals(prefilter.signals(data))
    if level == 0:
        return record_key(0, signals, False, None)
    if level == 3:  # whether its bytes bind a name was asked: keyed by the bytes
        from .files import digest

        return record_key(3, signals, False, [digest(data)])
    from .codec import encode_facts
    from .file_facts import JobState, facts_for, model_type_facts

    if level in (TYPED, TYPED_REGISTERED):  # read in part for its lists of model types: keyed by those
        typed = model_type_facts(config, source, data)
        if typed is None:
            return ""  # the part does not parse now: the run reads the whole file, so no stored key holds
        registered, partial = None, False
        if level == TYPED_REGISTERED:
            facts, partial = facts_for(JobState(config, prefilter), source, data, full=False)
            registered = encode_facts(facts)
        return record_key(level, signals, partial, [registered, encode_facts(typed)])
    facts, partial = facts_for(JobState(config, prefilter), source, data, full=level == 2)
    return record_key(level, signals, partial, encode_facts(facts))
