"""Benchmark for archsync against ruff and flake8 (`python -m bench`); not part of the unit tests."""
