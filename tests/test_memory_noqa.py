"""The noqa lookups a report leaves for the next one (`report/memory_noqa.py`)."""
from __future__ import annotations

from typing import List, Optional, Tuple

from lint_plugin.report.memory_noqa import NoqaLookups, NoqaMemory


class Counting:
    """A stand-in for `RangeReader.text` that records what it was asked."""

    def __init__(self) -> None:
        self.asked: List[Tuple[str, int]] = []

    def __call__(self, text: str, line: int) -> Optional[str]:
        self.asked.append((text, line))
        return f"{text}:{line}"


def test_a_line_is_looked_up_once_per_text():
    lookups, compute = NoqaLookups(NoqaMemory()), Counting()
    assert lookups.range_text("a.py", "one", 3, compute) == "one:3"
    assert lookups.range_text("a.py", "one", 3, compute) == "one:3"
    assert lookups.range_text("a.py", "one", 4, compute) == "one:4"
    again = NoqaLookups(lookups.left())
    assert again.range_text("a.py", "one", 3, compute) == "one:3"  # what the last report left
    assert compute.asked == [("one", 3), ("one", 4)]


def test_another_text_is_looked_up_again():
    lookups, compute = NoqaLookups(NoqaMemory()), Counting()
    lookups.range_text("a.py", "one", 3, compute)
    again = NoqaLookups(lookups.left())
    assert again.range_text("a.py", "two", 3, compute) == "two:3"
    third = NoqaLookups(again.left())
    assert third.range_text("a.py", "".join(["o", "ne"]), 3, compute) == "one:3"  # another text: asked again
    assert compute.asked == [("one", 3), ("two", 3), ("one", 3)]


def test_a_file_the_last_report_did_not_read_is_forgotten():
    lookups, compute = NoqaLookups(NoqaMemory()), Counting()
    lookups.range_text("a.py", "one", 1, compute)
    lookups.range_text("b.py", "two", 1, compute)
    second = NoqaLookups(lookups.left())
    second.range_text("b.py", "two", 1, compute)
    third = NoqaLookups(second.left())  # a.py was not read by the second report: forgotten
    third.range_text("a.py", "one", 1, compute)
    assert compute.asked == [("one", 1), ("two", 1), ("one", 1)]


def test_the_memory_a_report_was_given_is_never_changed():
    first = NoqaLookups(NoqaMemory())
    first.range_text("a.py", "one", 1, Counting())
    left = first.left()
    second = NoqaLookups(left)
    second.range_text("a.py", "one", 2, Counting())
    assert dict(left.files["a.py"][1]) == {1: "one:1"}
