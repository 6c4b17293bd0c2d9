"""Convolution layers ``Conv`` and ``ConvTranspose`` (channels-last: ``[batch..., *spatial,
features]``), with the FLIP dtype rule of the linear layers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.api import ShapeDtypeStruct, eval_shape
from trellax._src.nn import initializers
from trellax._src.nn.dtypes import promote_dtype
from trellax._src.nn.linear import default_kernel_init
from trellax._src.nn.module import Module, compact

Dtype = Any
PaddingLike = str | int | Sequence[int | tuple[int, int]]


def canonicalize_padding(padding: PaddingLike, rank: int) -> Any:
    """A padding string, or ``rank`` ``(low, high)`` pairs from an int or a sequence."""
    if isinstance(padding, str):
        return padding
    if isinstance(padding, int):
        return [(padding, padding)] * rank
    error = ValueError(
        f"Invalid padding format: {padding}, should be str, int, or a sequence of len {rank} "
        "where each element is an int or pair of ints."
    )
    if not isinstance(padding, Sequence) or any(
        not isinstance(p, int) and not (isinstance(p, Sequence) and len(p) == 2) for p in padding
    ):
        raise error
    pads: list[tuple[Any, ...]] = [(p, p) if isinstance(p, int) else tuple(p) for p in padding]
    if len(pads) == 1 and rank > 1:
        pads = pads * rank
    if len(pads) != rank:
        raise error
    return [(int(lo), int(hi)) for lo, hi in pads]


def _conv_dimension_numbers(ndim: int) -> lax.ConvDimensionNumbers:
    lhs = (0, ndim - 1, *range(1, ndim - 1))
    rhs = (ndim - 1, ndim - 2, *range(ndim - 2))
    return lax.ConvDimensionNumbers(lhs, rhs, lhs)


def _flatten_batch(inputs: Any, n_spatial: int) -> tuple[Any, tuple[int, ...] | None]:
    nb = inputs.ndim - (n_spatial + 1)
    if nb == 1:
        return inputs, None
    if nb < 0:
        raise ValueError(
            f"inputs of shape {inputs.shape} have too few axes for a {n_spatial}-d kernel"
        )
    batch = tuple(inputs.shape[:nb])
    return jnp.reshape(inputs, (math.prod(batch), *inputs.shape[nb:])), batch


class Conv(Module):
    """An n-d convolution (``len(kernel_size)`` spatial axes); padding ``"SAME"``, ``"VALID"``,
    ``"CIRCULAR"``, ``"CAUSAL"`` (1-d), an int, or ``(low, high)`` pairs."""

    features: int
    kernel_size: int | Sequence[int]
    strides: int | Sequence[int] | None = 1
    padding: PaddingLike = "SAME"
    input_dilation: int | Sequence[int] | None = 1
    kernel_dilation: int | Sequence[int] | None = 1
    feature_group_count: int = 1
    use_bias: bool = True
    mask: Any = None
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    precision: Any = None
    kernel_init: Any = default_kernel_init
    bias_init: Any = initializers.zeros
    promote_dtype: Any = promote_dtype
    conv_general_dilated: Any = None
    conv_general_dilated_cls: Any = None

    def _conv_fn(self) -> Any:
        """The convolution to call: ``conv_general_dilated_cls()`` or ``conv_general_dilated``
        when given (Flax's hooks), else ``lax.conv_general_dilated``."""
        if self.conv_general_dilated_cls is not None:
            return self.conv_general_dilated_cls()
        if self.conv_general_dilated is not None:
            return self.conv_general_dilated
        return lax.conv_general_dilated

    @compact
    def __call__(self, inputs: Any) -> Any:
        ks = self.kernel_size
        kernel_size = (ks,) if isinstance(ks, int) else tuple(ks)

        def bcast(x: Any) -> tuple[int, ...]:
            if x is None:
                x = 1
            return (x,) * len(kernel_size) if isinstance(x, int) else tuple(x)

        inputs, batch = _flatten_batch(jnp.asarray(inputs), len(kernel_size))
        strides, in_dil, k_dil = (
            bcast(self.strides),
            bcast(self.input_dilation),
            bcast(self.kernel_dilation),
        )
        padding = canonicalize_padding(self.padding, len(kernel_size))
        if padding in ("CIRCULAR", "REFLECT"):
            dilated = [(k - 1) * d + 1 for k, d in zip(kernel_size, k_dil)]
            pads = [(0, 0), *(((k - 1) // 2, k // 2) for k in dilated), (0, 0)]
            mode = "wrap" if padding == "CIRCULAR" else "reflect"
            inputs = jnp.pad(inputs, pads, mode=mode)
            padding = "VALID"
        elif padding == "CAUSAL":
            if len(kernel_size) != 1:
                raise ValueError("Causal padding is only implemented for 1D convolutions.")
            left = k_dil[0] * (kernel_size[0] - 1)
            inputs = jnp.pad(inputs, [(0, 0), (left, 0), (0, 0)])
            padding = "VALID"
        in_features = inputs.shape[-1]
        if not self.shared_weights:
            return self._local(inputs, batch, kernel_size, strides, padding, in_dil, k_dil)
        if in_features % self.feature_group_count:
            raise ValueError(
                f"Input features ({in_features}) must be a multiple of feature_group_count "
                f"({self.feature_group_count})."
            )
        kernel_shape = (*kernel_size, in_features // self.feature_group_count, self.features)
        if self.mask is not None and tuple(self.mask.shape) != kernel_shape:
            raise ValueError(
                "Mask needs to have the same shape as weights. "
                f"Shapes are: {self.mask.shape}, {kernel_shape}"
            )
        kernel = self.param("kernel", self.kernel_init, kernel_shape, self.param_dtype)
        if self.mask is not None:
            kernel = kernel * self.mask
        bias = (
            self.param("bias", self.bias_init, (self.features,), self.param_dtype)
            if self.use_bias
            else None
        )
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        y = self._conv_fn()(
            inputs,
            kernel,
            strides,
            padding,
            lhs_dilation=in_dil,
            rhs_dilation=k_dil,
            dimension_numbers=_conv_dimension_numbers(inputs.ndim),
            feature_group_count=self.feature_group_count,
            precision=self.precision,
        )
        if bias is not None:
            y = y + jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))
        if batch is not None:
            y = jnp.reshape(y, batch + y.shape[1:])
        return y

    @property
    def shared_weights(self) -> bool:
        """Whether one kernel slides over every position (``ConvLocal``: one per position)."""
        return True

    def _local(
        self,
        inputs: Any,
        batch: tuple[int, ...] | None,
        kernel_size: tuple[int, ...],
        strides: tuple[int, ...],
        padding: Any,
        in_dil: tuple[int, ...],
        k_dil: tuple[int, ...],
    ) -> Any:
        if self.feature_group_count != 1:
            raise NotImplementedError(
                "`lax.conv_general_dilated_local` does not support `feature_group_count != 1`, "
                f"got `{self.feature_group_count}`."
            )
        in_features = inputs.shape[-1]
        dn = _conv_dimension_numbers(inputs.ndim)
        conv = self._conv_fn()
        out_shape = eval_shape(
            lambda lhs, rhs: conv(lhs, rhs, strides, padding, in_dil, k_dil, dimension_numbers=dn),
            inputs,
            ShapeDtypeStruct((*kernel_size, in_features, self.features), inputs.dtype),
        ).shape
        kernel_shape = (*out_shape[1:-1], math.prod(kernel_size) * in_features, self.features)
        if self.mask is not None and tuple(self.mask.shape) != kernel_shape:
            raise ValueError(
                "Mask needs to have the same shape as weights. "
                f"Shapes are: {self.mask.shape}, {kernel_shape}"
            )
        kernel = self.param("kernel", self.kernel_init, kernel_shape, self.param_dtype)
        if self.mask is not None:
            kernel = kernel * self.mask
        bias = (
            self.param("bias", self.bias_init, tuple(out_shape[1:]), self.param_dtype)
            if self.use_bias
            else None
        )
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        y = lax.conv_general_dilated_local(
            inputs,
            kernel,
            strides,
            padding,
            kernel_size,
            lhs_dilation=in_dil,
            rhs_dilation=k_dil,
            dimension_numbers=dn,
            precision=self.precision,
        )
        if bias is not None:
            y = y + jnp.reshape(bias, (1,) * (y.ndim - bias.ndim) + tuple(bias.shape))
        if batch is not None:
            y = jnp.reshape(y, batch + y.shape[1:])
        return y


class ConvLocal(Conv):
    """A convolution with a separate kernel at each output position (unshared weights): the
    kernel has shape ``(*output_spatial, prod(kernel_size) * in_features, features)``."""

    @property
    def shared_weights(self) -> bool:
        return False


class ConvTranspose(Module):
    """The transposed convolution (output spatial size grows by ``strides``)."""

    features: int
    kernel_size: int | Sequence[int]
    strides: int | Sequence[int] | None = None
    padding: PaddingLike = "SAME"
    kernel_dilation: int | Sequence[int] | None = None
    use_bias: bool = True
    mask: Any = None
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    precision: Any = None
    kernel_init: Any = default_kernel_init
    bias_init: Any = initializers.zeros
    transpose_kernel: bool = False
    promote_dtype: Any = promote_dtype
    preferred_element_type: Any = None

    @compact
    def __call__(self, inputs: Any) -> Any:
        ks = self.kernel_size
        kernel_size = (ks,) if isinstance(ks, int) else tuple(ks)
        inputs, batch = _flatten_batch(jnp.asarray(inputs), len(kernel_size))
        if self.strides is None:
            strides: tuple[int, ...] = (1,) * (inputs.ndim - 2)
        elif isinstance(self.strides, int):
            strides = (self.strides,) * (inputs.ndim - 2)
        else:
            strides = tuple(self.strides)
        in_features = inputs.shape[-1]
        if self.transpose_kernel:
            kernel_shape = (*kernel_size, self.features, in_features)
        else:
            kernel_shape = (*kernel_size, in_features, self.features)
        if self.mask is not None and tuple(self.mask.shape) != kernel_shape:
            raise ValueError(
                "Mask needs to have the same shape as weights. "
                f"Shapes are: {self.mask.shape}, {kernel_shape}"
            )
        kernel = self.param("kernel", self.kernel_init, kernel_shape, self.param_dtype)
        if self.mask is not None:
            kernel = kernel * self.mask
        padding = canonicalize_padding(self.padding, len(kernel_size))
        if padding == "CIRCULAR":
            padding = "VALID"
        bias = (
            self.param("bias", self.bias_init, (self.features,), self.param_dtype)
            if self.use_bias
            else None
        )
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        y = lax.conv_transpose(
            inputs,
            kernel,
            strides,
            padding,
            rhs_dilation=(self.kernel_dilation,) * len(strides)
            if isinstance(self.kernel_dilation, int)
            else self.kernel_dilation,
            transpose_kernel=self.transpose_kernel,
            precision=self.precision,
            preferred_element_type=self.preferred_element_type,
        )
        if self.padding == "CIRCULAR":
            # Wrap the full output periodically onto the period ``input size * stride``.
            scaled = [n * s for n, s in zip(inputs.shape[1:-1], strides)]
            diffs = [-(yd - xd) % (2 * xd) for yd, xd in zip(y.shape[1:-1], scaled)]
            if self.transpose_kernel:
                total = [(d // 2, (d + 1) // 2) for d in diffs]
            else:
                total = [((d + 1) // 2, d // 2) for d in diffs]
            y = jnp.pad(y, [(0, 0), *total, (0, 0)])
            for i in range(1, y.ndim - 1):
                y = y.reshape((*y.shape[:i], -1, scaled[i - 1], *y.shape[i + 1 :]))
                y = y.sum(axis=i)
        if bias is not None:
            y = y + jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))
        if batch is not None:
            y = jnp.reshape(y, batch + y.shape[1:])
        return y
