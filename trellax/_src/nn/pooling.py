"""``pool``, ``avg_pool``, ``max_pool``, ``min_pool`` over the spatial axes of
``[batch..., *spatial, features]`` inputs (a single unbatched example works too)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import trellax.numpy as jnp
from trellax import lax


def pool(
    inputs: Any,
    init: Any,
    reduce_fn: Callable[..., Any],
    window_shape: Sequence[int],
    strides: Sequence[int] | None,
    padding: str | Sequence[tuple[int, int]],
) -> Any:
    """``lax.reduce_window`` over ``window_shape`` with batch and feature axes left alone."""
    inputs = jnp.asarray(inputs)
    window_shape = tuple(window_shape)
    num_batch_dims = inputs.ndim - (len(window_shape) + 1)
    strides = tuple(strides) if strides is not None else (1,) * len(window_shape)
    if len(strides) != len(window_shape):
        raise ValueError(
            f"len({window_shape}) must equal len({strides}): one stride per window axis"
        )
    single = num_batch_dims == 0
    if single:
        inputs = inputs[None]
        num_batch_dims = 1
    if num_batch_dims < 0:
        raise ValueError(
            f"pool: inputs of rank {inputs.ndim} are too small for a {len(window_shape)}-d window "
            "plus a feature axis"
        )
    dims = (1,) * num_batch_dims + window_shape + (1,)
    all_strides = (1,) * num_batch_dims + strides + (1,)
    if not isinstance(padding, str):
        pads = tuple((int(lo), int(hi)) for lo, hi in padding)
        if len(pads) != len(window_shape):
            raise ValueError(
                f"padding {padding} must specify pads for same number of dims as window_shape "
                f"{window_shape}"
            )
        padding = ((0, 0),) * num_batch_dims + pads + ((0, 0),)
    y = lax.reduce_window(inputs, init, reduce_fn, dims, all_strides, padding)
    return jnp.squeeze(y, axis=0) if single else y


def avg_pool(
    inputs: Any,
    window_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    count_include_pad: bool = True,
) -> Any:
    """Window means; ``count_include_pad=False`` divides by the number of real elements."""
    inputs = jnp.asarray(inputs)
    y = pool(inputs, 0.0, lax.add, window_shape, strides, padding)
    if count_include_pad:
        return y / math.prod(window_shape)
    div_shape = (*inputs.shape[:-1], 1)
    if len(div_shape) - 2 == len(window_shape):
        div_shape = (1, *div_shape[1:])
    return y / pool(jnp.ones(div_shape), 0.0, lax.add, window_shape, strides, padding)


def max_pool(
    inputs: Any,
    window_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
) -> Any:
    """Window maxima (padding never wins: it is ``-inf``)."""
    return pool(inputs, -jnp.inf, lax.max, window_shape, strides, padding)


def min_pool(
    inputs: Any,
    window_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
) -> Any:
    """Window minima (padding is ``+inf``)."""
    return pool(inputs, jnp.inf, lax.min, window_shape, strides, padding)
