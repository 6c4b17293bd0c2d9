"""Samplers that reorder or select: ``permutation``, ``shuffle``, ``choice``, ``categorical``."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.core.out_sharding import accepts_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.random.keys import single_key
from trellax._src.random.logs import random_log_p
from trellax._src.random.primitives import random_bits_p
from trellax._src.random.samplers import _gumbel, _uniform, randint, split_data
from trellax._src.random.util import canonical_shape, check_shape, default_int, float_dtype


def _sort_rounds(data: Array, x: Array, axis: int) -> Array:
    """Sorts ``x`` along ``axis`` by fresh 32-bit keys, as many rounds as JAX uses (stable)."""
    n = x.size
    rounds = math.ceil(3 * math.log(max(1, n)) / math.log(2**32 - 1))
    for _ in range(rounds):
        data, sub = split_data(data, 2)
        sort_keys = random_bits_p.bind(sub, bit_width=32, shape=tuple(x.shape))
        order = tnp.argsort(sort_keys, axis=axis, stable=True)
        x = tnp.take_along_axis(x, order, axis=axis)
    return x


@accepts_out_sharding
def permutation(key: Any, x: Any, axis: int = 0, independent: bool = False) -> Array:
    """A random permutation of ``arange(x)`` (int ``x``) or of ``x`` along ``axis``."""
    data, _ = single_key(key, "permutation")
    ndim = max(np.ndim(x), 1)
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        # iota, as JAX: a length past int32's range is a shape, not an arange stop to refuse
        return _sort_rounds(data, lax.iota(default_int(), max(operator.index(x), 0)), 0)
    arr = tnp.asarray(x)
    if arr.ndim == 0:
        if dtypes.kind(arr.dtype) in ("i", "u"):
            return _sort_rounds(data, lax.iota(default_int(), int(arr)), 0)
        raise TypeError("x must be an integer or at least 1-dimensional")
    axis = axis % arr.ndim
    if independent or arr.ndim == 1:
        return _sort_rounds(data, arr, axis)
    idx = _sort_rounds(data, tnp.arange(arr.shape[axis], dtype=default_int()), 0)
    return tnp.take(arr, idx, axis=axis)


def shuffle(key: Any, x: Any, axis: int = 0) -> Array:
    """Deprecated in JAX: ``permutation(key, x, axis, independent=True)``."""
    return permutation(key, x, axis, independent=True)


def choice(
    key: Any,
    a: Any,
    shape: Sequence[int] = (),
    replace: bool = True,
    p: Any = None,
    axis: int = 0,
    mode: str | None = None,
) -> Array:
    """Samples from ``a`` (an int means ``arange(a)``), with or without replacement, weighted by
    ``p`` when given."""
    data, _ = single_key(key, "choice")
    if not isinstance(shape, Sequence):
        raise TypeError(f"shape argument of jax.random.choice must be a sequence, got {shape}")
    s = canonical_shape(shape)
    is_int = isinstance(a, (int, np.integer)) and not isinstance(a, bool)
    arr = None if is_int else tnp.asarray(a)
    if arr is not None and arr.ndim == 0:
        is_int, a = True, int(arr)
    if is_int:
        n_inputs = int(a)
    else:
        assert arr is not None
        axis = operator.index(axis)
        if not -arr.ndim <= axis < arr.ndim:  # JAX's ValueError (no silent wrap-around)
            raise ValueError(f"axis {axis} is out of bounds for array of dimension {arr.ndim}")
        axis %= arr.ndim
        n_inputs = arr.shape[axis]
    n_draws = math.prod(s)
    if n_draws == 0:
        out_dtype = default_int() if is_int else arr.dtype  # type: ignore[union-attr]
        return tnp.zeros(s if is_int else _sample_shape(arr, axis, s), out_dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(
            f"Cannot take a larger sample (size {n_draws}) than population (size {n_inputs}) "
            "when 'replace=False'"
        )
    if p is None:
        if replace:
            ind = randint(data, s, 0, n_inputs)
        else:
            perm = permutation(data, n_inputs if is_int else arr, axis if not is_int else 0)
            if not is_int:
                assert arr is not None
                taken = tnp.take(perm, tnp.arange(n_draws), axis=axis)
                return tnp.reshape(taken, _sample_shape(arr, axis, s))
            return tnp.reshape(perm[:n_draws], s)
    else:
        pa = tnp.asarray(p)
        if pa.ndim != 1 or pa.shape[0] != n_inputs:
            raise ValueError(
                "p must be None or a 1D vector with the same size as a.shape[axis]. p has shape "
                f"{pa.shape} and a.shape[axis] is {n_inputs}."
            )
        if dtypes.kind(pa.dtype) not in ("f", "c"):
            pa = lax.convert_element_type(pa, dtypes.default_float_dtype())
        if replace:
            c = tnp.cumsum(pa)
            u = _uniform(data, s, pa.dtype, 0.0, 1.0)
            r = c[-1] * (np.array(1, pa.dtype) - u)
            ind = lax.convert_element_type(tnp.searchsorted(c, r), default_int())
        else:
            g = _gumbel(data, (n_inputs,), pa.dtype, mode) + random_log_p.bind(
                pa
            )  # XLA's log (logs.py)
            order = tnp.argsort(-g, stable=True)[:n_draws]
            ind = tnp.reshape(lax.convert_element_type(order, default_int()), s)
    if is_int:
        return ind
    assert arr is not None
    taken = tnp.take(arr, tnp.ravel(ind), axis=axis)
    return tnp.reshape(taken, _sample_shape(arr, axis, s))


def _sample_shape(arr: Any, axis: int, s: tuple[int, ...]) -> tuple[int, ...]:
    return (*arr.shape[:axis], *s, *arr.shape[axis + 1 :])


@accepts_out_sharding
def categorical(
    key: Any,
    logits: Any,
    axis: int = -1,
    shape: Any = None,
    replace: bool = True,
    mode: str | None = None,
) -> Array:
    """Category indices drawn with probabilities ``softmax(logits)`` (Gumbel-max)."""
    data, _ = single_key(key, "categorical")
    lg = tnp.asarray(logits)
    if dtypes.kind(lg.dtype) != "f":
        float_dtype("gumbel", lg.dtype)
    axis = operator.index(axis)
    if not -lg.ndim <= axis < lg.ndim:  # JAX indexes the shape: an IndexError
        raise IndexError(f"categorical: axis {axis} is out of bounds for logits of rank {lg.ndim}")
    a = axis % lg.ndim
    batch = (*lg.shape[:a], *lg.shape[a + 1 :])
    s = batch if shape is None else canonical_shape(shape)
    check_shape("categorical", s, batch)  # the logits' batch axes may broadcast (size 1)
    prefix = s[: len(s) - len(batch)]
    if replace:
        # noise of the result's shape with the category axis inserted; the logits get leading
        # axes of size 1 (explicitly: no rank promotion in library code)
        tail = list(s[len(prefix) :])
        tail.insert(a, lg.shape[a])
        noise = _gumbel(data, (*prefix, *tail), lg.dtype, mode)
        scores = noise + lax.expand_dims(lg, tuple(range(len(prefix))))
        return lax.convert_element_type(tnp.argmax(scores, axis=a + len(prefix)), default_int())
    k = math.prod(prefix)
    n = lg.shape[a]
    if k > n:
        raise ValueError(
            f"Number of samples without replacement ({k}) cannot exceed number of categories ({n})."
        )
    noise = _gumbel(data, tuple(lg.shape), lg.dtype, mode) + lg
    order = tnp.argsort(-noise, axis=a, stable=True)
    top = tnp.take(order, tnp.arange(k), axis=a)
    top = tnp.moveaxis(top, a, 0)
    return lax.convert_element_type(tnp.reshape(top, s), default_int())
