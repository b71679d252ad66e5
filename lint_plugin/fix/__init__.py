"""Stage 6, fixes: byte-safe literal edits (libcst), as text edits or written by `archsync fix`."""
