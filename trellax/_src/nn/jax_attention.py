"""``jax.nn.dot_product_attention``: scaled dot-product attention with JAX's options.

Inputs are ``[B, T, N, H]`` queries and ``[B, S, K, H]`` keys and values (``[T, N, H]`` without a
batch axis); ``N`` must be a multiple of ``K`` (grouped-query attention: each key/value head
serves ``N // K`` query heads). The logits are computed in ``promote_types(query.dtype,
float32)``, scaled, biased and masked (``mask``, ``is_causal``, ``local_window_size``, the
padding given by ``query_seq_lengths``/``key_value_seq_lengths``: masked logits get a large
negative value), and the softmax runs in float32, as JAX's XLA implementation does; there is
one implementation here, so ``implementation`` may be ``None`` or ``"xla"`` (``"cudnn"`` needs an
NVIDIA GPU). ``trellax.nn.dot_product_attention`` calls this function when one of these options
is given or the heads are grouped, and Flax's function otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.nn.activations import softmax
from trellax._src.scipy.special import logsumexp

#: The keyword arguments only JAX's function has (they select it in ``trellax.nn``).
JAX_ONLY = (
    "scale",
    "is_causal",
    "query_seq_lengths",
    "key_value_seq_lengths",
    "local_window_size",
    "implementation",
    "return_residual",
)


def _four_d(t: Any) -> Any:
    t = jnp.asarray(t)
    return jnp.expand_dims(t, tuple(range(4 - t.ndim))) if t.ndim < 4 else t


def _check(t: Any, shape: Sequence[int], dtype: Any, name: str) -> None:
    if t is None:
        return
    if t.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {t.ndim}")
    if dtype is not None and t.dtype != dtype:
        raise ValueError(f"{name} dtype should be {dtype}, but got {t.dtype}")
    if any(s != -1 and t.shape[i] != s for i, s in enumerate(shape)):
        raise ValueError(f"{name} shape should be {list(shape)}: but got {t.shape}")


def _grouped(t: Any, k: int, g: int) -> Any:
    """A ``[B, N or 1, T, S]`` bias or mask as ``[B, K or 1, G or 1, T, S]``."""
    if t is None:
        return None
    tb, tn, tt, ts = t.shape
    if tn == 1:
        return t[:, :, None]
    if tn != k * g:
        raise ValueError(f"bias and mask must have 1 or {k * g} heads, got {tn}")
    return jnp.reshape(t, (tb, k, g, tt, ts))


def _large_negative(dtype: Any) -> Any:
    # the softmax runs in float32: stay finite there (no overflow to -inf for float64)
    big = min(float(dtypes.finfo(dtype).max), float(np.finfo(np.float32).max))
    return jnp.asarray(-0.7 * big, dtype=dtype)


def _mask(
    logits: Any,
    mask: Any,
    is_causal: bool,
    q_len: Any,
    kv_len: Any,
    window: tuple[int, int] | None,
) -> Any:
    """``logits`` ``[B, K, G, T, S]`` with the masked positions at a large negative value."""
    if mask is None and not is_causal and q_len is None and kv_len is None and window is None:
        return logits
    t, s = logits.shape[-2], logits.shape[-1]
    keep = jnp.ones(logits.shape, dtype=bool)
    if mask is not None:
        keep = jnp.logical_and(keep, mask)
    # every operand has the logits' rank (no implicit rank promotion, which may be refused)
    q_pos = jnp.reshape(jnp.arange(t), (1, 1, 1, t, 1))
    k_pos = jnp.reshape(jnp.arange(s), (1, 1, 1, 1, s))
    if is_causal:
        keep = jnp.logical_and(keep, k_pos <= q_pos)
    if window is not None:
        left, right = window
        near = jnp.logical_and(q_pos <= k_pos + left, q_pos >= k_pos - right)
        keep = jnp.logical_and(keep, near)
    if q_len is not None:
        keep = jnp.logical_and(keep, q_pos < jnp.reshape(q_len, (-1, 1, 1, 1, 1)))
    if kv_len is not None:
        keep = jnp.logical_and(keep, k_pos < jnp.reshape(kv_len, (-1, 1, 1, 1, 1)))
    return jnp.where(keep, logits, _large_negative(logits.dtype))


def _core(
    q: Any,
    k: Any,
    v: Any,
    bias: Any,
    mask: Any,
    options: tuple[bool, float, Any, Any, tuple[int, int] | None, bool],
) -> tuple[Any, Any]:
    """Grouped attention: ``q`` ``[B, T, K, G, H]``; the output and (if asked) the log-sum-exp."""
    is_causal, scale, q_len, kv_len, window, residual = options
    logits_dtype = jnp.promote_types(q.dtype, np.float32)
    logits = jnp.einsum("btkgh,bskh->bkgts", q, k, preferred_element_type=logits_dtype)
    logits = logits * jnp.array(scale, dtype=logits.dtype)
    if bias is not None:
        logits = (logits + bias).astype(logits.dtype)
    padded = _mask(logits, mask, is_causal, q_len, kv_len, window).astype(np.float32)
    probs = softmax(padded, axis=-1).astype(k.dtype)
    out = jnp.einsum("bkgts,bskh->btkgh", probs, v)
    if q_len is not None:
        rows = jnp.reshape(jnp.arange(out.shape[1]), (1, -1, 1, 1, 1))
        valid = rows < jnp.reshape(q_len, (-1, 1, 1, 1, 1))
        out = out * valid.astype(out.dtype)
    if not residual:
        return out, None
    lse = jnp.asarray(logsumexp(padded, axis=-1)).astype(k.dtype)  # [B, K, G, T]
    return out, jnp.transpose(lse, (0, 3, 1, 2))


def dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    bias: Any = None,
    mask: Any = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: Any = None,
    key_value_seq_lengths: Any = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: str | None = None,
    return_residual: bool = False,
) -> Any:
    """``softmax(scale * q k^T + bias, masked) v`` per head; see the module docstring.

    With ``return_residual`` the result is ``(output, lse)``, ``lse`` the log-sum-exp of each
    query's logits (``[B, T, N]``, no gradient).
    """
    if implementation not in (None, "xla"):
        if implementation == "cudnn":
            raise RuntimeError("implementation='cudnn' needs an NVIDIA GPU; trellax runs on CPU")
        raise ValueError(f"Unsupported implementation option: {implementation}")
    out_shape = jnp.asarray(query).shape
    q, k, v = _four_d(query), _four_d(key), _four_d(value)
    bias = None if bias is None else _four_d(bias)
    mask = None if mask is None else _four_d(mask)
    q_len = None if query_seq_lengths is None else jnp.asarray(query_seq_lengths)
    kv_len = None if key_value_seq_lengths is None else jnp.asarray(key_value_seq_lengths)
    window = (
        (local_window_size, local_window_size)
        if isinstance(local_window_size, int)
        else local_window_size
    )
    b, s, n_kv, h = k.shape
    _check(v, [b, s, n_kv, h], k.dtype, "value")
    _check(q, [b, -1, -1, h], k.dtype, "query")
    _check(mask, [-1] * 4, np.dtype(bool), "mask")
    _check(bias, [-1] * 4, None, "bias")
    _check(q_len, [b], np.dtype("int32"), "query_seq_lengths")
    _check(kv_len, [b], np.dtype("int32"), "key_value_seq_lengths")
    t, n = q.shape[1], q.shape[2]
    if n % n_kv != 0:
        raise ValueError(
            "The number of query heads must be a multiple of key/value heads, but got "
            f"{n} vs {n_kv}"
        )
    g = n // n_kv
    scale_val = 1.0 / np.sqrt(h) if scale is None else scale
    out, lse = _core(
        jnp.reshape(q, (b, t, n_kv, g, h)),
        k,
        v,
        _grouped(bias, n_kv, g),
        _grouped(mask, n_kv, g),
        (is_causal, scale_val, q_len, kv_len, window, return_residual),
    )
    out = jnp.reshape(out, out_shape)
    if return_residual:
        return out, lax.stop_gradient(jnp.reshape(lse, out_shape[:-1]))
    return out
