"""optax's ``assignment``: the linear assignment problem (a minimum-cost matching of the rows and
columns of an ``n x m`` cost matrix, ``min(n, m)`` pairs).

Solved by shortest augmenting paths with dual potentials (the Hungarian method, cubic time), in
float64 NumPy on concrete matrices and through ``pure_callback`` under ``jit``/``vmap``. The two
functions return the same pairs in optax's two orders: ``hungarian_algorithm`` lists them by
increasing column for a square matrix and by the shorter dimension's decreasing index otherwise,
``base_hungarian_algorithm`` by increasing row.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.api.leaves import ShapeDtypeStruct
from trellax._src.callbacks.callbacks import pure_callback
from trellax._src.core import core


def _match_rows(cost: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """For ``cost`` of shape ``(n, m)`` with ``n <= m``: the column matched to each row."""
    n, m = cost.shape
    row_pot = np.zeros(n + 1)
    col_pot = np.zeros(m + 1)
    owner = np.zeros(m + 1, dtype=np.int64)  # owner[c]: 1-based row holding column c (0: none)
    for r in range(1, n + 1):
        owner[0] = r
        best = np.full(m + 1, np.inf)  # reduced cost of the cheapest path reaching each column
        came_from = np.zeros(m + 1, dtype=np.int64)
        done = np.zeros(m + 1, dtype=bool)
        c0 = 0
        while owner[c0] != 0:
            done[c0] = True
            r0 = owner[c0]
            open_cols = np.flatnonzero(~done[1:]) + 1
            reduced = cost[r0 - 1, open_cols - 1] - row_pot[r0] - col_pot[open_cols]
            better = reduced < best[open_cols]
            best[open_cols[better]] = reduced[better]
            came_from[open_cols[better]] = c0
            c1 = int(open_cols[np.argmin(best[open_cols])])
            delta = best[c1]
            row_pot[owner[done]] += delta
            col_pot[done] -= delta
            best[~done] -= delta
            c0 = c1
        while c0 != 0:  # flip the augmenting path
            prev = came_from[c0]
            owner[c0] = owner[prev]
            c0 = prev
    match = np.zeros(n, dtype=np.int64)
    for c in range(1, m + 1):
        if owner[c]:
            match[owner[c] - 1] = c - 1
    return match


def _solve(cost: Any, order: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    c = np.asarray(cost, dtype=np.float64)
    n, m = c.shape
    if n == 0 or m == 0:
        empty = np.zeros(0, np.int32)
        return empty, empty.copy()
    if n <= m:
        rows = np.arange(n)
        cols = _match_rows(c)
    else:
        cols = np.arange(m)
        rows = _match_rows(c.T)
    if order == "optax" and n == m:  # by increasing column
        by_col = np.argsort(cols, kind="stable")
        rows, cols = rows[by_col], cols[by_col]
    elif order == "optax":  # the shorter dimension's indices decreasing
        rows, cols = rows[::-1], cols[::-1]
    else:
        by_row = np.argsort(rows, kind="stable")
        rows, cols = rows[by_row], cols[by_row]
    return rows.astype(np.int32), cols.astype(np.int32)


def _assign(cost_matrix: Any, order: str) -> tuple[Any, Any]:
    cost = jnp.asarray(cost_matrix)
    if cost.ndim != 2:
        raise ValueError(f"the cost matrix must be 2-D, got shape {cost.shape}")
    k = min(cost.shape)
    if not isinstance(cost, core.Tracer):
        rows, cols = _solve(np.asarray(cost), order)
        return jnp.asarray(rows), jnp.asarray(cols)
    out = (
        ShapeDtypeStruct((k,), jnp.int32),
        ShapeDtypeStruct((k,), jnp.int32),
    )
    rows, cols = pure_callback(lambda c: _solve(c, order), out, cost, vmap_method="sequential")
    return rows, cols


def hungarian_algorithm(cost_matrix: Any) -> tuple[Any, Any]:
    """``(rows, cols)``: the minimum-cost assignment, by increasing column for a square matrix,
    else by the shorter dimension's decreasing index."""
    return _assign(cost_matrix, "optax")


def base_hungarian_algorithm(cost_matrix: Any) -> tuple[Any, Any]:
    """``(rows, cols)``: the minimum-cost assignment, pairs by increasing row."""
    return _assign(cost_matrix, "by_row")
