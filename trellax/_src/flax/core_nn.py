"""``flax.core.nn``: the layers of Flax's functional core as functions of a scope
(``dense(scope, x, features)``), with Flax's parameter names, shapes and arithmetic."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import lax, random
from trellax._src.flax.struct import dataclass
from trellax._src.nn import initializers

Scope = Any
default_kernel_init = initializers.lecun_normal()
default_embed_init = initializers.variance_scaling(1.0, "fan_in", "normal", out_axis=0)
_zeros = initializers.zeros_init()
_ones = initializers.ones_init()


def _normalize_axes(axes: Iterable[int], ndim: int) -> tuple[int, ...]:
    return tuple(ax if ax >= 0 else ndim + ax for ax in axes)


def _as_tuple(x: Any) -> tuple[Any, ...]:
    return tuple(x) if isinstance(x, Iterable) else (x,)


def dense_general(
    scope: Scope,
    inputs: Any,
    features: Any,
    axis: Any = -1,
    batch_dims: Any = (),
    bias: bool = True,
    dtype: Any = jnp.float32,
    kernel_init: Callable[..., Any] = default_kernel_init,
    bias_init: Callable[..., Any] = _zeros,
    precision: Any = None,
) -> Any:
    """A linear map over the ``axis`` dimensions of ``inputs`` to ``features``; batch dims
    (leading, consecutive) get a kernel each."""
    inputs = jnp.asarray(inputs, dtype)
    features, axis, batch_dims = _as_tuple(features), _as_tuple(axis), _as_tuple(batch_dims)
    if batch_dims and set(batch_dims) != set(range(max(batch_dims) + 1)):
        raise ValueError(
            f"batch_dims {batch_dims} must be consecutive leading dimensions starting from 0."
        )
    n_batch = len(batch_dims)
    axis = _normalize_axes(axis, inputs.ndim)
    batch_dims = _normalize_axes(batch_dims, inputs.ndim)
    n_axis, n_features = len(axis), len(features)

    def stacked(init: Callable[..., Any], flat: Callable[[Any], tuple[int, ...]]) -> Any:
        def init_wrap(rng: Any, shape: Any, dtype: Any = jnp.float32) -> Any:
            copies = int(np.prod(shape[:n_batch], dtype=np.int32))
            parts = [init(rng, flat(shape), dtype) for _ in range(copies)]
            return jnp.reshape(jnp.concatenate(parts, axis=0), shape)

        return init_wrap

    batch_shape = tuple(inputs.shape[ax] for ax in batch_dims)
    kernel_shape = tuple(inputs.shape[ax] for ax in axis) + features
    kernel_flat = stacked(
        kernel_init,
        lambda s: (int(np.prod(s[n_batch : n_axis + n_batch])), int(np.prod(s[-n_features:]))),
    )
    kernel = jnp.asarray(scope.param("kernel", kernel_flat, batch_shape + kernel_shape), dtype)
    batch_ind = tuple(range(n_batch))
    contract_ind = tuple(range(n_batch, n_axis + n_batch))
    out = lax.dot_general(
        inputs, kernel, ((axis, contract_ind), (batch_dims, batch_ind)), precision=precision
    )
    if bias:
        bias_flat = stacked(bias_init, lambda s: (int(np.prod(s[-n_features:])),))
        b = scope.param("bias", bias_flat, batch_shape + features)
        for ax in sorted(set(range(inputs.ndim)) - set(axis) - set(batch_dims)):
            b = jnp.expand_dims(b, ax)
        out = out + jnp.asarray(b, dtype)
    return out


def _add_bias(
    scope: Scope, y: Any, features: int, bias_init: Callable[..., Any], dtype: Any
) -> Any:
    b = jnp.asarray(scope.param("bias", bias_init, (features,)), dtype)
    return y + jnp.reshape(b, (1,) * (y.ndim - 1) + (-1,))


def dense(
    scope: Scope,
    inputs: Any,
    features: int,
    bias: bool = True,
    dtype: Any = jnp.float32,
    precision: Any = None,
    kernel_init: Callable[..., Any] = default_kernel_init,
    bias_init: Callable[..., Any] = _zeros,
) -> Any:
    """``inputs @ kernel + bias`` over the last axis (computed in ``dtype``)."""
    inputs = jnp.asarray(inputs, dtype)
    kernel = jnp.asarray(scope.param("kernel", kernel_init, (inputs.shape[-1], features)), dtype)
    y = lax.dot_general(inputs, kernel, (((inputs.ndim - 1,), (0,)), ((), ())), precision=precision)
    return _add_bias(scope, y, features, bias_init, dtype) if bias else y


def _conv_dimension_numbers(ndim: int) -> Any:
    lhs = (0, ndim - 1, *range(1, ndim - 1))
    rhs = (ndim - 1, ndim - 2, *range(0, ndim - 2))
    return lax.ConvDimensionNumbers(lhs, rhs, lhs)


def conv(
    scope: Scope,
    inputs: Any,
    features: int,
    kernel_size: tuple[int, ...],
    strides: Any = None,
    padding: Any = "SAME",
    input_dilation: Any = None,
    kernel_dilation: Any = None,
    feature_group_count: int = 1,
    bias: bool = True,
    dtype: Any = jnp.float32,
    precision: Any = None,
    kernel_init: Callable[..., Any] = default_kernel_init,
    bias_init: Callable[..., Any] = _zeros,
) -> Any:
    """A convolution of NHWC-style ``inputs`` with a ``kernel_size + (in, features)`` kernel."""
    inputs = jnp.asarray(inputs, dtype)
    if strides is None:
        strides = (1,) * (inputs.ndim - 2)
    in_features = inputs.shape[-1]
    if in_features % feature_group_count:
        raise ValueError(
            f"input features {in_features} are not a multiple of feature_group_count "
            f"{feature_group_count}"
        )
    shape = (*tuple(kernel_size), in_features // feature_group_count, features)
    kernel = jnp.asarray(scope.param("kernel", kernel_init, shape), dtype)
    y = lax.conv_general_dilated(
        inputs,
        kernel,
        strides,
        padding,
        lhs_dilation=input_dilation,
        rhs_dilation=kernel_dilation,
        dimension_numbers=_conv_dimension_numbers(inputs.ndim),
        feature_group_count=feature_group_count,
        precision=precision,
    )
    return _add_bias(scope, y, features, bias_init, dtype) if bias else y


def conv_transpose(
    scope: Scope,
    inputs: Any,
    features: int,
    kernel_size: tuple[int, ...],
    strides: Any = None,
    padding: Any = "SAME",
    kernel_dilation: Any = None,
    bias: bool = True,
    dtype: Any = jnp.float32,
    precision: Any = None,
    kernel_init: Callable[..., Any] = default_kernel_init,
    bias_init: Callable[..., Any] = _zeros,
) -> Any:
    """A transposed convolution (``lax.conv_transpose``)."""
    inputs = jnp.asarray(inputs, dtype)
    strides = strides or (1,) * (inputs.ndim - 2)
    shape = (*tuple(kernel_size), inputs.shape[-1], features)
    kernel = jnp.asarray(scope.param("kernel", kernel_init, shape), dtype)
    y = lax.conv_transpose(
        inputs, kernel, strides, padding, rhs_dilation=kernel_dilation, precision=precision
    )
    return _add_bias(scope, y, features, bias_init, dtype) if bias else y


@dataclass
class Embedding:
    """An embedding table with ``lookup`` (rows by index) and ``attend`` (query @ table.T)."""

    table: Any

    def lookup(self, indices: Any) -> Any:
        """The rows of ``indices`` (an integer array)."""
        if indices.dtype not in (jnp.int32, jnp.int64, jnp.uint32, jnp.uint64):
            raise ValueError("Input type must be an integer or unsigned integer.")
        return self.table[indices]

    def attend(self, query: Any) -> Any:
        """``query`` against every embedding."""
        return jnp.dot(query, self.table.T)


def embedding(
    scope: Scope,
    num_embeddings: int,
    features: int,
    init_fn: Callable[..., Any] = default_embed_init,
) -> Embedding:
    """An :class:`Embedding` whose table is the parameter ``table``."""
    return Embedding(scope.param("table", init_fn, (num_embeddings, features)))


def batch_norm(
    scope: Scope,
    x: Any,
    use_running_average: bool = False,
    axis: Any = -1,
    momentum: float = 0.99,
    epsilon: float = 1e-5,
    dtype: Any = jnp.float32,
    bias: bool = True,
    scale: bool = True,
    bias_init: Callable[..., Any] = _zeros,
    scale_init: Callable[..., Any] = _ones,
    axis_name: Any = None,
    axis_index_groups: Any = None,
    kind: str = "batch_stats",
) -> Any:
    """Batch normalization with running ``mean``/``var`` in collection ``kind``."""
    x = jnp.asarray(x, jnp.float32)
    axes = _normalize_axes(axis if isinstance(axis, tuple) else (axis,), x.ndim)
    redux = tuple(i for i in range(x.ndim) if i not in axes)

    def pmean(v: Any) -> Any:
        m = jnp.mean(v, redux, keepdims=True)
        if axis_name is not None:
            m = lax.pmean(m, axis_name=axis_name, axis_index_groups=axis_index_groups)
        return m

    mean = pmean(x)
    squeeze_shape = jnp.squeeze(mean).shape
    var = pmean(jnp.square(x)) - jnp.square(mean)
    is_init = not scope.has_variable(kind, "mean")
    ra_mean = scope.variable(kind, "mean", jnp.zeros, squeeze_shape)
    ra_var = scope.variable(kind, "var", jnp.ones, squeeze_shape)
    if use_running_average:
        mean = jnp.reshape(ra_mean.value, mean.shape)
        var = jnp.reshape(ra_var.value, var.shape)
    elif not is_init:
        beta = 1.0 - momentum
        ra_mean.value += beta * (jnp.squeeze(mean) - ra_mean.value)
        ra_var.value += beta * (jnp.squeeze(var) - ra_var.value)
    y = x - mean
    mul = lax.rsqrt(var + epsilon)
    if scale:
        mul = mul * scope.param("scale", scale_init, squeeze_shape).reshape(mean.shape)
    y = y * mul
    if bias:
        y = y + scope.param("bias", bias_init, squeeze_shape).reshape(mean.shape)
    return jnp.asarray(y, dtype)


def layer_norm(
    scope: Scope,
    x: Any,
    epsilon: float = 1e-6,
    dtype: Any = jnp.float32,
    bias: bool = True,
    scale: bool = True,
    bias_init: Callable[..., Any] = _zeros,
    scale_init: Callable[..., Any] = _ones,
) -> Any:
    """Layer normalization over the last axis."""
    features = x.shape[-1]
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(lax.square(x), axis=-1, keepdims=True) - lax.square(mean)
    mul = lax.rsqrt(var + epsilon)
    if scale:
        mul = mul * jnp.asarray(scope.param("scale", scale_init, (features,)), dtype)
    y = (x - mean) * mul
    if bias:
        y = y + jnp.asarray(scope.param("bias", bias_init, (features,)), dtype)
    return y


def group_norm(
    scope: Scope,
    x: Any,
    num_groups: int | None = 32,
    group_size: int | None = None,
    epsilon: float = 1e-6,
    dtype: Any = jnp.float32,
    bias: bool = True,
    scale: bool = True,
    bias_init: Callable[..., Any] = _zeros,
    scale_init: Callable[..., Any] = _ones,
) -> Any:
    """Group normalization: channels in ``num_groups`` groups (or groups of ``group_size``)."""
    x = jnp.asarray(x, jnp.float32)
    if (num_groups is None) == (group_size is None):
        raise ValueError(
            "Either `num_groups` or `group_size` should be specified, but not both of them."
        )
    if group_size is not None:
        channels = x.shape[-1]
        if channels % group_size != 0:
            raise ValueError(
                f"Number of channels ({channels}) is not multiple of the group size ({group_size})."
            )
        num_groups = channels // group_size
    assert num_groups is not None
    input_shape = x.shape
    x = x.reshape((*x.shape[:-1], num_groups, x.shape[-1] // num_groups))
    axes = [*range(1, x.ndim - 2), x.ndim - 1]
    mean = jnp.mean(x, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(x), axis=axes, keepdims=True) - jnp.square(mean)
    x = ((x - mean) * lax.rsqrt(var + epsilon)).reshape(input_shape)
    feature_shape = (1,) * (len(input_shape) - 1) + (input_shape[-1],)
    if scale:
        x = x * scope.param("scale", scale_init, feature_shape)
    if bias:
        x = x + scope.param("bias", bias_init, feature_shape)
    return x.astype(dtype)


def dropout(
    scope: Scope, inputs: Any, rate: float, deterministic: bool = False, rng: Any = None
) -> Any:
    """Zeroes entries with probability ``rate`` and scales the rest by ``1 / (1 - rate)``."""
    if rate == 0.0 or deterministic:
        return inputs
    keep_prob = 1.0 - rate
    if rng is None:
        rng = scope.make_rng("dropout")
    mask = random.bernoulli(rng, p=keep_prob, shape=inputs.shape)
    return lax.select(mask, inputs / keep_prob, jnp.zeros_like(inputs))
