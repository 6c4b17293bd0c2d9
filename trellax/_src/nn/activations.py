"""Activation functions and friends with ``jax.nn``'s names, formulas and dtype rules.

Elementwise functions keep a floating input's dtype (bf16 in, bf16 out); constants are Python
scalars (weak) or cast to the input's dtype, so they never widen it.

>>> import trellax.numpy as tnp, trellax.nn as nn
>>> nn.relu(tnp.array([-1.0, 2.0], "bfloat16"))
Array([0, 2], dtype=bfloat16)
"""

from __future__ import annotations

import functools
import math
import operator
import warnings
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.core import core
from trellax._src.core.basearray import Array as _BaseArray
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.lax import _base as lax_base
from trellax._src.lax.structural import _convert
from trellax._src.numpy import division_rules
from trellax._src.numpy.util import check_arraylike, to_inexact_dtype
from trellax._src.scipy.special import logsumexp

Array = Any


def _arr(x: Any) -> Any:
    return jnp.asarray(x)


@custom_jvp
def relu(x: Array) -> Array:
    """``max(x, 0)``; its derivative is 0 at ``x == 0`` (JAX's choice, not ``max``'s 1/2)."""
    return jnp.maximum(x, 0)


relu.defjvps(lambda g, ans, x: lax.select(x > 0, g, lax.full_like(g, 0)))


@custom_jvp
def relu6(x: Array) -> Array:
    """``min(max(x, 0), 6)``; its derivative is 0 at both kinks (0 and 6), as in JAX."""
    return jnp.minimum(jnp.maximum(x, 0), 6.0)


relu6.defjvps(lambda g, ans, x: lax.select((x > 0) & (x < 6), g, lax.full_like(g, 0)))


def sigmoid(x: Array) -> Array:
    """The logistic function ``1 / (1 + exp(-x))``."""
    return lax.logistic(_arr(x))


def _inexact(x: Any) -> Any:
    """``x`` in JAX's inexact type for it: integers of up to 32 bits and bool become float32
    (float64 for 64-bit integers), whatever the default float."""
    x = _arr(x)
    return x.astype(to_inexact_dtype(x.dtype))


def softplus(x: Array) -> Array:
    """``log(1 + exp(x))``, computed without overflow."""
    return jnp.logaddexp(x, 0)


def log_sigmoid(x: Array) -> Array:
    """``log(sigmoid(x)) = -softplus(-x)``."""
    return -softplus(-_arr(x))


def silu(x: Array) -> Array:
    """``x * sigmoid(x)`` (also named ``swish``)."""
    x = _arr(x)
    return x * sigmoid(x)


swish = silu


def gelu(x: Array, approximate: bool = True) -> Array:
    """The Gaussian error linear unit; ``approximate`` uses the tanh formula."""
    x = _inexact(x)
    if approximate:
        c = np.asarray(np.sqrt(2 / np.pi)).astype(x.dtype)
        cdf = 0.5 * (1.0 + jnp.tanh(c * (x + 0.044715 * (x**3))))
        return x * cdf
    half = np.asarray(np.sqrt(0.5)).astype(x.dtype)
    return x * (lax.erfc(-x * half) / 2)


def leaky_relu(x: Array, negative_slope: Any = 1e-2) -> Array:
    """``x`` where ``x >= 0``, else ``negative_slope * x``."""
    x = _arr(x)
    return jnp.where(x >= 0, x, negative_slope * x)


def elu(x: Array, alpha: Any = 1.0) -> Array:
    """``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``."""
    x = _arr(x)
    safe = jnp.where(x > 0, 0.0, x)
    return jnp.where(x > 0, x, alpha * jnp.expm1(safe))


def celu(x: Array, alpha: Any = 1.0) -> Array:
    """``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(x: Array) -> Array:
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    return _SELU_SCALE * elu(x, _SELU_ALPHA)


class _OddSize(ValueError, AssertionError):
    """``glu`` over an odd axis: JAX's AssertionError (an ``assert``), a ValueError here too."""


def glu(x: Array, axis: int = -1) -> Array:
    """First half of ``x`` along ``axis`` times the sigmoid of the second half."""
    x = _arr(x)
    size = x.shape[axis]
    if size % 2:
        raise _OddSize(f"axis size must be divisible by 2, got {size}")
    x1, x2 = jnp.split(x, 2, axis)
    return x1 * sigmoid(x2)


def hard_tanh(x: Array) -> Array:
    """``x`` clipped to ``[-1, 1]``."""
    x = _arr(x)
    return jnp.where(x > 1, 1, jnp.where(x < -1, -1, x))


def hard_sigmoid(x: Array) -> Array:
    """``relu6(x + 3) / 6``."""
    return relu6(_arr(x) + 3.0) / 6.0


def hard_silu(x: Array) -> Array:
    """``x * hard_sigmoid(x)`` (also named ``hard_swish``)."""
    x = _arr(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def mish(x: Array) -> Array:
    """``x * tanh(softplus(x))``."""
    x = _arr(x)
    return x * jnp.tanh(softplus(x))


def tanh(x: Array) -> Array:
    """The hyperbolic tangent."""
    return jnp.tanh(x)


def identity(x: Array) -> Array:
    """``x`` as an array, unchanged."""
    return _arr(x)


def soft_sign(x: Array) -> Array:
    """``x / (|x| + 1)``."""
    x = _arr(x)
    return x / (jnp.abs(x) + 1)


def squareplus(x: Array, b: Any = 4) -> Array:
    """``(x + sqrt(x² + b)) / 2``, a smooth ``relu``."""
    # JAX's steps, without promoting first: a bool or int ``x`` squares to int32 and the
    # result is a strong float32 whatever ``b`` is
    check_arraylike("squareplus", x, b)
    x = jnp.asarray(x)
    y = x + jnp.sqrt(jnp.square(x) + b)
    # JAX compiles squareplus as one program, so its ``/ 2`` is XLA's product with the constant
    # 0.5: for complex values a complex product, where an infinite part makes the result NaN
    half = division_rules.by_constant(y, lax_base.scalar_to_array(2, y.dtype, y.weak_type))
    return _convert(half, half.dtype, y.weak_type)  # an int x with a float b: weak, as JAX


def sparse_plus(x: Array) -> Array:
    """0 for ``x <= -1``, ``(x + 1)² / 4`` between, ``x`` for ``x >= 1``."""
    # JAX's steps: an int or bool ``x`` meets weak float constants first, so its result is a
    # weak float32
    check_arraylike("sparse_plus", x)
    x = jnp.asarray(x)
    return jnp.where(x <= -1.0, 0.0, jnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


def sparse_sigmoid(x: Array) -> Array:
    """The derivative of :func:`sparse_plus`: ``clip(x + 1, 0, 2) / 2``."""
    check_arraylike("sparse_sigmoid", x)  # an int or bool ``x``: a weak float32, as in JAX
    return 0.5 * jnp.clip(jnp.asarray(x) + 1.0, 0.0, 2.0)


@custom_jvp
def log1mexp(x: Array) -> Array:
    """``log(1 - exp(-x))`` for ``x >= 0``, accurate on both sides of ``log 2``."""
    check_arraylike("log1mexp", x)
    x = jnp.asarray(x)
    if x.dtype == np.bool_:  # JAX negates first, which refuses a bool
        raise TypeError("log1mexp does not accept dtype bool (it negates its operand)")
    small = jnp.log(-jnp.expm1(-x))
    large = jnp.log1p(-jnp.exp(-x))
    return jnp.where(x < np.log(2.0), small, large)


log1mexp.defjvps(lambda g, ans, x: g / jnp.expm1(x))


def logmeanexp(
    x: Array,
    axis: int | tuple[int, ...] | None = None,
    where: Array | None = None,
    keepdims: bool = False,
) -> Array:
    """``log(mean(exp(x)))`` along ``axis`` (over the ``where`` elements), without overflow."""
    x = _arr(x)  # logsumexp's dtype rule (a bool meeting where's 0 is the default int's float)
    lse: Any = logsumexp(x, axis, keepdims=keepdims, where=where)
    if where is None:
        axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        count = math.prod(x.shape[a] for a in axes)
        return lse - np.log(count).astype(lse.dtype)
    mask = jnp.broadcast_to(jnp.asarray(where), x.shape).astype(jnp.int32).astype(lse.dtype)
    return lse - jnp.log(jnp.sum(mask, axis, keepdims=keepdims))


def _stop(x: Any) -> Any:
    stop = getattr(lax, "stop_gradient", None)
    return x if stop is None else stop(x)


def _max_keepdims(x: Any, axis: Any, where: Any) -> Any:
    # -inf as the initial value, as JAX: an empty axis has a maximum (so softmax of an empty
    # array is empty, not an error) and it changes no other maximum; without ``where`` and on
    # non-empty axes it is not needed (and its infinite constant would trip ``debug_infs``)
    if where is None and x.size:
        return jnp.max(x, axis, keepdims=True)
    return jnp.max(x, axis, keepdims=True, initial=-jnp.inf, where=where)


def softmax(x: Array, axis: int | tuple[int, ...] | None = -1, where: Array | None = None) -> Array:
    """``exp(x) / sum(exp(x))`` along ``axis`` (shifted by the maximum for stability).

    With ``where``, the derivative is JAX's rule ``y * (dx - sum(y * dx))`` over the kept
    elements, so a masked-out element (whose ``exp`` may overflow) never reaches it."""
    x = _arr(x)
    if where is not None:
        # JAX fills the masked-out elements with the Python float -inf, so integer and bool
        # inputs compute in the default float (float64 with x64 on; without a mask: float32)
        if not dtypes.issubdtype(x.dtype, np.inexact):
            x = x.astype(dtypes.default_float_dtype())
        return _masked_softmax(x, jnp.asarray(where), axis)
    unnormalized = jnp.exp(x - _stop(_max_keepdims(x, axis, where)))
    result: Array = unnormalized / jnp.sum(unnormalized, axis, keepdims=True)
    return result


@functools.partial(custom_jvp, nondiff_argnums=(2,))
def _masked_softmax(x: Array, where: Array, axis: Any) -> Array:
    unnormalized = jnp.exp(x - _stop(_max_keepdims(x, axis, where)))
    result = unnormalized / jnp.sum(unnormalized, axis, where=where, keepdims=True)
    return jnp.where(where, result, 0)


@_masked_softmax.defjvp
def _masked_softmax_jvp(axis: Any, primals: Any, tangents: Any) -> Any:
    x, where = primals
    x_dot = tangents[0]
    y = _masked_softmax(x, where, axis)
    y_dot = y * (x_dot - jnp.sum(y * x_dot, axis, where=where, keepdims=True))
    return y, y_dot


def log_softmax(
    x: Array, axis: int | tuple[int, ...] | None = -1, where: Array | None = None
) -> Array:
    """``x - logsumexp(x)`` along ``axis``."""
    x = _arr(x)
    # Masked-out entries enter as -inf (JAX's formula): their NaN cotangents then stop at that
    # `where`, so a fully masked row has a zero gradient, not NaN.
    x_safe = x if where is None else jnp.where(where, x, -jnp.inf)
    shifted = x_safe - _stop(_max_keepdims(x, axis, where))
    total = jnp.sum(jnp.exp(shifted), axis, where=where, keepdims=True)
    result = shifted - jnp.log(total)
    if where is not None:
        result = jnp.where(where, result, -jnp.inf)
    return result


def standardize(
    x: Array,
    axis: int | tuple[int, ...] | None = -1,
    mean: Array | None = None,
    variance: Array | None = None,
    epsilon: Any = 1e-5,
    where: Array | None = None,
    algorithm: str = "fast",
) -> Array:
    """``(x - mean) / sqrt(variance + epsilon)`` along ``axis``; ``algorithm="fast"`` uses
    ``mean(x**2) - mean(x)**2`` clipped at 0, ``"stable"`` uses ``mean((x - mean)**2)``."""
    x = _arr(x)
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = jnp.mean(jnp.square(x - mean), axis, keepdims=True, where=where)
        elif algorithm == "fast":
            variance = jnp.mean(jnp.square(x), axis, keepdims=True, where=where) - jnp.square(mean)
            if jnp.iscomplexobj(variance):  # JAX clips this variance at 0: complex has no order
                raise ValueError(
                    "standardize: the 'fast' variance of complex values cannot be clipped at 0 "
                    "(complex numbers have no order); pass variance= or use algorithm='stable'"
                )
            variance = _clip_at_zero(variance)
        else:
            raise ValueError(f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
    return jnp.subtract(x, mean) * lax.rsqrt(variance + epsilon)


def _clip_at_zero(v: Array) -> Array:
    """``max(v, 0)`` whose derivative is 1 at ``v == 0`` (not ``max``'s 1/2): a variance is
    never negative in exact arithmetic, so at a constant row its derivatives are those of the
    variance itself (docs/autodiff.md: the third derivative of standardize there)."""
    return jnp.where(v < 0, jnp.zeros_like(v), v)


def one_hot(x: Array, num_classes: int, *, dtype: Any = None, axis: int = -1) -> Array:
    """``x[..., None] == arange(num_classes)`` as ``dtype`` (default float), the new axis at
    ``axis``; out-of-range and negative classes give all-zero rows."""
    try:
        n = operator.index(num_classes)
    except TypeError:
        if isinstance(num_classes, _BaseArray) and not core.is_concrete(num_classes):
            raise ConcretizationTypeError(
                num_classes, "jax.nn.one_hot argument `num_classes`"
            ) from None
        raise TypeError(
            f"one_hot: num_classes must be a concrete integer, got {num_classes!r}"
        ) from None
    if n < 0:
        raise TypeError(
            f"one_hot: num_classes must be nonnegative, got {n} (an iota of shape with a "
            "negative element)"
        )
    x = _arr(x)
    if not dtypes.isdtype(x.dtype, "integral"):
        warnings.warn(
            f"jax.nn.one_hot input should be integer-typed; got dtype={x.dtype}",
            DeprecationWarning,
            stacklevel=2,
        )
    d = dtypes.default_float_dtype() if dtype is None else dtype
    if not isinstance(axis, (int, np.integer)):
        # JAX reads any other axis as the name of a mapped axis (vmap's axis_name): the class
        # is that axis' index, so num_classes must be its size; an unbound name is NameError
        size = lax.axis_size(axis)
        if n != size:
            raise ValueError(
                f"one_hot: num_classes ({n}) must be the size ({size}) of the mapped axis {axis!r}"
            )
        return (x == lax.axis_index(axis)).astype(d)
    out_axis = axis % (x.ndim + 1) if -(x.ndim + 1) <= axis <= x.ndim else None
    if out_axis is None:
        raise ValueError(f"axis {axis} is out of bounds for an output of rank {x.ndim + 1}")
    lhs = jnp.expand_dims(x, out_axis)
    shape = [1] * (x.ndim + 1)
    shape[out_axis] = n
    rhs = jnp.arange(n, dtype=x.dtype).reshape(shape)
    return (lhs == rhs).astype(d)


normalize = standardize  # Flax's (and jax.nn's) older name
