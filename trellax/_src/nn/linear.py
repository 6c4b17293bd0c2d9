"""Linear layers: ``Dense``, ``DenseGeneral``, ``Einsum`` and ``Embed``.

Parameters are created in ``param_dtype`` and promoted at call time together with the input
(``promote_dtype``), so the computation dtype is the join of the input's and the *stored*
parameters' dtypes (float32 floor for integer inputs), or ``dtype`` when given.
"""

from __future__ import annotations

import dataclasses
import math
import re
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.nn import initializers
from trellax._src.nn.dtypes import promote_dtype
from trellax._src.nn.module import Module, compact, merge_param
from trellax._src.nn.partitioning import AxisMetadata

Dtype = Any
default_kernel_init = initializers.lecun_normal()
default_embed_init = initializers.variance_scaling(1.0, "fan_in", "normal", out_axis=0)


def _canonicalize_tuple(x: int | Sequence[int]) -> tuple[int, ...]:
    return (x,) if isinstance(x, int) else tuple(x)


def _normalize_axes(axes: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    # a negative axis counts from the end once; one past the end stays out of range (Flax's
    # IndexError where the kernel's shape is read), it does not wrap
    return tuple(sorted(a if a >= 0 else ndim + a for a in axes))


class Dense(Module):
    """``y = x @ kernel + bias`` over the last axis of ``x``.

    >>> import trellax.numpy as tnp, trellax.random as random, trellax.nn as nn
    >>> layer = nn.Dense(4)
    >>> variables = layer.init(random.PRNGKey(0), tnp.ones((2, 3), "bfloat16"))
    >>> layer.apply(variables, tnp.ones((2, 3), "bfloat16")).dtype  # bf16 ⊔ f32 params
    dtype('float32')
    """

    features: int
    use_bias: bool = True
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    precision: Any = None
    kernel_init: Any = default_kernel_init
    bias_init: Any = initializers.zeros
    # Flax's hooks: the promotion rule, and a dot_general (function, or class to instantiate)
    promote_dtype: Any = promote_dtype
    dot_general: Any = None
    dot_general_cls: Any = None

    @compact
    def __call__(self, inputs: Any) -> Any:
        inputs = jnp.asarray(inputs)
        kernel = self.param(
            "kernel", self.kernel_init, (inputs.shape[-1], self.features), self.param_dtype
        )
        bias = (
            self.param("bias", self.bias_init, (self.features,), self.param_dtype)
            if self.use_bias
            else None
        )
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        if self.dot_general_cls is not None:
            dot_general = self.dot_general_cls()
        else:
            dot_general = self.dot_general if self.dot_general is not None else lax.dot_general
        y = dot_general(
            inputs, kernel, (((inputs.ndim - 1,), (0,)), ((), ())), precision=self.precision
        )
        if bias is not None:
            y = y + jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))
        return y


@dataclasses.dataclass(frozen=True)
class _FlatInit:
    """Calls ``init`` on the 2-d (kernel) or 1-d (bias) flattening of the requested shape, so
    fans are computed as for the equivalent matrix, then reshapes (hashable, so the parameter
    shape check is cached)."""

    init: Any
    n_batch: int
    n_in_end: int
    n_features: int
    flat_bias: bool = False

    def __call__(self, rng: Any, shape: Sequence[int], dtype: Any = jnp.float32) -> Any:
        batch = math.prod(shape[: self.n_batch])
        out = math.prod(shape[len(shape) - self.n_features :])
        if self.flat_bias:
            flat: tuple[int, ...] = (batch * out,)
        else:
            flat = (batch * math.prod(shape[self.n_batch : self.n_in_end]), out)
        value = self.init(rng, flat, dtype)
        if isinstance(value, AxisMetadata):  # a boxed initializer: reshape inside the box
            return value.replace_boxed(jnp.reshape(value.unbox(), tuple(shape)))
        return jnp.reshape(value, tuple(shape))


class DenseGeneral(Module):
    """A linear map contracting ``axis`` of the input to ``features`` (int or tuple);
    ``batch_dims`` (leading axes) are kept and get their own kernels."""

    features: int | Sequence[int]
    axis: int | Sequence[int] = -1
    batch_dims: Sequence[int] = ()
    use_bias: bool = True
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    kernel_init: Any = default_kernel_init
    bias_init: Any = initializers.zeros
    precision: Any = None
    # Flax's hooks, as Dense's
    promote_dtype: Any = promote_dtype
    dot_general: Any = None
    dot_general_cls: Any = None

    @compact
    def __call__(self, inputs: Any) -> Any:
        inputs = jnp.asarray(inputs)
        features = _canonicalize_tuple(self.features)
        axis = _normalize_axes(_canonicalize_tuple(self.axis), inputs.ndim)
        batch_dims = _normalize_axes(_canonicalize_tuple(self.batch_dims), inputs.ndim)
        if batch_dims and set(batch_dims) != set(range(max(batch_dims) + 1)):
            raise ValueError(
                f"batch_dims {tuple(self.batch_dims)} must be consecutive leading dimensions "
                "starting from 0."
            )
        n_batch, n_axis, n_features = len(batch_dims), len(axis), len(features)
        batch_shape = tuple(inputs.shape[d] for d in batch_dims)
        kernel_shape = tuple(inputs.shape[a] for a in axis) + features

        kernel_init = _FlatInit(self.kernel_init, n_batch, n_batch + n_axis, n_features)
        kernel = self.param("kernel", kernel_init, batch_shape + kernel_shape, self.param_dtype)
        bias = None
        if self.use_bias:
            bias_init = _FlatInit(self.bias_init, n_batch, n_batch, n_features, flat_bias=True)
            bias = self.param("bias", bias_init, batch_shape + features, self.param_dtype)
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        batch_ind = tuple(range(n_batch))
        contract_ind = tuple(range(n_batch, n_axis + n_batch))
        if self.dot_general_cls is not None:
            dot_general = self.dot_general_cls()
        else:
            dot_general = self.dot_general if self.dot_general is not None else lax.dot_general
        out = dot_general(
            inputs,
            kernel,
            ((axis, contract_ind), (batch_dims, batch_ind)),
            precision=self.precision,
        )
        if bias is not None:
            n_free = out.ndim - n_batch - n_features
            out = out + jnp.reshape(bias, batch_shape + (1,) * n_free + features)
        return out


class Einsum(Module):
    """``einsum(einsum_str, inputs, kernel) + bias`` with a kernel of ``shape``; the bias
    covers the kernel's axes that appear in the output (an ellipsis stands for the same axes in
    every term, aligned on the right, as in ``einsum``)."""

    shape: Sequence[int]
    einsum_str: str | None = None
    use_bias: bool = True
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    precision: Any = None
    kernel_init: Any = default_kernel_init
    bias_init: Any = initializers.zeros
    promote_dtype: Any = promote_dtype
    preferred_element_type: Dtype | None = None

    @compact
    def __call__(self, inputs: Any, einsum_str: str | None = None) -> Any:
        spec = merge_param("einsum_str", self.einsum_str, einsum_str).replace(" ", "")
        if "->" not in spec:
            raise ValueError('`einsum_str` equation must be explicit and include "->".')
        if spec.count(",") != 1:
            raise ValueError(
                "`einsum_str` equation must have exactly two operands and therefore, exactly "
                f"one comma character, instead of {spec.count(',')}"
            )
        kernel = self.param("kernel", self.kernel_init, tuple(self.shape), self.param_dtype)
        bias = None
        if self.use_bias:
            bias_shape, broadcast_shape = _einsum_bias_shapes(
                spec, jnp.ndim(inputs), tuple(self.shape)
            )
            bias = self.param("bias", self.bias_init, bias_shape, self.param_dtype)
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        y = jnp.einsum(
            spec,
            inputs,
            kernel,
            precision=self.precision,
            preferred_element_type=self.preferred_element_type,
        )
        if bias is not None:
            y = y + jnp.reshape(bias, broadcast_shape)
        return y


def _einsum_bias_shapes(
    spec: str, lhs_ndim: int, shape: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The bias shape of ``Einsum`` (the kernel's sizes at its labels that the output keeps, in
    output order) and its shape broadcast against the output (1 at the other output axes)."""
    lhs, rhs, out = re.split(",|->", spec)
    used = set((lhs + rhs + out).replace(".", ""))
    free = (c for c in string.ascii_letters if c not in used)
    spans = [_ellipsis_rank(t, n) for t, n in ((lhs, lhs_ndim), (rhs, len(shape)))]
    letters = "".join(next(free) for _ in range(max(spans)))
    rhs = rhs.replace("...", letters[len(letters) - spans[1] :])
    out = out.replace("...", letters)
    if len(rhs) != len(shape):
        raise ValueError(
            f"Einsum: the kernel term {rhs!r} of {spec!r} does not match the kernel shape {shape}"
        )
    where = {c: i for i, c in enumerate(rhs)}
    bias = tuple(shape[where[c]] for c in out if c in where)
    return bias, tuple(shape[where[c]] if c in where else 1 for c in out)


def _ellipsis_rank(term: str, ndim: int) -> int:
    """How many axes the ``...`` of an einsum term of an ``ndim``-d operand stands for."""
    return ndim - len(term.replace("...", "")) if "..." in term else 0


class Embed(Module):
    """A lookup table of ``num_embeddings`` rows of ``features``.

    ``__call__`` takes integer indices (anything else raises ``ValueError``) and returns rows of
    the table cast to ``dtype`` if given, else in the table's stored dtype (an integer table is
    allowed). Out-of-range indices give NaN rows, as ``take`` does. ``attend(query)`` computes
    ``query @ table.T`` in the promoted (inexact) dtype.
    """

    num_embeddings: int
    features: int
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    embedding_init: Any = default_embed_init
    promote_dtype: Any = promote_dtype

    def setup(self) -> None:
        self.embedding = self.param(
            "embedding",
            self.embedding_init,
            (self.num_embeddings, self.features),
            self.param_dtype,
        )

    def __call__(self, inputs: Any) -> Any:
        inputs = jnp.asarray(inputs)
        if not dtypes.issubdtype(inputs.dtype, np.integer):
            raise ValueError("Input type must be an integer or unsigned integer.")
        (embedding,) = self.promote_dtype(self.embedding, dtype=self.dtype, inexact=False)
        if self.num_embeddings == 1:
            return jnp.broadcast_to(embedding, (*inputs.shape, self.features))
        return jnp.take(embedding, inputs, axis=0)

    def attend(self, query: Any) -> Any:
        query, embedding = self.promote_dtype(query, self.embedding, dtype=self.dtype)
        return jnp.dot(query, embedding.T)
