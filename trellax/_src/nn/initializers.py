"""Parameter initializers with ``jax.nn.initializers``' names and rules.

An initializer is ``init(key, shape, dtype=<default>) -> Array``; the factories (``normal``,
``variance_scaling``, ...) return one. The default dtype is the default float (float32, float64
with x64), as in JAX; Flax layers pass their ``param_dtype`` explicitly.

>>> import trellax.random as random
>>> from trellax.nn import initializers
>>> initializers.lecun_normal()(random.PRNGKey(0), (3, 4)).dtype
dtype('float32')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.nn._random import random


class Initializer(Protocol):
    def __call__(
        self, key: Any, shape: Sequence[int], dtype: Any = ..., out_sharding: Any = ...
    ) -> Any: ...


def _dtype(dtype: Any) -> Any:
    return dtypes.canonicalize_dtype(dtypes.default_float_dtype() if dtype is None else dtype)


def _shape(shape: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in shape) if isinstance(shape, Sequence) else (int(shape),)


def zeros(key: Any, shape: Sequence[int], dtype: Any = None, out_sharding: Any = None) -> Any:
    """All zeros (the key is ignored; placed by ``out_sharding``)."""
    return jnp.zeros(_shape(shape), _dtype(dtype), out_sharding=out_sharding)


def ones(key: Any, shape: Sequence[int], dtype: Any = None, out_sharding: Any = None) -> Any:
    """All ones (the key is ignored; placed by ``out_sharding``)."""
    return jnp.ones(_shape(shape), _dtype(dtype), out_sharding=out_sharding)


def constant(value: Any, dtype: Any = None) -> Initializer:
    """Every element ``value``."""

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype, out_sharding: Any = None) -> Any:
        check_out_sharding("initializer", out_sharding)
        return jnp.full(_shape(shape), value, _dtype(dtype), out_sharding=out_sharding)

    return init


def uniform(scale: float = 1e-2, dtype: Any = None) -> Initializer:
    """Uniform on ``[0, scale)``."""

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype, out_sharding: Any = None) -> Any:
        check_out_sharding("initializer", out_sharding)  # one device: checked, as JAX's
        d = _dtype(dtype)
        return random().uniform(key, _shape(shape), d) * jnp.array(scale, d)

    return init


def normal(stddev: float = 1e-2, dtype: Any = None) -> Initializer:
    """Normal with mean 0 and standard deviation ``stddev``."""

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype, out_sharding: Any = None) -> Any:
        check_out_sharding("initializer", out_sharding)  # one device: checked, as JAX's
        d = _dtype(dtype)
        return random().normal(key, _shape(shape), d) * jnp.array(stddev, d)

    return init


def truncated_normal(
    stddev: float = 1e-2, dtype: Any = None, lower: float = -2.0, upper: float = 2.0
) -> Initializer:
    """A standard normal truncated to ``[lower, upper]``, times ``stddev``."""

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype, out_sharding: Any = None) -> Any:
        check_out_sharding("initializer", out_sharding)  # one device: checked, as JAX's
        d = _dtype(dtype)
        return random().truncated_normal(key, lower, upper, _shape(shape), d) * jnp.array(stddev, d)

    return init


def _axes(shape: tuple[int, ...], axes: int | Sequence[int]) -> tuple[int, ...]:
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    for a in axes:
        if not -len(shape) <= a < len(shape):
            raise IndexError(f"axis {a} is out of range for a weights shape {shape}")
    return tuple(a % len(shape) for a in axes)


def _compute_fans(
    shape: tuple[int, ...],
    in_axis: int | Sequence[int],
    out_axis: int | Sequence[int],
    batch_axis: int | Sequence[int],
) -> tuple[float, float]:
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(
            f"Can't compute input and output sizes of a {len(shape)}-dimensional weights tensor "
            "with default in_axis. Must be at least 2D or specify in_axis explicitly."
        )
    ins, outs, batch = _axes(shape, in_axis), _axes(shape, out_axis), _axes(shape, batch_axis)
    in_size = math.prod(shape[i] for i in ins)
    out_size = math.prod(shape[i] for i in outs)
    batch_size = math.prod(shape[i] for i in batch)
    receptive = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive, out_size * receptive


def _complex_uniform(key: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    """Uniform on the unit-area disk: ``sqrt(2u) * exp(2 pi i v)``."""
    rnd = random()
    key_r, key_theta = rnd.split(key)
    real = np.finfo(dtype).dtype
    r = jnp.sqrt(2 * rnd.uniform(key_r, shape, real)).astype(dtype)
    theta = 2 * jnp.pi * rnd.uniform(key_theta, shape, real).astype(dtype)
    return r * jnp.exp(1j * theta)


def _complex_truncated_normal(key: Any, upper: float, shape: tuple[int, ...], dtype: Any) -> Any:
    """A complex normal with modulus truncated at ``upper`` (inverse-CDF of the modulus)."""
    rnd = random()
    key_r, key_theta = rnd.split(key)
    real = np.finfo(dtype).dtype
    t = (1 - jnp.exp(jnp.array(-(upper**2), dtype))) * rnd.uniform(key_r, shape, real).astype(dtype)
    r = jnp.sqrt(-jnp.log(1 - t))
    theta = 2 * jnp.pi * rnd.uniform(key_theta, shape, real).astype(dtype)
    return r * jnp.exp(1j * theta)


def variance_scaling(
    scale: float,
    mode: str,
    distribution: str,
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    """Variance ``scale / n`` with ``n`` the fan in, fan out, their arithmetic mean or their
    geometric mean (``mode``: ``fan_in``, ``fan_out``, ``fan_avg``, ``fan_geo_avg``);
    ``distribution`` is ``truncated_normal``, ``normal`` or ``uniform``."""
    if mode not in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
        raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype, out_sharding: Any = None) -> Any:
        check_out_sharding("initializer", out_sharding)  # one device: checked, as JAX's
        d = _dtype(dtype)
        shp = _shape(shape)
        fan_in, fan_out = _compute_fans(shp, in_axis, out_axis, batch_axis)
        n = {
            "fan_in": fan_in,
            "fan_out": fan_out,
            "fan_avg": (fan_in + fan_out) / 2,
            "fan_geo_avg": (fan_in * fan_out) ** 0.5,
        }[mode]
        variance = jnp.array(scale / n, dtype=d)
        is_complex = dtypes.issubdtype(d, np.complexfloating)
        rnd = random()
        if distribution == "truncated_normal":
            if is_complex:
                stddev = jnp.sqrt(variance) / jnp.array(0.95311164380491208, d)
                return _complex_truncated_normal(key, 2, shp, d) * stddev
            stddev = jnp.sqrt(variance) / jnp.array(0.87962566103423978, d)
            return rnd.truncated_normal(key, -2, 2, shp, d) * stddev
        if distribution == "normal":
            return rnd.normal(key, shp, d) * jnp.sqrt(variance)
        if is_complex:
            return _complex_uniform(key, shp, d) * jnp.sqrt(variance)
        return rnd.uniform(key, shp, d, -1) * jnp.sqrt(3 * variance)

    return init


def glorot_uniform(
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    return variance_scaling(1.0, "fan_avg", "uniform", in_axis, out_axis, batch_axis, dtype)


def glorot_normal(
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    return variance_scaling(
        1.0, "fan_avg", "truncated_normal", in_axis, out_axis, batch_axis, dtype
    )


def lecun_uniform(
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    return variance_scaling(1.0, "fan_in", "uniform", in_axis, out_axis, batch_axis, dtype)


def lecun_normal(
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    return variance_scaling(1.0, "fan_in", "truncated_normal", in_axis, out_axis, batch_axis, dtype)


def he_uniform(
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    return variance_scaling(2.0, "fan_in", "uniform", in_axis, out_axis, batch_axis, dtype)


def he_normal(
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    return variance_scaling(2.0, "fan_in", "truncated_normal", in_axis, out_axis, batch_axis, dtype)


xavier_uniform = glorot_uniform
xavier_normal = glorot_normal
kaiming_uniform = he_uniform
kaiming_normal = he_normal


def orthogonal(scale: float = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """A (semi-)orthogonal matrix along ``column_axis`` (QR of a normal matrix, signs fixed)."""

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype, out_sharding: Any = None) -> Any:
        check_out_sharding("initializer", out_sharding)  # one device: checked, as JAX's
        d = _dtype(dtype)
        shp = _shape(shape)
        if len(shp) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if any(s < 0 for s in shp):  # JAX's ValueError, before any sampling
            raise ValueError(f"orthogonal initializer: negative size in shape {shp}")
        if 0 in shp:  # no orthogonal matrix to draw: the empty weights
            return jnp.zeros(shp, d)
        n_cols = shp[column_axis]
        n_rows = math.prod(shp) // n_cols
        matrix_shape = (n_cols, n_rows) if n_rows < n_cols else (n_rows, n_cols)
        a = random().normal(key, matrix_shape, d)
        q, r = jnp.linalg.qr(a)
        q = q * jnp.sign(jnp.diagonal(r))[None, :]
        if n_rows < n_cols:
            q = q.T
        rest = tuple(s for i, s in enumerate(shp) if i != column_axis % len(shp))
        q = jnp.moveaxis(jnp.reshape(q, (*rest, n_cols)), -1, column_axis)
        return jnp.array(scale, d) * q

    return init


def delta_orthogonal(scale: float = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """Convolution kernels that are an orthogonal matrix at the spatial centre, zero elsewhere."""

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype, out_sharding: Any = None) -> Any:
        check_out_sharding("initializer", out_sharding)  # one device: checked, as JAX's
        d = _dtype(dtype)
        shp = _shape(shape)
        if len(shp) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shp[-1] < shp[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho = orthogonal(scale=scale, column_axis=column_axis, dtype=d)(key, shp[-2:])
        centre = tuple((k - 1) // 2 for k in shp[:-2])
        return jnp.zeros(shp, d).at[centre].set(ortho)

    return init


def zeros_init() -> Callable[..., Any]:
    """The initializer :func:`zeros` (Flax's ``zeros_init()``)."""
    return zeros


def ones_init() -> Callable[..., Any]:
    """The initializer :func:`ones` (Flax's ``ones_init()``)."""
    return ones
