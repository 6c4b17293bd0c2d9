"""``flax.traceback_util``: whether traceback filtering (``jax_traceback_filtering``, see
``trellax._src.core.traceback_filter``) also removes the frames of trellax's Flax layer.

Those frames are hidden with the rest of trellax's by default, as Flax hides its own
(``flax_filter_frames``); :func:`show_flax_in_tracebacks` keeps them, for debugging a module
system problem, and :func:`hide_flax_in_tracebacks` removes them again. Filtering itself is off
unless ``jax_traceback_filtering`` asks for it.
"""

from __future__ import annotations

from trellax._src.core import traceback_filter
from trellax._src.core.traceback_filter import api_boundary as api_boundary
from trellax._src.flax.configurations import flax_filter_frames

#: Whether the Flax layer's paths are in the exclusion list now.
_flax_filter_tracebacks: bool = bool(flax_filter_frames.value)

#: The Flax layer's paths (trellax's ``nn`` and ``flax`` packages, and any registered here).
_flax_exclusions: set[str] = set(traceback_filter.FLAX_PATHS)


def register_exclusion(path: str) -> None:
    """Counts ``path`` as part of the Flax layer: hidden while its frames are hidden."""
    _flax_exclusions.add(path)
    if _flax_filter_tracebacks and path not in traceback_filter._exclude_paths:
        traceback_filter._exclude_paths.append(path)


def hide_flax_in_tracebacks() -> None:
    """Traceback filtering removes the Flax layer's frames too (the default)."""
    global _flax_filter_tracebacks
    _flax_filter_tracebacks = True
    for path in sorted(_flax_exclusions):
        if path not in traceback_filter._exclude_paths:
            traceback_filter._exclude_paths.append(path)


def show_flax_in_tracebacks() -> None:
    """Traceback filtering keeps the Flax layer's frames (it still removes the rest of
    trellax's)."""
    global _flax_filter_tracebacks
    _flax_filter_tracebacks = False
    for path in _flax_exclusions:
        while path in traceback_filter._exclude_paths:
            traceback_filter._exclude_paths.remove(path)


if not _flax_filter_tracebacks:
    show_flax_in_tracebacks()
