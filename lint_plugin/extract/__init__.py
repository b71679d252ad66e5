"""Extraction: the facts of one file (`from_bytes.extract_file`), read by the stdlib parser.

The package itself imports nothing: the byte prefilter needs only the name shapes
(`spelling.py`), and a run that checks no more than an edited file's byte signals (the result
cache's check, `pipeline._same_records`) should not pay for loading the readers.
"""
