"""The noqa lookups a long-lived process keeps between reports (`report/noqa_kept.py`)."""
from __future__ import annotations

from typing import List, Optional, Tuple

from lint_plugin.report.noqa_kept import KeptRanges


class Counting:
    """A stand-in for `noqa_text` that records what it was asked."""

    def __init__(self) -> None:
        self.asked: List[Tuple[str, int]] = []

    def __call__(self, text: str, line: int) -> Optional[str]:
        self.asked.append((text, line))
        return f"{text}:{line}"


def test_a_line_is_looked_up_once_per_text():
    kept, compute = KeptRanges(), Counting()
    assert kept.range_text("a.py", "one", 3, compute) == "one:3"
    assert kept.range_text("a.py", "one", 3, compute) == "one:3"
    assert kept.range_text("a.py", "one", 4, compute) == "one:4"
    kept.settle()
    assert kept.range_text("a.py", "one", 3, compute) == "one:3"  # kept across reports
    assert compute.asked == [("one", 3), ("one", 4)]


def test_another_text_is_looked_up_again():
    kept, compute = KeptRanges(), Counting()
    kept.range_text("a.py", "one", 3, compute)
    kept.settle()
    assert kept.range_text("a.py", "two", 3, compute) == "two:3"
    assert kept.range_text("a.py", "".join(["o", "ne"]), 3, compute) == "one:3"  # an equal text is the same
    assert compute.asked == [("one", 3), ("two", 3), ("one", 3)]


def test_a_file_the_last_report_did_not_read_is_forgotten():
    kept, compute = KeptRanges(), Counting()
    kept.range_text("a.py", "one", 1, compute)
    kept.range_text("b.py", "two", 1, compute)
    kept.settle()
    kept.range_text("b.py", "two", 1, compute)
    kept.settle()  # a.py was not read: forgotten
    kept.range_text("a.py", "one", 1, compute)
    assert compute.asked == [("one", 1), ("two", 1), ("one", 1)]
