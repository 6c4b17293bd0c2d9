"""Normalization layers: ``LayerNorm``, ``RMSNorm``, ``GroupNorm``, ``InstanceNorm``, ``BatchNorm``.

Statistics are computed in ``promote_types(dtype or x.dtype, float32)`` ("at least float32";
float64 and complex are kept), with ``|x|² = re² + im²`` so a complex variance is real and ≥ 0.
The *output* dtype ignores the statistics: it is ``canonicalize_dtype(x, scale, bias,
dtype=dtype)``, so bf16 activations stay bf16 when the affine parameters are off or bf16.

With ``axis_name`` (every layer here) the statistics are averaged over that named
``trellax.vmap`` axis by ``lax.pmean``: a mapped axis stands for devices, as ``pmap`` in JAX.

``BatchNorm``'s running statistics are created in that statistics dtype (``var`` in its real
part) and keep it on update; Flax creates them in float32 and lets them drift to float64 (x64)
or a complex mean on the first update (see docs/semantics.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.nn import initializers
from trellax._src.nn.dtypes import canonicalize_dtype
from trellax._src.nn.module import Module, compact, merge_param

Dtype = Any
Axes = int | Sequence[int]


def _canonicalize_axes(ndim: int, axes: Axes) -> tuple[int, ...]:
    """Negative axes counted from the end, once, as Flax does: an axis past the end stays out
    of range (and raises Flax's IndexError where a shape is indexed with it), it does not wrap."""
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    return tuple(sorted({ndim + a if a < 0 else a for a in axes}))


def _abs_sq(x: Any) -> Any:
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        return lax.square(lax.real(x)) + lax.square(lax.imag(x))
    return lax.square(x)


def _real_dtype(d: Any) -> Any:
    return np.finfo(d).dtype if dtypes.issubdtype(d, np.complexfloating) else d


def _stats_dtype(x: Any, dtype: Any, force_float32_reductions: bool) -> Any:
    d = dtypes.result_type(x) if dtype is None else jnp.dtype(dtype)
    return dtypes.promote_types(d, np.float32) if force_float32_reductions else d


def _distributed_means(
    xs: Sequence[Any], axes: tuple[int, ...], mask: Any, axis_name: Any, axis_index_groups: Any
) -> list[Any]:
    """Each ``mean(x, axes, where=mask)``, averaged over the named ``vmap`` axis when given."""
    mus = [jnp.mean(x, axes, where=mask) for x in xs]
    if axis_name is None:
        return mus
    if axis_index_groups is not None:
        # JAX's collectives under vmap refuse groups with this NotImplementedError
        raise NotImplementedError(
            "axis_index_groups not supported in vmap collectives. Please open a feature request!"
        )
    return [lax.pmean(mu, axis_name) for mu in mus]


def _compute_stats(
    x: Any,
    axes: Axes,
    dtype: Any,
    axis_name: Any = None,
    axis_index_groups: Any = None,
    use_mean: bool = True,
    use_fast_variance: bool = True,
    mask: Any = None,
    force_float32_reductions: bool = True,
) -> tuple[Any, Any]:
    """Mean and variance of ``x`` over ``axes`` in the statistics dtype (see module doc); with
    ``axis_name`` the per-element means are averaged over that ``vmap`` axis (``pmean``), so
    every element sees the statistics of the whole (cross-device) batch."""
    x = jnp.asarray(x, _stats_dtype(x, dtype, force_float32_reductions))
    axes = _canonicalize_axes(x.ndim, axes)

    def means(*xs: Any) -> list[Any]:
        return _distributed_means(xs, axes, mask, axis_name, axis_index_groups)

    if not use_mean:
        (var,) = means(_abs_sq(x))
        return jnp.zeros_like(var), var
    if use_fast_variance:
        mu, mu2 = means(x, _abs_sq(x))
        var = jnp.maximum(0.0, mu2 - _abs_sq(mu))
    else:
        (mu,) = means(x)
        (var,) = means(_abs_sq(x - jnp.expand_dims(mu, axes)))
    return mu, var


def _normalize(
    mdl: Module,
    x: Any,
    mean: Any,
    var: Any,
    reduction_axes: Axes,
    feature_axes: Axes,
    dtype: Any,
    param_dtype: Any,
    epsilon: float,
    use_bias: bool,
    use_scale: bool,
    bias_init: Any,
    scale_init: Any,
) -> Any:
    """``(x - mean) * rsqrt(var + eps) * scale + bias`` cast to ``canonicalize(x, scale, bias)``."""
    reduction_axes = _canonicalize_axes(x.ndim, reduction_axes)
    feature_axes = _canonicalize_axes(x.ndim, feature_axes)
    feature_shape = [1] * x.ndim
    reduced_shape = []
    for ax in feature_axes:
        feature_shape[ax] = x.shape[ax]
        reduced_shape.append(x.shape[ax])
    mean = jnp.expand_dims(mean, reduction_axes)
    var = jnp.expand_dims(var, reduction_axes)
    y = x - mean
    mul = lax.rsqrt(var + epsilon)
    args = [x]
    if use_scale:
        scale = mdl.param("scale", scale_init, tuple(reduced_shape), param_dtype)
        scale = jnp.reshape(scale, feature_shape)
        mul = mul * scale
        args.append(scale)
    y = y * mul
    if use_bias:
        bias = mdl.param("bias", bias_init, tuple(reduced_shape), param_dtype)
        bias = jnp.reshape(bias, feature_shape)
        y = y + bias
        args.append(bias)
    return jnp.asarray(y, canonicalize_dtype(*args, dtype=dtype))


class LayerNorm(Module):
    """Normalizes each example over ``reduction_axes`` (default the last axis)."""

    epsilon: float = 1e-6
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Any = initializers.zeros
    scale_init: Any = initializers.ones
    reduction_axes: Axes = -1
    feature_axes: Axes = -1
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Any, *, mask: Any = None) -> Any:
        x = jnp.asarray(x)
        mean, var = _compute_stats(
            x,
            self.reduction_axes,
            self.dtype,
            self.axis_name,
            self.axis_index_groups,
            use_fast_variance=self.use_fast_variance,
            mask=mask,
            force_float32_reductions=self.force_float32_reductions,
        )
        return _normalize(
            self, x, mean, var, self.reduction_axes, self.feature_axes, self.dtype,
            self.param_dtype, self.epsilon, self.use_bias, self.use_scale, self.bias_init,
            self.scale_init,
        )  # fmt: skip


class RMSNorm(Module):
    """Divides by the root mean square over ``reduction_axes`` (no mean, no bias)."""

    epsilon: float = 1e-6
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    use_scale: bool = True
    scale_init: Any = initializers.ones
    reduction_axes: Axes = -1
    feature_axes: Axes = -1
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Any, *, mask: Any = None) -> Any:
        x = jnp.asarray(x)
        mean, var = _compute_stats(
            x,
            self.reduction_axes,
            self.dtype,
            self.axis_name,
            self.axis_index_groups,
            use_mean=False,
            mask=mask,
            force_float32_reductions=self.force_float32_reductions,
        )
        return _normalize(
            self, x, mean, var, self.reduction_axes, self.feature_axes, self.dtype,
            self.param_dtype, self.epsilon, False, self.use_scale, initializers.zeros,
            self.scale_init,
        )  # fmt: skip


class GroupNorm(Module):
    """Normalizes groups of channels (the last axis) over the non-batch axes."""

    num_groups: int | None = 32
    group_size: int | None = None
    epsilon: float = 1e-6
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Any = initializers.zeros
    scale_init: Any = initializers.ones
    reduction_axes: Axes | None = None
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Any, *, mask: Any = None) -> Any:
        x = jnp.asarray(x)
        if self.reduction_axes is not None:
            reduction_axes = _canonicalize_axes(x.ndim, self.reduction_axes)
        else:
            reduction_axes = _canonicalize_axes(x.ndim, [*range(1, x.ndim - 1), -1])
        if reduction_axes[-1] != x.ndim - 1:
            raise ValueError(
                "The reduction axes must include the final dimension as this is assumed to be "
                "the feature axis."
            )
        if (self.num_groups is None) == (self.group_size is None):
            raise ValueError(
                "Either `num_groups` or `group_size` should be specified. If `group_size` is to "
                "be specified, pass `num_groups=None` as argument to override the default "
                "`num_groups` value of 32."
            )
        channels = x.shape[-1]
        if self.group_size is not None:
            if channels % self.group_size != 0:
                raise ValueError(
                    f"Number of channels ({channels}) is not multiple of the group size "
                    f"({self.group_size})."
                )
            num_groups = channels // self.group_size
        else:
            assert self.num_groups is not None
            num_groups = self.num_groups
        if num_groups <= 0 or channels % num_groups != 0:
            raise ValueError(
                f"Number of groups ({num_groups}) does not divide the number of channels "
                f"({channels})."
            )
        group_size = channels // num_groups
        grouped = x.reshape((*x.shape[:-1], num_groups, group_size))
        if mask is not None:
            # A mask that broadcasts against x splits its own last axis into the groups.
            mask = mask.reshape((*mask.shape[:-1], num_groups, group_size))
        mean, var = _compute_stats(
            grouped,
            [*reduction_axes[:-1], grouped.ndim - 1],
            self.dtype,
            self.axis_name,
            self.axis_index_groups,
            use_fast_variance=self.use_fast_variance,
            mask=mask,
            force_float32_reductions=self.force_float32_reductions,
        )
        mean = jnp.repeat(mean, group_size, axis=-1)
        var = jnp.repeat(var, group_size, axis=-1)
        return _normalize(
            self, x, mean, var, reduction_axes[:-1], (x.ndim - 1,), self.dtype,
            self.param_dtype, self.epsilon, self.use_bias, self.use_scale, self.bias_init,
            self.scale_init,
        )  # fmt: skip


class InstanceNorm(Module):
    """Normalizes each example and channel over the remaining (spatial) axes."""

    epsilon: float = 1e-6
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Any = initializers.zeros
    scale_init: Any = initializers.ones
    feature_axes: Axes = -1
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Any, *, mask: Any = None) -> Any:
        x = jnp.asarray(x)
        feature_axes = _canonicalize_axes(x.ndim, self.feature_axes)
        if 0 in feature_axes:
            raise ValueError(
                "The channel axes cannot include the leading dimension as this is assumed to be "
                "the batch axis."
            )
        reduction_axes = [i for i in range(1, x.ndim) if i not in feature_axes]
        mean, var = _compute_stats(
            x,
            reduction_axes,
            self.dtype,
            self.axis_name,
            self.axis_index_groups,
            use_fast_variance=self.use_fast_variance,
            mask=mask,
            force_float32_reductions=self.force_float32_reductions,
        )
        return _normalize(
            self, x, mean, var, reduction_axes, feature_axes, self.dtype, self.param_dtype,
            self.epsilon, self.use_bias, self.use_scale, self.bias_init, self.scale_init,
        )  # fmt: skip


class BatchNorm(Module):
    """Normalizes over the batch (all axes but ``axis``), keeping running statistics in the
    ``batch_stats`` collection.

    Training (``use_running_average=False``) needs ``mutable=['batch_stats']`` in ``apply``;
    ``init`` creates the statistics without updating them. With ``axis_name`` (a
    ``trellax.vmap`` axis name) the batch statistics are averaged over that axis too
    (``lax.pmean``), so each mapped element is normalized with the statistics of the whole
    cross-device batch; ``init`` ignores ``axis_name``, so it may run outside the ``vmap``.
    """

    use_running_average: bool | None = None
    axis: int | Sequence[int] = -1
    momentum: float = 0.99
    epsilon: float = 1e-5
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Any = initializers.zeros
    scale_init: Any = initializers.ones
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Any, use_running_average: bool | None = None, *, mask: Any = None) -> Any:
        use_ra = merge_param("use_running_average", self.use_running_average, use_running_average)
        x = jnp.asarray(x)
        feature_axes = _canonicalize_axes(x.ndim, self.axis)
        reduction_axes = tuple(i for i in range(x.ndim) if i not in feature_axes)
        feature_shape = tuple(x.shape[ax] for ax in feature_axes)
        if self.force_float32_reductions:
            mean_dtype = _stats_dtype(x, self.dtype, True)
        else:
            mean_dtype = jnp.dtype(self.param_dtype)
        var_dtype = _real_dtype(mean_dtype)
        ra_mean = self.variable("batch_stats", "mean", jnp.zeros, feature_shape, mean_dtype)
        ra_var = self.variable("batch_stats", "var", jnp.ones, feature_shape, var_dtype)
        if use_ra:
            mean, var = ra_mean.value, ra_var.value
        else:
            mean, var = _compute_stats(
                x,
                reduction_axes,
                self.dtype,
                # init runs on one element's batch, outside the mapped axis (as in Flax)
                None if self.is_initializing() else self.axis_name,
                self.axis_index_groups,
                use_fast_variance=self.use_fast_variance,
                mask=mask,
                force_float32_reductions=self.force_float32_reductions,
            )
            if not self.is_initializing():
                m = self.momentum
                ra_mean.value = (m * ra_mean.value + (1 - m) * mean).astype(mean_dtype)
                ra_var.value = (m * ra_var.value + (1 - m) * var).astype(var_dtype)
        return _normalize(
            self, x, mean, var, reduction_axes, feature_axes, self.dtype, self.param_dtype,
            self.epsilon, self.use_bias, self.use_scale, self.bias_init, self.scale_init,
        )  # fmt: skip
