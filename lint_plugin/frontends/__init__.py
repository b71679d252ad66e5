"""Stage 7, the front ends: the command line, the flake8 plugin, the language server, formats, `show`."""
