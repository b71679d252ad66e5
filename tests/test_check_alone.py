"""A warm `check` is read by `check`'s parser alone (`cli._check_alone`), before the other commands'
parsers are built: it must read a command line exactly as the full parser does (the namespace is
the replayed record's key), and leave to the full parser every line it cannot read so, which then
says what is wrong, once."""
from __future__ import annotations

import pytest

from lint_plugin.frontends import cli

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
    parser, _ = cli._parser()
    args, extra = parser.parse_known_args(argv)
    assert extra == []
    args.path = args.paths[0]
    return {name: value for name, value in vars(args).items() if name != "handler"}


@pytest.mark.parametrize("argv", READ_ALIKE, ids=" ".join)
def test_a_check_is_read_as_the_full_parser_reads_it(argv):
    alone = cli._check_alone(argv)
    assert alone is not None
    assert vars(alone) == _full(argv)


@pytest.mark.parametrize("argv", LEFT_TO_THE_FULL_PARSER, ids=lambda a: " ".join(a) or "nothing")
def test_what_it_cannot_read_so_is_left_to_the_full_parser(argv, capsys):
    assert cli._check_alone(argv) is None
    assert capsys.readouterr() == ("", "")  # the full parser is the one to say what is wrong
