"""A warm `check` is read by `check`'s parser alone (`arguments.check_alone`), before the other commands'
parsers are built, and a check of paths alone without argparse at all (`plain_check.py`): each must read
a command line exactly as the full parser does (the namespace is the replayed record's key), and leave
to the full parser every line it cannot read so, which then says what is wrong, once."""
from __future__ import annotations

import pytest

from lint_plugin.frontends import arguments
from lint_plugin.frontends.plain_check import plain_check

READ_ALIKE = [
    ["check"],
    ["check", "."],
    ["check", "pkg", "other", "--format", "json"],
    ["check", "--select", "ARC1", "-q", "pkg"],
    ["check", "--color=never", "--statistics", "--exit-zero"],
    ["check", "--output-file", "out.txt", "--extend-select", "ARC9", "--ignore", "ARC105"],
    ["check", "--no-cache", "--no-prefilter", "-"],
    ["check", "--baseline-commit", "HEAD~1"],
]
LEFT_TO_THE_FULL_PARSER = [
    [],
    ["fix"],
    ["check", "--bogus"],
    ["check", "--format", "xml"],
    ["check", "-h"],
    ["check", "--help"],
    ["check", "--baseline-commit", "HEAD", "--add-exemptions"],
    ["check", "--select"],
    ["check", "pkg", "--quiet", "more"],  # paths after an option: the full parser gathers them (`_intermixed_paths`)
]


def _full(argv):
    parser, _ = arguments.parser()
    args, extra = parser.parse_known_args(argv)
    assert extra == []
    args.path = args.paths[0]
    return {name: value for name, value in vars(args).items() if name != "handler"}


@pytest.mark.parametrize("argv", READ_ALIKE, ids=" ".join)
def test_a_check_is_read_as_the_full_parser_reads_it(argv):
    alone = arguments.check_alone(argv)
    assert alone is not None
    assert vars(alone) == _full(argv)


@pytest.mark.parametrize("argv", LEFT_TO_THE_FULL_PARSER, ids=lambda a: " ".join(a) or "nothing")
def test_what_it_cannot_read_so_is_left_to_the_full_parser(argv, capsys):
    assert arguments.check_alone(argv) is None
    assert capsys.readouterr() == ("", "")  # the full parser is the one to say what is wrong


PATHS_ALONE = [["check"], ["check", "."], ["check", "pkg", "other"], ["check", "pkg/a.py"]]


@pytest.mark.parametrize("argv", PATHS_ALONE, ids=" ".join)
def test_a_check_of_paths_alone_is_read_without_argparse_as_the_full_parser_reads_it(argv):
    plain = plain_check(argv)
    assert plain is not None
    assert vars(plain) == _full(argv)


@pytest.mark.parametrize("argv", [a for a in READ_ALIKE + LEFT_TO_THE_FULL_PARSER if a not in PATHS_ALONE],
                         ids=lambda a: " ".join(a) or "nothing")
def test_any_option_leaves_the_line_to_argparse(argv):
    assert plain_check(argv) is None
