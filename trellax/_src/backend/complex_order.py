"""XLA's complex ``max``/``min`` (``lax.max``, ``jnp.maximum``, ``scatter_max`` ...), observed
on JAX 0.10.2: the first operand is kept only where it orders strictly after (before) the
second, real parts compared first, and a comparison with NaN is false. NaN therefore does not
propagate as in NumPy's ``maximum``: which operand holds it decides (``tests/test_lax_param_fixes.py``).

The reductions (``reduce_max``/``reduce_min``: ``jnp.max``, ``jnp.min``, ``Array.max`` ...) fold
with that pick, so where a NaN sits decides whether it survives; :func:`complex_reduce` folds in
XLA:CPU's order (``tests/test_complex_extrema.py``):

- a running value starts at the identity (``-inf + 0j`` for max, ``inf + 0j`` for min) and takes
  each element in row-major order of the reduced axes: ``r = pick(r, x)`` (so ``max(-inf - 1j,
  -inf - 2j)`` is ``-inf + 0j``); a reduction of one element is that element;
- when a reduced axis is longer than 32, XLA first reduces windows of 32 along it (each longer
  axis padded to whole windows, ``pad // 2`` before and the rest after, the padding skipped;
  the shorter reduced axes whole in every window), each window folded as above in row-major
  order of its elements, then reduces the partial results the same way (again in windows while
  an axis is longer than 32).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

#: XLA:CPU's window of the tree reduction (its reductions over axes longer than this are split)
WINDOW = 32


def complex_pick(a: Any, b: Any, *, for_max: bool) -> Any:
    """XLA's complex max/min (JAX 0.10.2, observed): ``a`` where it orders strictly before
    (min) or after (max) ``b`` lexicographically, else ``b``; a comparison with NaN is false,
    so NaN does not propagate (``max(nan+1j, 2+5j)`` is ``2+5j``, ``max(2+5j, nan+1j)`` is
    ``nan+1j``)."""
    return np.where(_first(a, b, for_max), a, b)


def _first(a: Any, b: Any, for_max: bool) -> Any:
    ar, ai, br, bi = np.real(a), np.imag(a), np.real(b), np.imag(b)
    if for_max:
        return (ar > br) | ((ar == br) & (ai > bi))
    return (ar < br) | ((ar == br) & (ai < bi))


def complex_reduce(x: np.ndarray, axes: tuple[int, ...], *, for_max: bool) -> np.ndarray:
    """``reduce_max`` (``for_max``) or ``reduce_min`` of a complex array over ``axes``, folded
    as XLA:CPU does (the module docstring); an empty reduction gives the identity."""
    red = sorted(a % x.ndim for a in axes) if x.ndim else []
    kept = [a for a in range(x.ndim) if a not in red]
    y = np.transpose(x, kept + red) if red else x
    ks = tuple(y.shape[: len(kept)])
    rs = tuple(y.shape[len(kept) :])
    init = np.asarray(complex(-np.inf if for_max else np.inf, 0), x.dtype)
    n = math.prod(rs)
    if n == 0:
        return np.full(ks, init)
    if n == 1:
        return np.array(y.reshape(ks))
    while any(s > WINDOW for s in rs):
        y, rs = _windows(y, ks, rs, init, for_max)
    out: np.ndarray = _fold(y.reshape(*ks, math.prod(rs)), None, init, for_max)
    return out


def _windows(
    y: np.ndarray, ks: tuple[int, ...], rs: tuple[int, ...], init: np.ndarray, for_max: bool
) -> tuple[np.ndarray, tuple[int, ...]]:
    """One level of XLA's tree reduction: every reduced axis longer than the window split into
    windows (padding skipped), each window folded; the partial results and their shape."""
    pads, split = [], []
    for s in rs:
        if s > WINDOW:
            count = -(-s // WINDOW)
            extra = count * WINDOW - s
            pads.append((extra // 2, extra - extra // 2))
            split += [count, WINDOW]
        else:
            pads.append((0, 0))
            split += [1, s]
    k, lead = len(rs), len(ks)
    order = [2 * j for j in range(k)] + [2 * j + 1 for j in range(k)]
    yp = np.pad(y, [(0, 0)] * lead + pads).reshape(*ks, *split)
    valid = np.pad(np.ones(rs, bool), pads).reshape(split)
    yp = np.transpose(yp, [*range(lead), *(lead + j for j in order)])
    valid = np.transpose(valid, order)
    outer = tuple(split[2 * j] for j in range(k))
    size = math.prod(split[2 * j + 1] for j in range(k))
    folded = _fold(yp.reshape(*ks, *outer, size), valid.reshape(*outer, size), init, for_max)
    return folded, outer


def _fold(y: np.ndarray, valid: np.ndarray | None, init: np.ndarray, for_max: bool) -> Any:
    """``r = pick(r, x)`` over the last axis of ``y`` from ``init``, skipping the elements
    where ``valid`` (broadcast over the leading axes) is False."""
    r = np.broadcast_to(init, y.shape[:-1]).copy()
    for e in range(y.shape[-1]):
        x = y[..., e]
        take = ~_first(r, x, for_max)
        if valid is not None:
            take &= valid[..., e]
        r = np.where(take, x, r)
    return r


def with_complex_order(real: Callable[..., Any], *, for_max: bool) -> Callable[..., Any]:
    """The impl of ``reduce_max``/``reduce_min``: ``real`` (NumPy's) for every dtype but
    complex, :func:`complex_reduce` for complex."""

    def impl(x: np.ndarray, *, axes: tuple[int, ...]) -> Any:
        if x.dtype.kind == "c":
            return complex_reduce(x, axes, for_max=for_max)
        return real(x, axes=axes)

    impl.__name__ = getattr(real, "__name__", "reduce")
    return impl
