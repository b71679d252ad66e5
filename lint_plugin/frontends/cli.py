"""`archsync` command line: the entry points that read it (`plain_check.py` for a check of paths alone,
else the parsers of `arguments.py`) and run the command's handler (`frontends/commands/`, imported only
when that command runs)."""
from __future__ import annotations

import gc
import os
import signal
import sys

from .commands import EXIT_ERROR, EXIT_INTERRUPTED
from .plain_check import plain_check

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, which a replayed check never needs
# (mypy reads the name as True)
if TYPE_CHECKING:
    from typing import List, Optional, Sequence, Tuple


def main(argv: Optional[Sequence[str]] = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # file names need not be valid in the terminal's encoding
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:  # Ctrl-C while the options are read is as quiet as during the run
        words = sys.argv[1:] if argv is None else list(argv)
        plain = plain_check(words)  # a check of paths alone, read without argparse
        if plain is not None:
            from .replay import replayed

            code = replayed(plain)
            if code is not None:
                return code
        from .arguments import check_alone
        from .arguments import parser as full_parser

        alone = None if plain is not None else check_alone(words)
        if alone is not None:  # a warm check, answered before the other commands' parsers are built
            from .replay import replayed

            code = replayed(alone)
            if code is not None:
                return code
        parser, subparsers = full_parser()
        args, extra = parser.parse_known_args(argv)
        if extra and getattr(args, "paths", None) is not None:
            written = [] if args.paths is subparsers["check"].get_default("paths") else args.paths
            args.paths, extra = _intermixed_paths(written, extra)
        if extra:  # said by the subcommand, with its usage: `check --selct X` is check's mistake
            command = subparsers.get(args.command or "", parser)
            command.error(f"unrecognized arguments: {' '.join(extra)}")
        if getattr(args, "paths", None) is not None:
            args.path = args.paths[0]
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        if args.command == "check":  # a warm check, answered before the engine is imported
            from .replay import replayed

            code = replayed(args)
            if code is not None:
                return code
        return args.handler(args)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as error:
        if _interrupted(error):
            return EXIT_INTERRUPTED
        raise


def _interrupted(error: BaseException) -> bool:
    """Whether a Ctrl-C is what this error carries: Python wraps an exception raised while a class is
    made (`__set_name__`, as a lazily imported dataclass is defined) in a RuntimeError, so the
    KeyboardInterrupt is found only as its cause."""
    seen = set()
    cause: Optional[BaseException] = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _intermixed_paths(paths: List[str], extra: List[str]) -> Tuple[List[str], List[str]]:
    """PATHs written after an option (`check a --select X b`), as ruff and flake8 take them: argparse
    gives a `nargs="*"` positional only its first run of words and leaves the rest unrecognised.
    What starts with `-` (an unknown option) is left for the error."""
    later = [word for word in extra if word == "-" or not word.startswith("-")]
    return [*paths, *later] or ["."], [word for word in extra if word not in later]


def console() -> None:
    """The `archsync` command: `main`, and after Ctrl-C the process ends killed by SIGINT, as Python's
    own uncaught KeyboardInterrupt does without the traceback. A shell stops a loop or script running
    archsync only when the command died of SIGINT; an exit status of 130 it takes for an ordinary
    failure. A Ctrl-C after the run, while the interpreter exits, is ignored: the report is out, and its
    exit status stands (else Python prints an ignored KeyboardInterrupt from its shutdown).

    A command other than the language server is one run in a process that then ends: the cyclic garbage
    collector stays off for it (`extract/collector.py`). Resumed after the run's pauses, it walked all the
    run made, which the process keeps until it exits anyway: 5% of a cold check of SGLang, 8% of a `fix`,
    the peak memory the same."""
    if _command(sys.argv[1:]) != "lsp":  # the server lives on: it pauses the collector per run (`Held`)
        gc.disable()
    try:
        code = main()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except KeyboardInterrupt:  # between main's return and the line above
        code = EXIT_INTERRUPTED
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while the streams are flushed
    if code == EXIT_INTERRUPTED and os.name == "posix":
        pools = sys.modules.get("multiprocessing")  # no atexit handler runs for a process killed by a signal
        for child in pools.active_children() if pools is not None else ():
            child.terminate()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    sys.exit(code)


def _command(words: Sequence[str]) -> Optional[str]:
    """The command the words name: the first that is no option (no command takes an option's value
    before its name)."""
    return next((word for word in words if not word.startswith("-")), None)


if __name__ == "__main__":  # pragma: no cover
    console()
