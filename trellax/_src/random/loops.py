"""Rejection and counting samplers as primitives with NumPy impls: ``random_gamma``
(Marsaglia–Tsang, one key per element, as JAX) and ``random_poisson`` (Knuth below 10, PTRS above);
``random_binomial`` is in :mod:`binomial`.

JAX runs these as ``while`` loops batched over elements; here every element advances in one
vectorized NumPy pass per iteration and finished elements drop out, so the loop count is that of
the slowest element, not the number of elements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.backend import libm_f32, xla_f64, xla_log
from trellax._src.backend.convert import convert
from trellax._src.backend.fma import fma_f32, fma_f64
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax import ad_util
from trellax._src.lax.shapes import Dims, all_at_front
from trellax._src.random import threefry
from trellax._src.random.erfinv import erfinv_f32, erfinv_f64
from trellax._src.random.floats import unit_floats
from trellax._src.random.normal import normal_data
from trellax._src.random.primitives import INTEGER_OUTPUTS

_MAX_ITERS = 100_000  # a guard against parameters that never let a rejection loop finish


def _lgamma1(v: float) -> float:
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):  # poles at 0, -1, -2, ...
        return math.inf


_LGAMMA = np.frompyfunc(_lgamma1, 1, 1)


def lgamma(x: Any) -> Any:
    return np.asarray(_LGAMMA(np.asarray(x, np.float64)), np.float64)


def _split(keys: Any, n: int) -> list[Any]:
    out = threefry.split_data(keys, (n,))
    return [out[..., i, :] for i in range(n)]


def _uniform0(keys: Any, d: np.dtype[Any]) -> Any:
    """One uniform in [0, 1) per key (shape ``()`` draws)."""
    return unit_floats(keys, (), d)


def _normal0(keys: Any, d: np.dtype[Any]) -> Any:
    if d.itemsize <= 4:  # JAX's normal in that dtype (float16/bfloat16: 16/8-bit draws)
        return normal_data(np.asarray(keys), shape=(), dtype=d)
    lo = np.nextafter(np.array(-1, d), np.array(0, d))
    f = unit_floats(keys, (), d)
    u = np.maximum(lo, (f.astype(np.float64) * (1 - lo.astype(np.float64)) + lo).astype(d))
    e = erfinv_f64(u) if d == np.float64 else erfinv_f32(u)
    return (np.array(math.sqrt(2), d) * e).astype(d)


def _squeeze_c(third: Any, d: Any) -> Any:
    """Marsaglia-Tsang's ``c = (1/3) / sqrt(d)`` as JAX's compiled code computes it: XLA's
    algebraic simplifier rewrites ``a / sqrt(b)`` as ``a * rsqrt(b)``. float16's ``rsqrt`` is
    float32's rounded (measured: always the float16 value of ``1 / sqrt`` in float32); float64's
    (without AVX-512) is ``1 / sqrt``; float32's is the CPU's approximate ``rsqrtps`` refined by
    Newton steps, whose last bit depends on the processor's table: here the correctly rounded
    value, which agrees with it most of the time. bfloat16's operations are wrapped in
    conversions to float32 before the rewrite, so the division stays."""
    if d.dtype == np.float16:
        return third * (np.float32(1) / np.sqrt(d.astype(np.float32))).astype(np.float16)
    if d.dtype == np.float32:
        return third * (1 / np.sqrt(d.astype(np.float64))).astype(np.float32)
    if d.dtype == np.float64:
        return third * (1 / np.sqrt(d))
    return third / np.sqrt(d)


def _pow_ieee(x: Any, y: Any) -> Any:
    return libm_f32.pow_f32(x, y, flush=False)  # subnormals kept (docs/semantics.md)


def gamma_data(keys: Any, alpha: Any, log_space: bool) -> Any:
    """Marsaglia–Tsang with one key per element (``keys``: ``alpha.shape + (2,)``).

    float32 follows what XLA:CPU compiles (read off JAX 0.10.2's dumped HLO and machine code):
    XLA's ``log``/``log1p`` (:mod:`trellax._src.backend.xla_log`), the C library's ``powf`` for the
    boost, the loop's normal draws as JAX's float32 ``normal``, ``v = 1 + c x`` and the squeeze
    bound ``1 - 0.0331 x²`` each one fused multiply-add. With these, float32 ``gamma``/``loggamma``
    agree with JAX bit for bit on the sweep's draws, except where ``c``'s ``rsqrt``
    (:func:`_squeeze_c`) differs and where XLA flushes a subnormal sample to zero (trellax keeps
    it: docs/semantics.md)."""
    d = alpha.dtype
    # JAX runs the loop in the sample dtype, float16/bfloat16 included (each operation rounds
    # there, and the normal/uniform draws are that dtype's: 16/8-bit words)
    cd = d if d.itemsize == 2 else np.dtype(np.float32) if d != np.float64 else d
    a = alpha.astype(cd).reshape(-1)
    keys = np.asarray(keys).reshape(-1, 2)
    one = cd.type(1)
    third = cd.type(1 / 3)
    keys, sub = _split(keys, 2)
    boost_mask = a >= one
    a_used = np.where(boost_mask, a, a + one)
    with np.errstate(all="ignore"):
        dd = a_used - third
        c = _squeeze_c(third, dd)
        u_boost = _uniform0(sub, cd)
        f32 = cd == np.float32
        # float32 and float64 follow XLA:CPU's compiled loop: its log, its fused multiply-adds
        fused = f32 or cd == np.float64
        fma = fma_f32 if f32 else fma_f64
        xla_lg = xla_log.log_f32 if f32 else xla_f64.log_f64
        log1p = xla_log.log1p_f32 if f32 else xla_f64.log1p_f64 if fused else np.log1p
        if log_space:
            log_u = log1p(-u_boost).astype(cd)  # -exponential
            log_boost = np.where(boost_mask | (log_u == 0), cd.type(0), log_u * (one / a))
        else:
            pw = _pow_ieee if f32 else xla_f64.pow_f64 if fused else np.power
            boost = np.where(boost_mask, one, pw(one - u_boost, one / a))
        n = a.size
        x_sq = np.zeros(n, cd)
        v = np.ones(n, cd)
        u = np.full(n, cd.type(2))
        active = np.arange(n)
        while active.size:
            xa, va, ua, da = x_sq[active], v[active], u[active], dd[active]
            if fused:  # XLA's log; 1 - 0.0331 x² is one fused multiply-add (see the docstring)
                lim = fma(-(xa * xa), np.full(xa.shape, cd.type(0.0331)), np.full(xa.shape, one))
                w = one - va + xla_lg(va)
                going = (ua >= lim) & (xla_lg(ua) >= xa * cd.type(0.5) + da * w)
            else:
                going = (ua >= one - cd.type(0.0331) * (xa * xa)) & (
                    np.log(ua) >= xa * cd.type(0.5) + da * (one - va + np.log(va))
                )
            active = active[going]
            if not active.size:
                break
            k_next, kx, ku = _split(keys[active], 3)
            keys[active] = k_next
            ca = c[active]
            xs = np.zeros(active.size, cd)
            vs = np.full(active.size, cd.type(-1))
            redo = np.arange(active.size)
            while redo.size:
                kx_next, kx_sub = _split(kx[redo], 2)
                kx[redo] = kx_next
                xr = _normal0(kx_sub, cd)
                xs[redo] = xr
                if fused:  # 1 + c x: a fused multiply-add in XLA's loop body
                    vs[redo] = fma(ca[redo], xr, np.full(xr.shape, one))
                else:
                    vs[redo] = one + ca[redo] * xr
                redo = redo[vs[redo] <= 0]
            x_sq[active] = xs * xs
            v[active] = vs * vs * vs
            u[active] = _uniform0(ku, cd)
        if log_space:
            log = xla_lg if fused else np.log
            out = log(dd) + log(v) + log_boost
        else:
            out = dd * v * boost
        out = np.where(a == 0, cd.type(-np.inf) if log_space else cd.type(0), out)
        out = np.where(a < 0, cd.type(np.nan), out)
    return out.astype(d).reshape(alpha.shape)


random_gamma_p = Primitive("random_gamma")
random_gamma_p.def_impl(lambda keys, a, *, log_space: gamma_data(keys, a, log_space))
random_gamma_p.def_abstract_eval(
    lambda keys, a, *, log_space: ShapedArray._fast(tuple(a.shape), a.dtype, False)
)


def poisson_data(key: Any, lam: Any, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """Knuth's method for ``lam < 10``, PTRS for larger rates; both on the same key.

    A batch of keys ``K + (2,)`` (under ``vmap``) draws ``K + shape``; each key's loop stops on
    its own, as JAX's batched ``while_loop`` does."""
    f32 = np.dtype(np.float32)
    sample_shape = shape
    sample_axes = tuple(range(-len(shape), 0))
    shape = (*np.shape(key)[:-1], *shape)
    lam = np.broadcast_to(np.asarray(lam, f32), shape)
    small = ~(lam >= 10)  # NaN takes Knuth's branch (and ends at -1)
    with np.errstate(all="ignore"):
        lam_k = np.where(small, lam, f32.type(0))
        k = np.zeros(shape, np.int64)
        log_prod = np.zeros(shape, f32)
        rng = np.asarray(key)
        for _ in range(_MAX_ITERS):
            if not np.any(log_prod > -lam_k):
                break
            rng, sub = _split(rng, 2)
            k = np.where(log_prod > -lam_k, k + 1, k)
            log_prod = (log_prod + np.log(unit_floats(sub, sample_shape, f32))).astype(f32)
        knuth = k - 1
        lam_r = np.where(small, f32.type(1e5), lam).astype(f32)
        log_lam = np.log(lam_r)
        b = f32.type(0.931) + f32.type(2.53) * np.sqrt(lam_r)
        a = f32.type(-0.059) + f32.type(0.02483) * b
        inv_alpha = f32.type(1.1239) + f32.type(1.1328) / (b - f32.type(3.4))
        v_r = f32.type(0.9277) - f32.type(3.6224) / (b - f32.type(2))
        k_out = np.full(shape, -1.0, f32)
        accepted = np.zeros(shape, bool)
        rng = np.asarray(key)
        for _ in range(_MAX_ITERS):
            live = ~np.all(accepted, axis=sample_axes, keepdims=True)  # per key, as JAX's loop
            if not live.any():
                break
            rng, k0, k1 = _split(rng, 3)
            u = unit_floats(k0, sample_shape, f32) - f32.type(0.5)
            v = unit_floats(k1, sample_shape, f32)
            us = f32.type(0.5) - np.abs(u)
            kk = np.floor((f32.type(2) * a / us + b) * u + lam_r + f32.type(0.43)).astype(f32)
            s = np.log(v * inv_alpha / (a / (us * us) + b))
            t = -lam_r + kk * log_lam - lgamma(kk + 1).astype(f32)
            accept1 = (us >= f32.type(0.07)) & (v <= v_r)
            reject = (kk < 0) | ((us < f32.type(0.013)) & (v > us))
            accept = (accept1 | (~reject & (s <= t))) & live
            k_out = np.where(accept, kk, k_out)
            accepted |= accept
        # the draws are floats converted at the end as JAX converts them: saturating at the
        # dtype's bounds (a rate of 3e9 gives int32's maximum, 500 gives int8's 127), never
        # wrapping; Knuth's counts are small integers, exact in float32
        out = np.where(small, knuth.astype(f32), k_out)
        out = convert(np.where(lam == 0, f32.type(0), out).astype(f32), np.dtype(dtype))
        # the marker of an invalid rate is the integer -1 in the dtype (wrapping if unsigned)
        invalid = np.array(-1).astype(dtype)
        return np.where(np.isnan(lam) | (lam < 0), invalid, out).astype(dtype)


random_poisson_p = Primitive("random_poisson")
random_poisson_p.def_impl(lambda key, lam, *, shape, dtype: poisson_data(key, lam, shape, dtype))
random_poisson_p.def_abstract_eval(
    lambda key, lam, *, shape, dtype: ShapedArray._fast((*key.shape[:-1], *shape), dtype, False)
)


# -- batch rules --------------------------------------------------------------------------------

# one key per element: keys and parameters are elementwise


@random_gamma_p.def_batch
def _gamma_batch(args: Sequence[Any], dims: Dims, *, log_space: bool) -> tuple[Any, int]:
    # one key per element: keys and shapes are elementwise
    return random_gamma_p.bind(*all_at_front(args, dims), log_space=log_space), 0


@random_poisson_p.def_batch
def _poisson_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    return random_poisson_p.bind(*all_at_front(args, dims), **params), 0


# -- differentiation rules ----------------------------------------------------------------------

ad_util.defzeros(INTEGER_OUTPUTS, random_poisson_p)
