"""Stages 1 and 2, the project: which files there are, which can matter, and their facts.

Discovery (`discovery`, `projects`), the byte prefilter, the content-keyed index cache and the
result cache, the worker pool, and the index that holds one record per file and extracts facts
on demand. Import the module you need: nothing is imported here, so that a warm run, which
needs discovery and the result cache alone, does not load the parser's side.
"""
