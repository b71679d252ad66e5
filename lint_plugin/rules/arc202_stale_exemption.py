"""ARC202 stale-exemption: an exemption no longer suppresses anything (reported by `report.exemptions`)."""
from __future__ import annotations

from ..config import Exemption
from ..diagnostics import Diagnostic
from .rule import Example, Rule

_CONFIG = ("[tool.archsync]\n\n[[tool.archsync.exempt]]\nsubject = \"_CUDA_GRAPH_ARCHS\"\n"
           "members = [\"Gemma3ForCausalLM\"]\nreason = \"a text-only twin not captured yet\"\n")
_MODELS = ("models.py", "class Gemma3ForConditionalGeneration: pass\nclass Gemma3ForCausalLM: pass\n"
                        "class Gemma2ForCausalLM: pass\n"
                        "EntryClass = [Gemma3ForConditionalGeneration, Gemma3ForCausalLM, Gemma2ForCausalLM]\n")


def diagnostic(exemption: Exemption, member: str, config_path: str) -> Diagnostic:
    return Diagnostic(config_path, exemption.line, 1, RULE.code,
                      f"exemption for '{member}' in {exemption.subject} no longer suppresses anything "
                      f"({exemption.origin}); remove it",
                      subject=exemption.subject, member=member)


RULE = Rule(
    code="ARC202",
    name="stale-exemption",
    summary="an exemption no longer suppresses anything",
    what="A `[[tool.archsync.exempt]]` member of the project's own configuration that did not suppress any "
         "diagnostic in this run. Reported in pyproject.toml at the exemption's table. Exemptions that come "
         "from a rule pack are not reported.",
    why="Exceptions outlive the reason they were written for and then hide new drift.",
    fix_doc="Delete the member (or the whole exemption) from pyproject.toml.",
    exempt_doc="",
    examples=(
        Example("an exemption written for a difference that was fixed since", (
            ("pyproject.toml", _CONFIG), _MODELS,
            ("graphs.py", "_CUDA_GRAPH_ARCHS = [\"Gemma3ForConditionalGeneration\", \"Gemma3ForCausalLM\"]\n"),
        ), ("pyproject.toml:3:1: ARC202 exemption for 'Gemma3ForCausalLM' in _CUDA_GRAPH_ARCHS no longer suppresses "
            "anything (pyproject.toml: tool.archsync.exempt[0]); remove it",), corrected=(
            ("pyproject.toml", "[tool.archsync]\n"),
        )),
        Example("an exemption still in use", (
            ("pyproject.toml", _CONFIG), _MODELS,
            ("graphs.py", "_CUDA_GRAPH_ARCHS = [\"Gemma3ForConditionalGeneration\", \"Gemma2ForCausalLM\"]\n"),
        )),
    ),
    severity="warning",
    settings=("exempt",),
)
