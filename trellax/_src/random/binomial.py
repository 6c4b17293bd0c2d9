"""``random_binomial``: JAX's binomial sampler (inversion for ``n*q <= 10``, BTRS otherwise).

The algorithm, observed from JAX 0.10.2 (it follows TensorFlow's kernel):

* Everything is computed in the dtype of ``p`` (``n`` is converted to it); only the result is
  cast to the requested dtype. ``q = min(p, 1-p)`` (the result is flipped to ``n - k`` when
  ``p >= 0.5``), ``n`` is floored, invalid ``q`` is replaced by 0.01 before sampling.
* Both branches run on the *same* key over the whole sample shape and the result is selected per
  element. Each loop draws a full-shape uniform per iteration, so element ``i`` always reads
  counter ``i`` of the iteration's key.
* Inversion: ``sub, key = split(key)``; count geometric waiting times
  ``ceil(log(u) / log1p(-q))`` until their sum exceeds ``n``; the result is the count minus one.
* BTRS (Hörmann's transformed rejection with squeeze): ``key, k0, k1 = split(key, 3)`` per
  iteration. Every iteration writes each element's *accepted* candidate, including elements that
  were accepted before, and the loop runs until every element has been accepted once. So an
  element's value is its last accepted candidate within the iteration count of the slowest
  element of the whole draw (elements on the inversion branch take part with ``n = 1e4``,
  ``q = 0.5``). The Stirling tail correction uses a table for ``k <= 9`` and, for larger ``k``,
  JAX's formula evaluated at ``k`` clamped to 9.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax import ad_util
from trellax._src.lax.shapes import Dims, all_at_front
from trellax._src.random import threefry
from trellax._src.random.floats import unit_floats
from trellax._src.random.primitives import INTEGER_OUTPUTS

_MAX_ITERS = 100_000  # elements that never accept (n = inf with q = 0) would loop forever

_STIRLING_TAIL = [
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
]


def _stirling_tail(k: Any, cd: np.dtype[Any]) -> Any:
    table = np.array(_STIRLING_TAIL, cd)
    kc = np.clip(k, cd.type(0), cd.type(9))
    kp1sq = (kc + cd.type(1)) * (kc + cd.type(1))
    approx = (cd.type(1 / 12) - (cd.type(1 / 360) - cd.type(1 / 1260) / kp1sq) / kp1sq) / (
        kc + cd.type(1)
    )
    idx = np.where(np.isnan(kc), 0, np.floor(kc)).astype(np.intp)
    return np.where(k <= cd.type(9), table[idx], approx)


def _split2(key: Any) -> tuple[Any, Any]:
    out = threefry.split_data(key, (2,))
    return out[..., 0, :], out[..., 1, :]


def _inversion(key: Any, count: Any, q: Any, cd: np.dtype[Any]) -> Any:
    shape = count.shape
    sample_shape = shape[np.ndim(key) - 1 :]
    log1mq = np.log1p(-q)
    num_geom = np.zeros(shape, cd)
    geom_sum = np.zeros(shape, cd)
    for _ in range(_MAX_ITERS):
        going = geom_sum <= count
        if not going.any():
            break
        sub, key = _split2(key)
        num_geom[going] += cd.type(1)
        u = unit_floats(sub, sample_shape, cd)
        geom_sum += np.ceil(np.log(u) / log1mq)
    return num_geom - cd.type(1)


def _btrs(key: Any, count: Any, q: Any, cd: np.dtype[Any], sample_axes: tuple[int, ...]) -> Any:
    shape = count.shape
    sample_shape = shape[np.ndim(key) - 1 :]
    c1 = cd.type(1)
    stddev = np.sqrt(count * q * (c1 - q))
    b = cd.type(1.15) + cd.type(2.53) * stddev
    a = cd.type(-0.0873) + cd.type(0.0248) * b + cd.type(0.01) * q
    c = count * q + cd.type(0.5)
    v_r = cd.type(0.92) - cd.type(4.2) / b
    r = q / (c1 - q)
    alpha = (cd.type(2.83) + cd.type(5.1) / b) * stddev
    m = np.floor((count + c1) * q)
    # the parts of the bound that do not depend on the candidate k
    ub_m = (m + cd.type(0.5)) * np.log((m + c1) / (r * (count - m + c1)))
    tail_m = _stirling_tail(m, cd)
    tail_nm = _stirling_tail(count - m, cd)
    k_out = np.full(shape, cd.type(-1))
    accepted = np.zeros(shape, bool)
    # elements that can never be accepted (NaN parameters) would keep JAX's loop running forever
    hopeless = np.isnan(v_r) | np.isnan(a) | np.isnan(b) | np.isnan(c)
    for _ in range(_MAX_ITERS):
        # each key of a batch (vmap) loops until its own elements are all accepted
        live = ~np.all(accepted | hopeless, axis=sample_axes, keepdims=True)
        if not live.any():
            break
        keys = threefry.split_data(key, (3,))
        key, k0, k1 = keys[..., 0, :], keys[..., 1, :], keys[..., 2, :]
        u = unit_floats(k0, sample_shape, cd)
        v = unit_floats(k1, sample_shape, cd)
        u -= cd.type(0.5)
        us = cd.type(0.5) - np.abs(u)
        accept1 = (us >= cd.type(0.07)) & (v <= v_r)
        k = np.floor((cd.type(2) * a / us + b) * u + c)
        reject = (k < 0) | (k > count)
        lv = np.log(v * alpha / (a / (us * us) + b))
        ub = (
            ub_m
            + (count + c1) * np.log((count - m + c1) / (count - k + c1))
            + (k + cd.type(0.5)) * np.log(r * (count - k + c1) / (k + c1))
            + tail_m
            + tail_nm
            - _stirling_tail(k, cd)
            - _stirling_tail(count - k, cd)
        )
        accept = (accept1 | (~reject & (lv <= ub))) & live
        k_out = np.where(accept, k, k_out)
        accepted |= accept
    return k_out


def binomial_data(key: Any, count: Any, prob: Any, dtype: np.dtype[Any]) -> Any:
    """Binomial counts as ``dtype``; ``count`` and ``prob`` have the sample shape and the compute
    dtype (that of ``p``). A batch of keys ``K + (2,)`` (vmap) prefixes that shape with ``K``."""
    cd = prob.dtype
    sample_axes = tuple(range(np.ndim(key) - 1, np.ndim(count)))
    c1 = cd.type(1)
    with np.errstate(all="ignore"):
        p_lt_half = prob < cd.type(0.5)
        q = np.where(p_lt_half, prob, c1 - prob)
        count_nan_or_neg = np.isnan(count) | (count < 0)
        count_inf = np.isinf(count)
        q_is_nan = np.isnan(q)
        q_l_0 = q < 0
        q = np.where(q_is_nan | q_l_0, cd.type(0.01), q)
        use_inversion = count_nan_or_neg | (count * q <= cd.type(10))
        count = np.floor(count)
        count_inv = np.where(use_inversion, count, cd.type(0))
        count_btrs = np.where(use_inversion, cd.type(1e4), count)
        q_btrs = np.where(use_inversion, cd.type(0.5), q)
        inv = _inversion(key, count_inv, q, cd).astype(dtype)
        btrs = _btrs(key, count_btrs, q_btrs, cd, sample_axes).astype(dtype)
        samples = np.where(use_inversion, inv, btrs)
        invalid = q_l_0 | q_is_nan | count_nan_or_neg
        samples = np.where(invalid, dtype.type(np.nan), samples)
        samples = np.where(count_inf & ~invalid, dtype.type(np.inf), samples)
        keep = p_lt_half | count_nan_or_neg | q_is_nan | count_inf
        out = np.where(keep, samples, count.astype(dtype) - samples)
    return np.asarray(out, dtype)


random_binomial_p = Primitive("random_binomial")
random_binomial_p.def_impl(lambda key, n, p, *, dtype: binomial_data(key, n, p, dtype))
random_binomial_p.def_abstract_eval(
    lambda key, n, p, *, dtype: ShapedArray._fast(tuple(n.shape), dtype, False)
)


# -- batch rules --------------------------------------------------------------------------------


@random_binomial_p.def_batch
def _binomial_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    return random_binomial_p.bind(*all_at_front(args, dims), **params), 0


# -- differentiation rules ----------------------------------------------------------------------

ad_util.defzeros(INTEGER_OUTPUTS, random_binomial_p)
