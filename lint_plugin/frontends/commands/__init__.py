"""The handlers of `archsync`'s commands, which `frontends/cli.py` parses and calls (each module is
imported only when one of its commands runs), and the exit codes they return."""

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 128 + 2  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C
