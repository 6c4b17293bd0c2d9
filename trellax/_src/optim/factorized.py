"""optax's Adafactor and its factored second-moment scaling (optax 0.2.8's arithmetic and
``FactoredState`` layout)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax._src.api.api import eval_shape
from trellax._src.optim.aliases_rest import NO_PARAMS_MSG, scale_by_param_block_rms
from trellax._src.optim.base import (
    GradientTransformation,
    Params,
    Updates,
    abs_sq,
    chain,
    div_by_scalar,
    safe_increment,
    zero_count,
)
from trellax._src.optim.reduce_order import ordered_mean
from trellax._src.optim.transforms import (
    ScalarOrSchedule,
    add_decayed_weights,
    scale,
    scale_by_learning_rate,
)
from trellax._src.optim.wrappers import clip_by_block_rms, ema
from trellax.tree_util import tree_map


def _decay_rate_pow(step: Any, exponent: Any = 0.8) -> Any:
    """Adafactor's second-moment decay ``1 - (step + 1) ** -exponent``, in float32."""
    t = jnp.array(step + 1, jnp.float32)
    return 1.0 - t ** (-exponent)


def _factored_dims(shape: tuple[int, ...], factored: bool, min_size: int) -> tuple[int, int] | None:
    """The two largest axes (second largest first) when both are at least ``min_size``."""
    if not factored or len(shape) < 2:
        return None
    order = np.argsort(shape)
    if shape[order[-2]] < min_size:
        return None
    return int(order[-2]), int(order[-1])


def _zeros_without_axis(x: Any, axis: int) -> Any:
    target = eval_shape(lambda v: jnp.sum(v, axis=axis), x)
    return jnp.zeros(target.shape, target.dtype)


class FactoredState(NamedTuple):
    """Adafactor's step count and its row, column and unfactored second moments (a leaf that
    is factored holds a ``(1,)`` placeholder in ``v``, one that is not in ``v_row``/``v_col``)."""

    count: Any
    v_row: Any
    v_col: Any
    v: Any


class _Leaf:
    """One leaf's results (a plain object, so ``tree_map`` does not descend into it)."""

    __slots__ = ("update", "v", "v_col", "v_row")

    def __init__(self, update: Any, v_row: Any, v_col: Any, v: Any) -> None:
        self.update, self.v_row, self.v_col, self.v = update, v_row, v_col, v


def _to_state(count: Any, leaves: Any) -> FactoredState:
    return FactoredState(
        count,
        tree_map(lambda o: o.v_row, leaves),
        tree_map(lambda o: o.v_col, leaves),
        tree_map(lambda o: o.v, leaves),
    )


def scale_by_factored_rms(
    factored: bool = True,
    decay_rate: float = 0.8,
    step_offset: int = 0,
    min_dim_size_to_factor: int = 128,
    epsilon: float = 1e-30,
    decay_rate_fn: Callable[[Any, Any], Any] = _decay_rate_pow,
) -> GradientTransformation:
    """Divides by a factored estimate of the gradient's root mean square: for a leaf whose two
    largest axes are at least ``min_dim_size_to_factor`` long, the outer product of row and
    column averages of ``g² + epsilon``; for the others, their full moving average."""

    def init_leaf(p: Any) -> _Leaf:
        dims = _factored_dims(p.shape, factored, min_dim_size_to_factor)
        one = jnp.zeros((1,), dtype=p.dtype)
        if dims is not None:
            d1, d0 = dims
            return _Leaf(one, _zeros_without_axis(p, d0), _zeros_without_axis(p, d1), one)
        return _Leaf(one, one, one, jnp.zeros_like(p))

    def init_fn(params: Params) -> FactoredState:
        return _to_state(zero_count(), tree_map(init_leaf, params))

    def update_leaf(g: Any, v_row: Any, v_col: Any, v: Any, p: Any, step: Any) -> _Leaf:
        dtype = p.dtype
        rate = decay_rate_fn(step - step_offset, decay_rate)
        new_row = new_col = new_v = jnp.zeros((1,), dtype=dtype)
        dims = _factored_dims(p.shape, factored, min_dim_size_to_factor)
        g_sq = abs_sq(g) + epsilon
        if dims is not None:
            d1, d0 = dims
            new_row = (rate * v_row + (1.0 - rate) * ordered_mean(g_sq, axis=d0)).astype(dtype)
            new_col = (rate * v_col + (1.0 - rate) * ordered_mean(g_sq, axis=d1)).astype(dtype)
            reduced = d1 - 1 if d1 > d0 else d1
            # eager and jitted, XLA divides by the broadcast mean as a product with its reciprocal
            row_mean = ordered_mean(new_row, axis=reduced, keepdims=True)
            row_factor = div_by_scalar(new_row, row_mean) ** -0.5
            col_factor = new_col**-0.5
            out = g * jnp.expand_dims(row_factor, axis=d0) * jnp.expand_dims(col_factor, axis=d1)
        else:
            new_v = (rate * v + (1.0 - rate) * g_sq).astype(dtype)
            out = g * new_v**-0.5
        return _Leaf(out, new_row, new_col, new_v)

    def update_fn(updates: Updates, state: FactoredState, params: Params = None) -> Any:
        if params is None:
            raise ValueError(NO_PARAMS_MSG)
        leaves = tree_map(
            lambda g, r, c, v, p: update_leaf(g, r, c, v, p, state.count),
            updates,
            state.v_row,
            state.v_col,
            state.v,
            params,
        )
        out = tree_map(lambda o: o.update, leaves)
        return out, _to_state(safe_increment(state.count), leaves)

    return GradientTransformation(init_fn, update_fn)


def adafactor(
    learning_rate: ScalarOrSchedule | None = None,
    min_dim_size_to_factor: int = 128,
    decay_rate: float = 0.8,
    decay_offset: int = 0,
    multiply_by_parameter_scale: bool = True,
    clipping_threshold: float | None = 1.0,
    momentum: float | None = None,
    dtype_momentum: Any = jnp.float32,
    weight_decay_rate: ScalarOrSchedule | None = None,
    eps: float = 1e-30,
    factored: bool = True,
    weight_decay_mask: Any = None,
) -> GradientTransformation:
    """Adafactor: the factored rms scaling, then (each optional) block-rms clipping, the
    learning rate, the parameters' rms scale, momentum and weight decay, and a final ``-1``."""
    parts = [scale_by_factored_rms(factored, decay_rate, decay_offset, min_dim_size_to_factor, eps)]
    if clipping_threshold is not None:
        parts.append(clip_by_block_rms(clipping_threshold))
    if learning_rate is not None:
        parts.append(scale_by_learning_rate(learning_rate, flip_sign=False))
    if multiply_by_parameter_scale:
        parts.append(scale_by_param_block_rms())
    if momentum is not None:
        parts.append(ema(momentum, debias=False, accumulator_dtype=dtype_momentum))
    if weight_decay_rate is not None:
        parts.append(add_decayed_weights(weight_decay_rate, mask=weight_decay_mask))
    parts.append(scale(-1))
    return chain(*parts)
