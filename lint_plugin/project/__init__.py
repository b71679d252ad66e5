"""Stages 1 and 2, the project: which files there are, which can matter, and their facts.

Discovery, the byte prefilter, the content-keyed cache, the worker pool, and the index
that holds one record per file and extracts facts on demand.
"""
from .cache import IndexCache
from .discovery import SourceFile, discover, with_unsaved
from .index import ProjectIndex

__all__ = ["IndexCache", "ProjectIndex", "SourceFile", "discover", "with_unsaved"]
