"""Flax's fp8 matrix products (``flax.linen.fp8_ops``): delayed-scaling quantization of both
operands and of the output gradient to float8, with the scales and amax histories kept as
variables of the ``_overwrite_with_gradient`` collection.

How it works (Flax's scheme, computed here with ``ml_dtypes``' float8 types, which round to
nearest-even as XLA's conversions do, so the quantized values are exact):

- every step, a tensor's new scale is ``amax / fp8_max`` where ``amax`` is the largest entry of
  its amax history (the scale is kept where the amax is 0 or not finite), and the history is
  rolled by one with ``max |x|`` written at its front (``update_fp8_meta``);
- inputs and kernels are scaled, clipped to the float8 range and cast to ``float8_e4m3fn`` (or
  ``e4m3fnuz`` for ``NANOOFp8DotGeneralOp``), the output gradient to ``float8_e5m2``;
- the *gradient* of a scale or history variable is its new value (custom VJPs), so a training
  step's gradients carry the updated metadata; ``TrainState.apply_gradients`` replaces the
  ``_overwrite_with_gradient`` collection by its gradient instead of optimizing it.

The float8 products run through ``lax.dot_general`` with float32 (``preferred_element_type``)
accumulation. NumPy has no float8 arithmetic, so they are no faster than float32 products: the
layers are for running fp8 training code and checking its numerics, not for speed.

Flax's meta dtype ``fp32_max_grad`` (alias ``fm32``) is a user-defined extended dtype
(``trellax._src.dtypes.extended``): float32 values whose cotangents accumulate with ``max``
from ``-inf`` instead of ``+`` from 0. A scale or history converted to it and used several times
(in every step of a ``scan``, say) gets the largest of its updates as gradient, not their sum.
``update_fp8_meta`` and the quantizers convert such values to float32 for their arithmetic and
give the updates back in the meta dtype.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.core.core import ShapedArray
from trellax._src.custom.derivatives import custom_jvp, custom_vjp
from trellax._src.dtypes.dtypes import extended
from trellax._src.dtypes.extended import ExtendedDType
from trellax._src.nn import initializers
from trellax._src.nn._random import random as _random
from trellax._src.nn.module import Module

OVERWRITE_WITH_GRADIENT = "_overwrite_with_gradient"
#: Flax's flag for "arrays of extended dtypes exist outside jit": they do in trellax.
CAN_USE_EARRAY = True

_FP8_TYPES = tuple(
    np.dtype(t)
    for t in (
        dtypes.float8_e4m3fn,
        dtypes.float8_e5m2,
        dtypes.float8_e4m3fnuz,
        dtypes.float8_e5m2fnuz,
    )
)


# -- the meta dtype: float32 whose cotangents accumulate with max ---------------------------


class fp8_meta_dtype(extended):
    """The scalar type of the meta dtype (for ``dtypes.issubdtype``)."""


class Fp8MetaTyRules:
    """The rules of :class:`fp8_meta_dtype_wrapper`: stored as its float dtype, converted to and
    from it freely, tangents of its own dtype, cotangents combined with ``max``."""

    @staticmethod
    def physical_element_aval(dtype: Any) -> Any:
        return ShapedArray((), dtype.float_dtype)

    @staticmethod
    def convert_from(meta: Any, other: Any) -> bool:
        return bool(meta.float_dtype == other)

    @staticmethod
    def convert_to(other: Any, meta: Any) -> bool:
        return bool(meta.float_dtype == other)

    @staticmethod
    def add(dt: Any, x: Any, y: Any) -> Any:
        f = dt.float_dtype
        biggest = lax.max(lax.convert_element_type(x, f), lax.convert_element_type(y, f))
        return lax.convert_element_type(biggest, dt)

    @staticmethod
    def zero(dt: Any) -> Any:
        f = np.dtype(dt.float_dtype)
        bottom = -np.inf if _has_inf(f) else dtypes.finfo(f).min
        return lax.convert_element_type(np.array(bottom, f), dt)

    @staticmethod
    def tangent_dtype(dtype: Any) -> Any:
        return dtype

    @staticmethod
    def full(shape: Any, fill_value: Any, dtype: Any) -> Any:
        filled = lax.full(shape, lax.convert_element_type(fill_value, dtype.float_dtype))
        return lax.convert_element_type(filled, dtype)


def _has_inf(d: np.dtype[Any]) -> bool:
    return bool(np.isinf(np.array(np.inf).astype(d)))


@dataclasses.dataclass(frozen=True)
class fp8_meta_dtype_wrapper(ExtendedDType):
    """``fp8_meta_dtype_wrapper(float32)``: prints ``fp8_meta32``."""

    float_dtype: Any
    _rules: Any = Fp8MetaTyRules
    type: Any = fp8_meta_dtype

    def __repr__(self) -> str:
        return f"fp8_meta{dtypes.finfo(self.float_dtype).bits}"

    name = property(__repr__)


#: Flax's float32 meta dtype, under both its names.
fm32 = fp8_meta_dtype_wrapper(np.dtype(np.float32))
fp32_max_grad = fm32


def _fm32_to_float32(value: Any) -> Any:
    """``value`` as float32 when it has the meta dtype (else unchanged)."""
    if value.dtype == fm32:
        return lax.convert_element_type(value, jnp.float32)
    return value


# -- quantization ---------------------------------------------------------------------------


def get_fp8_max(fp8_dtype: Any, out_dtype: Any) -> Any:
    """The largest finite value of the float8 type ``fp8_dtype``, as a scalar of ``out_dtype``."""
    if np.dtype(fp8_dtype) not in _FP8_TYPES:
        raise ValueError(f"get_fp8_max: {fp8_dtype} is not one of the float8 types {_FP8_TYPES}")
    return jnp.finfo(fp8_dtype).max.astype(out_dtype)


def quantize(x: Any, q_dtype: Any, scale: Any, compute_dtype: Any) -> Any:
    """``x / scale`` (in ``compute_dtype``) clipped to ``q_dtype``'s range and cast to it."""
    top = get_fp8_max(q_dtype, compute_dtype)
    scaled = x / jnp.broadcast_to(scale.astype(compute_dtype), x.shape)
    return jnp.clip(scaled, -top, top).astype(q_dtype)


def dequantize(x: Any, dq_dtype: Any, scale: Any) -> Any:
    """``x * scale`` in ``dq_dtype``."""
    return x.astype(dq_dtype) * jnp.broadcast_to(scale.astype(dq_dtype), x.shape)


def qdq(x: Any, q_dtype: Any, scale: Any, compute_dtype: Any) -> Any:
    """``x`` quantized to ``q_dtype`` and back to its own dtype (what float8 keeps of it)."""
    return dequantize(quantize(x, q_dtype, scale, compute_dtype), x.dtype, scale)


def compute_scale(amax: Any, scale: Any, fp8_max: Any, margin: int = 0) -> Any:
    """The new scale ``amax * 2**margin / fp8_max``; the old ``scale`` where ``amax`` is 0 or
    not finite."""
    old = 1.0 / scale
    factor = (fp8_max / amax) / (2**margin)
    factor = jnp.where(amax > 0.0, factor, old)
    factor = jnp.where(jnp.isfinite(amax), factor, old)
    return 1.0 / factor


def compute_amax_history(x: Any, amax_history: Any) -> Any:
    """The history rolled back by one with ``max |x|`` written at index 0."""
    latest = jnp.max(jnp.abs(x)).astype(amax_history.dtype)
    return jnp.roll(amax_history, shift=-1, axis=0).at[0].set(latest)


def update_fp8_meta(x: Any, q_dtype: Any, scale: Any, amax_history: Any) -> tuple[Any, Any]:
    """``(new_scale, new_history)`` of a tensor ``x`` about to be quantized to ``q_dtype``
    (in the meta dtype when both came in it)."""
    meta = scale.dtype == fm32 and amax_history.dtype == fm32
    if meta:
        scale, amax_history = _fm32_to_float32(scale), _fm32_to_float32(amax_history)
    top = get_fp8_max(q_dtype, jnp.float32)
    new_scale = compute_scale(jnp.max(amax_history, axis=0), scale, top)
    new_history = compute_amax_history(x, amax_history)
    if meta:
        new_scale = lax.convert_element_type(new_scale, fm32)  # type: ignore[arg-type]
        new_history = lax.convert_element_type(new_history, fm32)  # type: ignore[arg-type]
    return new_scale, new_history


def quantize_dequantize_update(
    x: Any, q_dtype: Any, scale: Any, amax_history: Any, compute_dtype: Any
) -> tuple[Any, Any, Any]:
    """``(qdq(x) with the new scale, new_scale, new_history)``."""
    new_scale, new_history = update_fp8_meta(x, q_dtype, scale, amax_history)
    return qdq(x, q_dtype, _fm32_to_float32(new_scale), compute_dtype), new_scale, new_history


# -- transposes of dot_general (the backward products of quantized_dot) ---------------------


def _kept(ndim: int, *used: Sequence[int]) -> list[int]:
    gone = {a for axes in used for a in axes}
    return [a for a in range(ndim) if a not in gone]


def dot_general_transpose_lhs(
    g: Any,
    x: Any,
    y: Any,
    *,
    dimension_numbers: Any,
    precision: Any,
    preferred_element_type: Any,
    swap_ans: bool = False,
) -> Any:
    """The cotangent of the left operand ``x`` of ``dot_general(x, y, dimension_numbers)`` for
    the output cotangent ``g`` (``swap_ans``: the output's free axes are ``y``'s then ``x``'s)."""
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_kept = _kept(np.ndim(x), x_contract, x_batch)
    y_kept = _kept(np.ndim(y), y_contract, y_batch)
    nb = len(x_batch)
    start = nb if swap_ans else nb + len(x_kept)
    g_y_axes = list(range(start, start + len(y_kept)))
    dims = ((g_y_axes, y_kept), (list(range(nb)), list(y_batch)))
    prod = lax.dot_general(
        g, y, dims, precision=precision, preferred_element_type=preferred_element_type
    )
    # prod's axes: the batch axes, x's kept axes, then x's contracted axes in y's order
    x_contract_by_y = [x_contract[i] for i in np.argsort(y_contract)]
    layout = list(x_batch) + x_kept + x_contract_by_y
    return lax.transpose(prod, tuple(int(i) for i in np.argsort(layout)))


def dot_general_transpose_rhs(
    g: Any, x: Any, y: Any, *, dimension_numbers: Any, precision: Any, preferred_element_type: Any
) -> Any:
    """The cotangent of the right operand ``y`` of ``dot_general(x, y, dimension_numbers)``."""
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    swapped = ((y_contract, x_contract), (y_batch, x_batch))
    return dot_general_transpose_lhs(
        g,
        y,
        x,
        dimension_numbers=swapped,
        precision=precision,
        preferred_element_type=preferred_element_type,
        swap_ans=True,
    )


# -- the custom-gradient pieces -------------------------------------------------------------


def _in_qdq(compute_dtype: Any, q_dtype: Any, inp: Any, scale: Any, amax_history: Any) -> Any:
    return quantize_dequantize_update(inp, q_dtype, scale, amax_history, compute_dtype)[0]


def _in_qdq_fwd(
    compute_dtype: Any, q_dtype: Any, inp: Any, scale: Any, amax_history: Any
) -> tuple[Any, Any]:
    out, new_scale, new_history = quantize_dequantize_update(
        inp, q_dtype, scale, amax_history, compute_dtype
    )
    return out, (new_scale, new_history)


def _in_qdq_bwd(compute_dtype: Any, q_dtype: Any, res: Any, g: Any) -> tuple[Any, Any, Any]:
    new_scale, new_history = res
    return g, new_scale, new_history


#: ``in_qdq(compute_dtype, q_dtype, x, scale, amax_history)``: ``x`` through float8 with the
#: updated scale; the gradient passes through and the metadata's gradients are their updates.
in_qdq = custom_vjp(_in_qdq, nondiff_argnums=(0, 1))
in_qdq.defvjp(_in_qdq_fwd, _in_qdq_bwd)


def _out_qdq(compute_dtype: Any, q_dtype: Any, out: Any, scale: Any, amax_history: Any) -> Any:
    return out


def _out_qdq_fwd(
    compute_dtype: Any, q_dtype: Any, out: Any, scale: Any, amax_history: Any
) -> tuple[Any, Any]:
    return out, (scale, amax_history)


def _out_qdq_bwd(compute_dtype: Any, q_dtype: Any, res: Any, g: Any) -> tuple[Any, Any, Any]:
    scale, amax_history = res
    return quantize_dequantize_update(g, q_dtype, scale, amax_history, compute_dtype)


#: ``out_qdq(compute_dtype, q_dtype, y, scale, amax_history)``: ``y`` unchanged; its gradient is
#: put through float8 (``q_dtype``, e5m2) and the metadata's gradients are their updates.
out_qdq = custom_vjp(_out_qdq, nondiff_argnums=(0, 1))
out_qdq.defvjp(_out_qdq_fwd, _out_qdq_bwd)


def _in_q(
    compute_dtype: Any, q_dtype: Any, inp: Any, scale: Any, amax_history: Any
) -> tuple[Any, Any]:
    out: tuple[Any, Any] = _in_q_fwd(compute_dtype, q_dtype, inp, scale, amax_history)[0]
    return out


def _in_q_fwd(
    compute_dtype: Any, q_dtype: Any, inp: Any, scale: Any, amax_history: Any
) -> tuple[Any, Any]:
    new_scale, new_history = update_fp8_meta(inp, q_dtype, scale, amax_history)
    q = quantize(inp, q_dtype, _fm32_to_float32(new_scale), compute_dtype)
    return (q, new_scale), (new_scale, new_history)


def _in_q_bwd(compute_dtype: Any, q_dtype: Any, res: Any, g: Any) -> tuple[Any, Any, Any]:
    new_scale, new_history = res
    return None, new_scale, new_history


#: ``in_q(compute_dtype, q_dtype, x, scale, amax_history) -> (x in float8, new_scale)``; no
#: gradient for ``x``, the metadata's gradients are their updates.
in_q = custom_vjp(_in_q, nondiff_argnums=(0, 1))
in_q.defvjp(_in_q_fwd, _in_q_bwd)


def _out_dq(dq_type: Any, lhs_scale: Any, rhs_scale: Any, out: Any) -> Any:
    return dequantize(out, dq_type, _fm32_to_float32(lhs_scale) * _fm32_to_float32(rhs_scale))


def _out_dq_fwd(dq_type: Any, lhs_scale: Any, rhs_scale: Any, out: Any) -> tuple[Any, Any]:
    return _out_dq(dq_type, lhs_scale, rhs_scale, out), None


def _out_dq_bwd(dq_type: Any, res: Any, g: Any) -> tuple[Any, Any, Any]:
    return None, None, g


#: ``out_dq(dq_type, lhs_scale, rhs_scale, y)``: ``y * lhs_scale * rhs_scale`` in ``dq_type``,
#: the gradient passing through unscaled.
out_dq = custom_vjp(_out_dq, nondiff_argnums=(0,))
out_dq.defvjp(_out_dq_fwd, _out_dq_bwd)


def _quantized_dot(
    lhs: Any,
    q_lhs: Any,
    lhs_scale: Any,
    rhs: Any,
    q_rhs: Any,
    rhs_scale: Any,
    out_grad_scale: Any,
    out_grad_amax_history: Any,
    dimension_numbers: Any,
    preferred_element_type: Any = None,
) -> Any:
    return lax.dot_general(
        q_lhs,
        q_rhs,
        dimension_numbers,
        precision=lax.Precision.DEFAULT,
        preferred_element_type=preferred_element_type,
    )


def _quantized_dot_fwd(*args: Any) -> tuple[Any, Any]:
    return _quantized_dot(*args), args[:8]


def _quantized_dot_bwd(
    dimension_numbers: Any, preferred_element_type: Any, res: Any, g: Any
) -> tuple[Any, ...]:
    _, q_lhs, lhs_scale, _, q_rhs, rhs_scale, g_scale, g_history = res
    new_g_scale, new_g_history = update_fp8_meta(g, dtypes.float8_e5m2, g_scale, g_history)
    q_g = quantize(g, dtypes.float8_e5m2, new_g_scale, preferred_element_type)
    options = dict(
        dimension_numbers=dimension_numbers,
        precision=lax.Precision.HIGHEST,
        preferred_element_type=preferred_element_type,
    )
    grad_lhs = dot_general_transpose_lhs(q_g, q_lhs, q_rhs, **options)
    grad_lhs = dequantize(grad_lhs, preferred_element_type, rhs_scale * new_g_scale)
    grad_rhs = dot_general_transpose_rhs(q_g, q_lhs, q_rhs, **options)
    grad_rhs = dequantize(grad_rhs, preferred_element_type, lhs_scale * new_g_scale)
    return grad_lhs, None, None, grad_rhs, None, None, new_g_scale, new_g_history


#: ``quantized_dot(lhs, q_lhs, lhs_scale, rhs, q_rhs, rhs_scale, grad_scale, grad_history,
#: dimension_numbers, preferred_element_type)``: the product of the float8 operands; backward,
#: the output gradient goes through float8 e5m2 and the products are rescaled.
quantized_dot = custom_vjp(_quantized_dot, nondiff_argnums=(8, 9))
quantized_dot.defvjp(_quantized_dot_fwd, _quantized_dot_bwd)


def fp8_scaled_dot_general(
    lhs: Any,
    rhs: Any,
    dimension_numbers: Any,
    precision: Any = None,
    preferred_element_type: Any = None,
    *,
    lhs_scale: Any = None,
    rhs_scale: Any = None,
    grad_scale: Any = None,
    lhs_amax_history: Any = None,
    rhs_amax_history: Any = None,
    grad_amax_history: Any = None,
    quantize_compute_type: Any = jnp.float32,
) -> Any:
    """``dot_general`` of ``lhs`` and ``rhs`` quantized to float8 e4m3 with delayed scaling
    (``precision`` is ignored, with a warning, as in Flax)."""
    if precision is not None:
        warnings.warn(
            'The function fp8_scaled_dot_general will set the "precision" and disregard any '
            'provided "precision" argument.',
            stacklevel=2,
        )
    e4m3 = dtypes.float8_e4m3fn
    q_lhs, new_lhs_scale = in_q(quantize_compute_type, e4m3, lhs, lhs_scale, lhs_amax_history)
    q_rhs, new_rhs_scale = in_q(quantize_compute_type, e4m3, rhs, rhs_scale, rhs_amax_history)
    y = quantized_dot(
        lhs,
        q_lhs,
        new_lhs_scale,
        rhs,
        q_rhs,
        new_rhs_scale,
        grad_scale,
        grad_amax_history,
        dimension_numbers,
        preferred_element_type,
    )
    return out_dq(preferred_element_type, new_lhs_scale, new_rhs_scale, y)


def _dot_general_with_precision(
    lhs: Any, rhs: Any, dimension_numbers: Any, precision: Any = None, preferred: Any = None
) -> Any:
    if precision is not None or preferred is not None:
        warnings.warn(
            "The function dot_general_with_precision will set the "
            "precision/preferred_element_type and disregard any provided values.",
            stacklevel=2,
        )
    return lax.dot_general(lhs, rhs, dimension_numbers, precision=lax.Precision.DEFAULT)


def _dot_general_with_precision_jvp(
    dimension_numbers: Any, precision: Any, preferred: Any, primals: Any, tangents: Any
) -> tuple[Any, Any]:
    lhs, rhs = primals
    lhs_dot, rhs_dot = tangents
    out = lax.dot_general(lhs, rhs, dimension_numbers, precision=lax.Precision.DEFAULT)
    high = lax.Precision.HIGHEST
    tangent = lax.dot_general(lhs_dot, rhs, dimension_numbers, precision=high)
    tangent = tangent + lax.dot_general(lhs, rhs_dot, dimension_numbers, precision=high)
    return out, tangent


#: ``dot_general_with_precision(lhs, rhs, dimension_numbers, precision, preferred)``: the
#: product at default precision, its derivative at the highest.
dot_general_with_precision = custom_jvp(_dot_general_with_precision, nondiff_argnums=(2, 3, 4))
dot_general_with_precision.defjvp(_dot_general_with_precision_jvp)


# -- the layers -----------------------------------------------------------------------------


def _parse_dot_inputs(*args: Any, **kwargs: Any) -> tuple[Any, Any, Any, Any]:
    """``(x, kernel, dimension_numbers, compute dtype)`` of a ``dot_general(x, kernel, dn)``
    call; ``x`` is cast to the kernel's dtype (the layer's computation dtype)."""
    if len(args) != 3:
        raise TypeError(
            f"an fp8 dot_general takes (inputs, kernel, dimension_numbers), got {len(args)} "
            "positional arguments"
        )
    x, kernel, dimension_numbers = args
    compute_dtype = kernel.dtype
    return jnp.asarray(x, compute_dtype), kernel, dimension_numbers, compute_dtype


class Fp8DotGeneralBase(Module):
    """The fp8 metadata: scales (1,) and amax histories (``amax_history_length``,) of the
    input, the kernel and the output gradient, float32 variables of
    ``_overwrite_with_gradient``."""

    amax_history_length: int = 1024
    e4m3_dtype: Any = dtypes.float8_e4m3fn
    e5m2_dtype: Any = dtypes.float8_e5m2

    def setup(self) -> None:
        key = _random().PRNGKey(0)
        scale_args = (initializers.ones_init(), key, (1,), jnp.float32)
        history_args = (initializers.zeros_init(), key, (self.amax_history_length,), jnp.float32)
        col = OVERWRITE_WITH_GRADIENT
        self.input_amax_history = self.variable(col, "input_amax_history", *history_args)
        self.kernel_amax_history = self.variable(col, "kernel_amax_history", *history_args)
        self.output_grad_amax_history = self.variable(
            col, "output_grad_amax_history", *history_args
        )
        self.input_scale = self.variable(col, "input_scale", *scale_args)
        self.kernel_scale = self.variable(col, "kernel_scale", *scale_args)
        self.output_grad_scale = self.variable(col, "output_grad_scale", *scale_args)


class Fp8DotGeneralOp(Fp8DotGeneralBase):
    """A ``dot_general`` (for ``Dense(dot_general_cls=...)``) whose input and kernel pass through
    float8 e4m3 and whose output gradient passes through e5m2 (quantize-dequantize), the
    product itself in the computation dtype. Deprecated in Flax, as here."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if type(self) is Fp8DotGeneralOp:
            warnings.warn(
                "The Fp8DotGeneralOp is deprecated. Use Fp8DirectDotGeneralOp or Fp8Einsum "
                "instead.",
                DeprecationWarning,
                stacklevel=2,
            )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        x, k, dimension_numbers, compute_dtype = _parse_dot_inputs(*args, **kwargs)
        x = in_qdq(
            compute_dtype,
            self.e4m3_dtype,
            x,
            self.input_scale.value,
            self.input_amax_history.value,
        )
        k = in_qdq(
            compute_dtype,
            self.e4m3_dtype,
            k,
            self.kernel_scale.value,
            self.kernel_amax_history.value,
        )
        y = dot_general_with_precision(x, k, dimension_numbers, None, None)
        return out_qdq(
            compute_dtype,
            self.e5m2_dtype,
            y,
            self.output_grad_scale.value,
            self.output_grad_amax_history.value,
        )


class Fp8DirectDotGeneralOp(Fp8DotGeneralBase):
    """A ``dot_general`` whose operands are cast to float8 e4m3 and multiplied as such
    (:func:`fp8_scaled_dot_general`), the result rescaled to the input's dtype."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        x, k, dimension_numbers, compute_dtype = _parse_dot_inputs(*args, **kwargs)
        return fp8_scaled_dot_general(
            x,
            k,
            dimension_numbers,
            None,
            x.dtype,
            lhs_scale=self.input_scale.value,
            rhs_scale=self.kernel_scale.value,
            grad_scale=self.output_grad_scale.value,
            lhs_amax_history=self.input_amax_history.value,
            rhs_amax_history=self.kernel_amax_history.value,
            grad_amax_history=self.output_grad_amax_history.value,
            quantize_compute_type=compute_dtype,
        )


class NANOOFp8DotGeneralOp(Fp8DotGeneralOp):
    """:class:`Fp8DotGeneralOp` with the ``fnuz`` float8 types (``e4m3fnuz``, ``e5m2fnuz``)."""

    e4m3_dtype: Any = dtypes.float8_e4m3fnuz
    e5m2_dtype: Any = dtypes.float8_e5m2fnuz


class Fp8Einsum(Fp8DotGeneralBase):
    """``einsum(eqn, lhs, rhs)`` whose pairwise products are :func:`fp8_scaled_dot_general`;
    ``rhs`` (the weight) gives the computation dtype."""

    def __call__(
        self,
        eqn: str,
        lhs: Any,
        rhs: Any,
        precision: Any = None,
        preferred_element_type: Any = None,
    ) -> Any:
        compute_dtype = rhs.dtype
        lhs = lhs.astype(compute_dtype)
        dot = functools.partial(
            fp8_scaled_dot_general,
            lhs_scale=self.input_scale.value,
            rhs_scale=self.kernel_scale.value,
            grad_scale=self.output_grad_scale.value,
            lhs_amax_history=self.input_amax_history.value,
            rhs_amax_history=self.kernel_amax_history.value,
            grad_amax_history=self.output_grad_amax_history.value,
            quantize_compute_type=compute_dtype,
        )
        return jnp.einsum(
            eqn,
            lhs,
            rhs,
            precision=precision,
            preferred_element_type=preferred_element_type,
            _dot_general=dot,
        )


#: Flax's name for :class:`Fp8DirectDotGeneralOp`.
Fp8DotGeneral = Fp8DirectDotGeneralOp
