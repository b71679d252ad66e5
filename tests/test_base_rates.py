"""bench.base_rates counts what the project's own lists say each pattern of evidence means, in process."""
from __future__ import annotations

from pathlib import Path

from bench.base_rates import measure, table

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_each_member_left_out_of_its_list_counts_once_for_its_pattern_and_each_name_it_lacks_once():
    (root, held, lacked), = measure(FIXTURES / "kinship" / "config_class")
    # the config-class fixture: lists of linear-attention models, two of which are built with one config class
    assert table("config_class", held, lacked).splitlines() == [
        "### config_class",
        "",
        "| held | lacked | share held | pattern |",
        "|---|---|---|---|",
        "| 13 | 3 | 0.81 | co-occurrence:0.25 |",
        "| 3 | 1 | 0.75 | co-occurrence:0.25 + config-class:0.25 |",
        "| 3 | 0 | 1.00 | config-class:0.25 |",
        "",
        "with list company: 16 held, 4 lacked, share held 0.80; best pattern met 5 times or more: "
        "co-occurrence:0.25 (0.81)",
        "",
        "without list company: 3 held, 0 lacked, share held 1.00",
    ]
