"""Dot-product attention, masks, and ``MultiHeadDotProductAttention``/``SelfAttention``.

``q, k, v`` are promoted together (FLIP rule; ``bias`` and ``mask`` are not promoted); the
softmax runs in the computation dtype, or in float32 with ``force_fp32_for_softmax`` (and then
the output is float32). Complex inputs raise ``ValueError``: dot-product attention and its
softmax are not defined for complex numbers (the FLIP's rule; Flax itself returns complex64).
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.nn import initializers, jax_attention
from trellax._src.nn._random import random
from trellax._src.nn.activations import softmax
from trellax._src.nn.dtypes import promote_dtype
from trellax._src.nn.linear import DenseGeneral, default_kernel_init
from trellax._src.nn.module import Module, compact, merge_param
from trellax._src.nn.normalization import LayerNorm

Dtype = Any


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


def dot_product_attention_weights(
    query: Any,
    key: Any,
    bias: Any = None,
    mask: Any = None,
    broadcast_dropout: bool = True,
    dropout_rng: Any = None,
    dropout_rate: float = 0.0,
    deterministic: bool = False,
    dtype: Dtype | None = None,
    precision: Any = None,
    module: Module | None = None,
    force_fp32_for_softmax: bool = False,
    einsum_dot_general: Callable[..., Any] | None = None,
    einsum: Callable[..., Any] | None = None,
) -> Any:
    """``softmax(q·k / sqrt(depth) + bias, masked)`` over the key axis: ``[..., heads, q, kv]``
    from ``q [..., q, heads, depth]`` and ``k [..., kv, heads, depth]``. The product is
    ``einsum`` if given, else ``jnp.einsum`` with ``precision`` and ``einsum_dot_general``
    (which cannot be combined with ``einsum``)."""
    if (precision is not None or einsum_dot_general is not None) and einsum is not None:
        raise ValueError(
            "precision/einsum_dot_general and einsum are mutually exclusive. Please "
            "specify only one of them."
        )
    query, key = promote_dtype(query, key, dtype=dtype)
    dtype = query.dtype
    if dtypes.issubdtype(dtype, np.complexfloating):
        raise ValueError(
            f"dot_product_attention does not support complex inputs (computation dtype {dtype}): "
            "the dot product and softmax are not well defined for complex numbers."
        )
    _check(query.ndim == key.ndim, "q, k must have same rank.")
    _check(query.shape[:-3] == key.shape[:-3], "q, k batch dims must match.")
    _check(query.shape[-2] == key.shape[-2], "q, k num_heads must match.")
    _check(query.shape[-1] == key.shape[-1], "q, k depths must match.")
    depth = query.shape[-1]
    query = query / jnp.asarray(math.sqrt(depth), dtype)
    if einsum is None:
        einsum = functools.partial(jnp.einsum, precision=precision, _dot_general=einsum_dot_general)
    weights = einsum("...qhd,...khd->...hqk", query, key)
    if bias is not None:
        weights = weights + bias
    if mask is not None:
        weights = jnp.where(mask, weights, jnp.finfo(dtype).min)
    if force_fp32_for_softmax and dtype != np.float32:
        weights = softmax(weights.astype(np.float32))
    else:
        weights = softmax(weights).astype(dtype)
    if module is not None:
        module.sow("intermediates", "attention_weights", weights)
    if not deterministic and dropout_rate > 0.0:
        keep_prob = 1.0 - dropout_rate
        if broadcast_dropout:
            shape = (1,) * (key.ndim - 2) + weights.shape[-2:]
        else:
            shape = weights.shape
        keep = random().bernoulli(dropout_rng, keep_prob, shape)
        weights = weights * (keep.astype(dtype) / jnp.asarray(keep_prob, dtype))
    return weights


def dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    bias: Any = None,
    mask: Any = None,
    broadcast_dropout: bool = True,
    dropout_rng: Any = None,
    dropout_rate: float = 0.0,
    deterministic: bool = False,
    dtype: Dtype | None = None,
    precision: Any = None,
    module: Module | None = None,
    force_fp32_for_softmax: bool = False,
    einsum_dot_general: Callable[..., Any] | None = None,
    qk_attn_weights_einsum: Callable[..., Any] | None = None,
    attn_weights_value_einsum: Callable[..., Any] | None = None,
    **jax_options: Any,
) -> Any:
    """Attention output ``[..., q, heads, depth]``: the weights applied to ``value``. The two
    products are ``qk_attn_weights_einsum`` and ``attn_weights_value_einsum`` if given (both
    or neither, and not with ``precision``/``einsum_dot_general``), else ``jnp.einsum``.

    This is Flax's function and ``jax.nn``'s: given one of JAX's keyword-only options
    (``scale``, ``is_causal``, ``query_seq_lengths``, ``key_value_seq_lengths``,
    ``local_window_size``, ``implementation``, ``return_residual``), or grouped heads (fewer
    key/value heads than query heads, or fewer than three axes: inputs Flax refuses), JAX's
    version computes it
    (``trellax/_src/nn/jax_attention.py``: softmax in float32, JAX's masks)."""
    unknown = set(jax_options) - set(jax_attention.JAX_ONLY)
    if unknown:
        raise TypeError(f"dot_product_attention() got unexpected keyword arguments {unknown}")
    if jax_options or _grouped_heads(query, key):
        return jax_attention.dot_product_attention(query, key, value, bias, mask, **jax_options)
    if (qk_attn_weights_einsum is None) != (attn_weights_value_einsum is None):
        raise ValueError(
            "qk_attn_weights_einsum and attn_weights_value_einsum must be specified together."
        )
    if (precision is not None or einsum_dot_general is not None) and (
        qk_attn_weights_einsum is not None
    ):
        raise ValueError(
            "precision/einsum_dot_general and qk_attn_weights_einsum/attn_weights_value_einsum "
            "are mutually exclusive. Please specify only one of them."
        )
    query, key, value = promote_dtype(query, key, value, dtype=dtype)
    dtype = query.dtype
    _check(key.ndim == query.ndim == value.ndim, "q, k, v must have same rank.")
    _check(query.shape[:-3] == key.shape[:-3] == value.shape[:-3], "q, k, v batch dims must match.")
    _check(query.shape[-2] == key.shape[-2] == value.shape[-2], "q, k, v num_heads must match.")
    _check(key.shape[-3] == value.shape[-3], "k, v lengths must match.")
    weights = dot_product_attention_weights(
        query, key, bias, mask, broadcast_dropout, dropout_rng, dropout_rate, deterministic,
        dtype, precision, module, force_fp32_for_softmax, einsum_dot_general,
        qk_attn_weights_einsum,
    )  # fmt: skip
    einsum = attn_weights_value_einsum or functools.partial(
        jnp.einsum, precision=precision, _dot_general=einsum_dot_general
    )
    return einsum("...hqk,...khd->...qhd", weights, value)


def _grouped_heads(query: Any, key: Any) -> bool:
    """Fewer key heads than query heads, dividing them (JAX's grouped-query attention), or
    fewer than three axes: inputs only JAX's function takes."""
    q: tuple[int, ...] = tuple(getattr(query, "shape", ()))
    k: tuple[int, ...] = tuple(getattr(key, "shape", ()))
    if len(q) < 3:  # JAX's function takes these (as [1, ..., H]); Flax's needs [T, N, H]
        return True
    return len(k) >= 2 and k[-2] < q[-2] and q[-2] % max(k[-2], 1) == 0


def make_attention_mask(
    query_input: Any,
    key_input: Any,
    pairwise_fn: Callable[[Any, Any], Any] = jnp.multiply,
    extra_batch_dims: int = 0,
    dtype: Dtype = jnp.float32,
) -> Any:
    """``[batch..., 1, len_q, len_kv]`` mask from ``pairwise_fn(query_input, key_input)``."""
    mask = pairwise_fn(jnp.expand_dims(query_input, -1), jnp.expand_dims(key_input, -2))
    mask = jnp.expand_dims(mask, -3)
    mask = jnp.expand_dims(mask, tuple(range(extra_batch_dims)))
    return mask.astype(dtype)


def make_causal_mask(x: Any, extra_batch_dims: int = 0, dtype: Dtype = jnp.float32) -> Any:
    """The mask letting position ``i`` attend to positions ``<= i`` (from ``x``'s last axis)."""
    x = jnp.asarray(x)
    idxs = jnp.broadcast_to(jnp.arange(x.shape[-1], dtype=jnp.int32), x.shape)
    return make_attention_mask(idxs, idxs, jnp.greater_equal, extra_batch_dims, dtype)


def combine_masks(*masks: Any, dtype: Dtype = jnp.float32) -> Any:
    """The logical AND of the non-None masks (None if all are None)."""
    ms = [m for m in masks if m is not None]
    if not ms:
        return None
    _check(
        all(m.ndim == ms[0].ndim for m in ms), f"masks must have same rank: {[m.ndim for m in ms]}"
    )
    out = ms[0]
    for m in ms[1:]:
        out = jnp.logical_and(out, m)
    return out.astype(dtype)


def _keys_and_values(
    inputs_q: Any, inputs_k: Any, inputs_v: Any, inputs_kv: Any
) -> tuple[Any, Any]:
    """The key and value inputs of attention, defaulting as Flax does (``inputs_kv`` for both,
    else the query for the key and the key for the value). As Flax, warns (DeprecationWarning)
    about ``inputs_kv``, and about a square ``inputs_v``, which may be a mask passed where
    ``__call__``'s third argument used to be the mask."""
    if inputs_kv is not None:
        if inputs_k is not None or inputs_v is not None:
            raise ValueError(
                "If either `inputs_k` or `inputs_v` is not None, `inputs_kv` must be None."
            )
        warnings.warn(
            "The inputs_kv arg will be deprecated soon. Use inputs_k and inputs_v instead.",
            DeprecationWarning,
            stacklevel=3,
        )
        return inputs_kv, inputs_kv
    if inputs_k is None:
        if inputs_v is not None:
            raise ValueError(
                "`inputs_k` cannot be None if `inputs_v` is not None. To have both "
                "`inputs_k` and `inputs_v` be the same value, pass in the value to "
                "`inputs_k` and leave `inputs_v` as None."
            )
        inputs_k = inputs_q
    if inputs_v is None:
        return inputs_k, inputs_k
    if inputs_v.ndim >= 2 and inputs_v.shape[-1] == inputs_v.shape[-2]:
        warnings.warn(
            f"You are passing an array of shape {inputs_v.shape} to the `inputs_v` arg, when "
            "you may have intended to pass it to the `mask` arg. As of Flax version 0.7.4, "
            "the function signature of MultiHeadDotProductAttention's `__call__` method has "
            "changed to `__call__(inputs_q, inputs_k=None, inputs_v=None, *, inputs_kv=None, "
            "mask=None, deterministic=None)`. Use the kwarg `mask` instead.",
            DeprecationWarning,
            stacklevel=3,
        )
    return inputs_k, inputs_v


class MultiHeadDotProductAttention(Module):
    """Multi-head attention with ``query``/``key``/``value``/``out`` projections.

    With ``decode=True`` the ``cache`` collection keeps the projected keys and values (in the
    projections' computation dtype) and ``cache_index``; each call then takes one position.
    """

    num_heads: int
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    qkv_features: int | None = None
    out_features: int | None = None
    broadcast_dropout: bool = True
    dropout_rate: float = 0.0
    deterministic: bool | None = None
    precision: Any = None
    kernel_init: Any = default_kernel_init
    out_kernel_init: Any = None
    bias_init: Any = initializers.zeros
    out_bias_init: Any = None
    use_bias: bool = True
    attention_fn: Callable[..., Any] = dot_product_attention
    decode: bool = False
    normalize_qk: bool = False
    force_fp32_for_softmax: bool = False
    # Flax's hooks for quantized products: dot_generals (functions, or classes to instantiate)
    # of the q/k/v and output projections, and einsum factories for the two attention products
    qkv_dot_general: Any = None
    out_dot_general: Any = None
    qkv_dot_general_cls: Any = None
    out_dot_general_cls: Any = None
    qk_attn_weights_einsum_cls: Any = None
    attn_weights_value_einsum_cls: Any = None

    @compact
    def __call__(
        self,
        inputs_q: Any,
        inputs_k: Any = None,
        inputs_v: Any = None,
        *,
        inputs_kv: Any = None,
        mask: Any = None,
        deterministic: bool | None = None,
        dropout_rng: Any = None,
        sow_weights: bool = False,
    ) -> Any:
        inputs_q = jnp.asarray(inputs_q)
        inputs_k, inputs_v = _keys_and_values(inputs_q, inputs_k, inputs_v, inputs_kv)
        features = self.out_features or inputs_q.shape[-1]
        qkv_features = self.qkv_features or inputs_q.shape[-1]
        if qkv_features % self.num_heads:
            # Flax asserts this: a program catching AssertionError must see one
            raise AssertionError(
                f"Memory dimension ({qkv_features}) must be divisible by number of heads "
                f"({self.num_heads})."
            )
        head_dim = qkv_features // self.num_heads
        dense = functools.partial(
            DenseGeneral,
            axis=-1,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            features=(self.num_heads, head_dim),
            kernel_init=self.kernel_init,
            bias_init=self.bias_init,
            use_bias=self.use_bias,
            precision=self.precision,
            dot_general=self.qkv_dot_general,
            dot_general_cls=self.qkv_dot_general_cls,
        )
        query = dense(name="query")(inputs_q)
        key = dense(name="key")(inputs_k)
        value = dense(name="value")(inputs_v)
        if self.normalize_qk:
            # the module's dtype and param_dtype, as Flax passes them (a bfloat16 param_dtype
            # gives bfloat16 scales)
            dts = {"dtype": self.dtype, "param_dtype": self.param_dtype}
            query = LayerNorm(name="query_ln", use_bias=False, **dts)(query)
            key = LayerNorm(name="key_ln", use_bias=False, **dts)(key)
        if self.decode:
            is_initialized = self.has_variable("cache", "cached_key")
            cached_key = self.variable("cache", "cached_key", jnp.zeros, key.shape, key.dtype)
            cached_value = self.variable(
                "cache", "cached_value", jnp.zeros, value.shape, value.dtype
            )
            cache_index = self.variable("cache", "cache_index", jnp.zeros, (), jnp.int32)
            if is_initialized:
                *batch_dims, max_length, num_heads, depth = cached_key.value.shape
                expected = (*batch_dims, 1, num_heads, depth)
                if expected != query.shape:
                    raise ValueError(
                        "Autoregressive cache shape error, expected query shape "
                        f"{expected} instead got {query.shape}."
                    )
                cur = cache_index.value
                zero = jnp.array(0, dtype=cur.dtype)
                indices = (zero,) * len(batch_dims) + (cur, zero, zero)
                key = lax.dynamic_update_slice(cached_key.value, key, indices)
                value = lax.dynamic_update_slice(cached_value.value, value, indices)
                cached_key.value = key
                cached_value.value = value
                cache_index.value = cache_index.value + 1
                step_mask = jnp.broadcast_to(
                    jnp.arange(max_length) <= cur, (*batch_dims, 1, 1, max_length)
                )
                mask = combine_masks(mask, step_mask)
        if self.dropout_rate > 0.0:
            m_det = merge_param("deterministic", self.deterministic, deterministic)
            if not m_det and dropout_rng is None:
                dropout_rng = self.make_rng("dropout")
        else:
            m_det = True
        qk_einsum = self.qk_attn_weights_einsum_cls() if self.qk_attn_weights_einsum_cls else None
        wv_einsum = (
            self.attn_weights_value_einsum_cls() if self.attn_weights_value_einsum_cls else None
        )
        options = {
            "mask": mask,
            "dropout_rng": dropout_rng,
            "dropout_rate": self.dropout_rate,
            "broadcast_dropout": self.broadcast_dropout,
            "deterministic": m_det,
            "dtype": self.dtype,
            "precision": self.precision,
            "force_fp32_for_softmax": self.force_fp32_for_softmax,
            "qk_attn_weights_einsum": qk_einsum,
            "attn_weights_value_einsum": wv_einsum,
        }
        # as Flax: a custom attention_fn gets only the keywords its signature names (and
        # ``module`` only when weights are sown)
        accepted = inspect.signature(self.attention_fn).parameters
        options = {k: v for k, v in options.items() if k in accepted}
        if sow_weights:
            options["module"] = self
        x = self.attention_fn(query, key, value, **options)
        return DenseGeneral(
            features=features,
            axis=(-2, -1),
            kernel_init=self.out_kernel_init or self.kernel_init,
            bias_init=self.out_bias_init or self.bias_init,
            use_bias=self.use_bias,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            precision=self.precision,
            dot_general=self.out_dot_general,
            dot_general_cls=self.out_dot_general_cls,
            name="out",
        )(x)


class MultiHeadAttention(MultiHeadDotProductAttention):
    """The same layer under Flax's alias."""


class SelfAttention(MultiHeadDotProductAttention):
    """Multi-head attention of a sequence on itself."""

    @compact
    def __call__(  # type: ignore[override]
        self,
        inputs_q: Any,
        mask: Any = None,
        deterministic: bool | None = None,
        dropout_rng: Any = None,
        sow_weights: bool = False,
    ) -> Any:
        return super().__call__(
            inputs_q,
            mask=mask,
            deterministic=deterministic,
            dropout_rng=dropout_rng,
            sow_weights=sow_weights,
        )
