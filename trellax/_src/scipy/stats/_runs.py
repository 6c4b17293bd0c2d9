"""Runs of equal values in sorted data, shared by ``mode`` and ``rankdata``.

For data sorted along the last axis, each position learns where its run of equal values starts
and ends (NaNs count as equal to each other, as ``unique`` groups them). Everything is a
cumulative maximum, so it traces and costs ``O(n)`` after the sort.
"""

from __future__ import annotations

import trellax.numpy as jnp
from trellax import lax
from trellax._src.core.basearray import Array


def run_bounds(s: Array) -> tuple[Array, Array]:
    """``(start, end)``: for each position of ``s`` (sorted along its last axis, ``n >= 1``
    entries) the first and last positions of its run, as default-int arrays of ``s``'s shape."""
    n = s.shape[-1]
    same = s[..., 1:] == s[..., :-1]
    if jnp.issubdtype(s.dtype, jnp.inexact):
        same = same | (jnp.isnan(s[..., 1:]) & jnp.isnan(s[..., :-1]))
    edge = jnp.ones((*s.shape[:-1], 1), dtype=bool)
    first = jnp.concatenate([edge, ~same], axis=-1)
    last = jnp.concatenate([~same, edge], axis=-1)
    pos = jnp.broadcast_to(jnp.arange(n), s.shape)
    axis = s.ndim - 1
    start = lax.cummax(jnp.where(first, pos, 0), axis=axis)
    end = lax.cummin(jnp.where(last, pos, n - 1), axis=axis, reverse=True)
    return start, end
