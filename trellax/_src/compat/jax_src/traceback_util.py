"""``jax._src.traceback_util``: the exclusion list, filtering and API boundaries of trellax's
traceback filtering (``trellax._src.core.traceback_filter``), under JAX's names."""

from __future__ import annotations

from trellax._src.core.traceback_filter import (
    UnfilteredStackTrace,
    _exclude_paths,
    api_boundary,
    filter_traceback,
    include_filename,
    include_frame,
    register_exclusion,
)

__all__ = [
    "UnfilteredStackTrace",
    "_exclude_paths",
    "api_boundary",
    "filter_traceback",
    "include_filename",
    "include_frame",
    "register_exclusion",
]
