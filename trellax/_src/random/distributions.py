"""Samplers built on gamma draws (gamma, loggamma, beta, dirichlet, t, chisquare, f,
generalized_normal, ball), counting samplers (poisson, binomial, multinomial) and the
multivariate ones (multivariate_normal, orthogonal)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.core.out_sharding import accepts_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.random.binomial import random_binomial_p
from trellax._src.random.keys import single_key
from trellax._src.random.loops import random_gamma_p, random_poisson_p
from trellax._src.random.primitives import random_split_p
from trellax._src.random.samplers import (
    _exp,
    _exponential,
    _normal,
    _pow,
    rademacher,
    split_data,
)
from trellax._src.random.util import (
    as_param,
    canonical_shape,
    float_dtype,
    int_dtype,
    resolve_shape,
)


def _gamma(data: Array, a: Array, shape: tuple[int, ...], log_space: bool) -> Array:
    a = tnp.broadcast_to(a, shape)
    keys = random_split_p.bind(data, shape=shape)
    return random_gamma_p.bind(keys, a, log_space=log_space)


@accepts_out_sharding
def gamma(key: Any, a: Any, shape: Any = None, dtype: Any = None) -> Array:
    """Gamma(a, 1) samples (Marsaglia–Tsang, one key per element as in JAX)."""
    data, _ = single_key(key, "gamma")
    d = float_dtype("gamma", dtype)
    aa = as_param(a, d)
    return _gamma(data, aa, resolve_shape("gamma", shape, aa), False)


@accepts_out_sharding
def loggamma(key: Any, a: Any, shape: Any = None, dtype: Any = None) -> Array:
    """``log`` of Gamma(a, 1) samples, computed in log space (accurate for tiny ``a``)."""
    data, _ = single_key(key, "loggamma")
    d = float_dtype("gamma", dtype)
    aa = as_param(a, d)
    return _gamma(data, aa, resolve_shape("loggamma", shape, aa), True)


@accepts_out_sharding
def beta(key: Any, a: Any, b: Any, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "beta")
    d = float_dtype("beta", dtype)
    aa, bb = as_param(a, d), as_param(b, d)
    s = resolve_shape("beta", shape, aa, bb)
    ka, kb = split_data(data, 2)
    lga = _gamma(ka, aa, s, True)
    lgb = _gamma(kb, bb, s, True)
    top = tnp.maximum(lga, lgb)
    ga, gb = _exp(lga - top), _exp(lgb - top)
    return ga / (ga + gb)


def _stand_in(shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """A zero-memory array of ``shape``: the batch shape of a parameter for ``resolve_shape``
    (indexing the parameter's last axis fails when it is empty)."""
    return np.broadcast_to(np.zeros((), np.int8), shape)


@accepts_out_sharding
def dirichlet(key: Any, alpha: Any, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "dirichlet")
    d = float_dtype("dirichlet", dtype)
    al = as_param(alpha, d)
    if al.ndim < 1:
        raise ValueError(f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == {al.ndim}")
    batch = resolve_shape("dirichlet", shape, _stand_in(al.shape[:-1]))
    if 0 in (*batch, al.shape[-1]):  # nothing to draw (JAX's empty answer, no max of nothing)
        return tnp.zeros((*batch, al.shape[-1]), d)
    lg = _gamma(data, al, (*batch, al.shape[-1]), True)
    z = _exp(lg - tnp.max(lg, axis=-1, keepdims=True))
    return z / tnp.sum(z, axis=-1, keepdims=True)


@accepts_out_sharding
def t(key: Any, df: Any, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "t")
    d = float_dtype("t", dtype)
    dfa = as_param(df, d)
    s = resolve_shape("t", shape, dfa)
    kn, kg = split_data(data, 2)
    n = _normal(kn, s, d)
    half = dfa / np.array(2, d)
    g = _gamma(kg, half, s, False)
    return n * tnp.sqrt(half / g)


def _chisquare(data: Array, dfa: Array, s: tuple[int, ...], d: np.dtype[Any]) -> Array:
    return _exp(_gamma(data, dfa / np.array(2, d), s, True)) * np.array(2, d)


@accepts_out_sharding
def chisquare(key: Any, df: Any, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "chisquare")
    d = float_dtype("chisquare", dtype)
    dfa = as_param(df, d)
    return _chisquare(data, dfa, resolve_shape("chisquare", shape, dfa), d)


@accepts_out_sharding
def f(key: Any, dfnum: Any, dfden: Any, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "f")
    d = float_dtype("f", dtype)
    num, den = as_param(dfnum, d), as_param(dfden, d)
    s = resolve_shape("f", shape, num, den)
    k_den, k_num = split_data(data, 2)
    # JAX writes (chi2_num / dfnum) / (chi2_den / dfden) with chi2 = exp(log_gamma) * 2. XLA's
    # algebraic simplifier turns (a / b) / (c / d) into (a * d) / (b * c) and moves the constant
    # 2 onto the parameter, so for float16/32/64 what runs (and rounds) is the second form; for
    # bfloat16, whose operations XLA:CPU first wraps in conversions to float32, the pattern is
    # not seen and JAX's own form runs (both measured on JAX 0.10.2's draws, bit for bit)
    two = np.array(2, d)
    e_num = _exp(_gamma(k_num, num / two, s, True))
    e_den = _exp(_gamma(k_den, den / two, s, True))
    if d == tnp.bfloat16:
        return ((e_num * two) / num) / ((e_den * two) / den)
    return (e_num * (den * two)) / (e_den * (num * two))


@accepts_out_sharding
def generalized_normal(key: Any, p: Any, shape: Any = (), dtype: Any = None) -> Array:
    data, _ = single_key(key, "generalized_normal")
    if shape is None:  # JAX's default is (), and None is its TypeError
        raise TypeError("generalized_normal: shape must be a sequence of ints, got None")
    d = float_dtype("generalized_normal", dtype)
    pa = as_param(p, d)
    return _generalized_normal(data, pa, resolve_shape("generalized_normal", shape, pa), d)


def _generalized_normal(data: Array, pa: Array, s: tuple[int, ...], d: np.dtype[Any]) -> Array:
    kg, kr = split_data(data, 2)
    inv = np.array(1, d) / pa
    g = _gamma(kg, inv, s, False)
    # the signs are JAX's rademacher draws: a float32 bernoulli whatever the sample dtype
    return rademacher(kr, s, d) * _pow(g, inv)


@accepts_out_sharding
def ball(key: Any, d: int, p: float = 2, shape: Any = (), dtype: Any = None) -> Array:
    """Points uniform in the unit ``p``-norm ball of dimension ``d``."""
    data, _ = single_key(key, "ball")
    dt = float_dtype("ball", dtype)
    d = operator.index(d)
    s = canonical_shape(shape)
    pa = as_param(p, dt)
    k1, k2 = split_data(data, 2)
    g = _generalized_normal(k1, pa, (*s, d), dt)
    e = _exponential(k2, s, dt)
    norm = _pow(tnp.sum(_pow(tnp.abs(g), pa), axis=-1) + e, np.array(1, dt) / pa)
    return g / norm[..., None]


# -- counts ----------------------------------------------------------------------------------------


@accepts_out_sharding
def poisson(key: Any, lam: Any, shape: Any = None, dtype: Any = None) -> Array:
    """Poisson counts; ``lam`` is float32 even under x64, and ``lam < 0`` or NaN gives -1."""
    data, _ = single_key(key, "poisson")
    dt = int_dtype(dtype)
    if dtypes.kind(dt) not in ("i", "u"):
        code = {"f": "f", "b": "b", "c": "c"}.get(dtypes.kind(dt), "V")
        code = "V" if dt == dtypes.bfloat16 else code
        raise ValueError(f"Invalid integer data type '{code}'.")
    la = as_param(lam, np.dtype(np.float32))
    if shape is None:
        s = tuple(la.shape)
    else:
        s = canonical_shape(shape)
        if la.ndim > len(s):
            raise ValueError(
                "Cannot broadcast to shape with fewer dimensions: "
                f"arr_shape={tuple(la.shape)} shape={s}"
            )
    return random_poisson_p.bind(data, tnp.broadcast_to(la, s), shape=s, dtype=dt)


def _inexact_dtype(*xs: Any) -> np.dtype[Any]:
    """The dtype JAX's ``promote_dtypes_inexact`` gives ``xs``: their result type, or the default
    float when that is an integer or bool type."""
    d = dtypes.result_type(*xs)
    return d if dtypes.kind(d) in ("f", "c") else dtypes.default_float_dtype()


def binomial(key: Any, n: Any, p: Any, shape: Any = None, dtype: Any = None) -> Array:
    """Binomial counts (as floats, as in JAX); invalid ``n`` or ``p`` give NaN.

    The draws are computed in the dtype of ``p`` (as JAX does); ``dtype`` is the result's."""
    data, _ = single_key(key, "binomial")
    d = float_dtype("binomial", dtype)
    cd = _inexact_dtype(p)
    pa = lax.convert_element_type(tnp.asarray(p), cd)
    na = lax.convert_element_type(tnp.asarray(n), cd)
    s = resolve_shape("binomial", shape, na, pa)
    return random_binomial_p.bind(data, tnp.broadcast_to(na, s), tnp.broadcast_to(pa, s), dtype=d)


def multinomial(
    key: Any, n: Any, p: Any, *, shape: Any = None, dtype: Any = None, unroll: Any = 1
) -> Array:
    """Counts of ``n`` draws over the categories of ``p`` (last axis): one binomial per category,
    each on its own key of ``split(key, ncat)``, with ratio ``p_i / sum(p_i:)``."""
    data, _ = single_key(key, "multinomial")
    cd = _inexact_dtype(n, p)
    na = lax.convert_element_type(tnp.asarray(n), cd)
    pa = lax.convert_element_type(tnp.asarray(p), cd)
    s = tuple(pa.shape) if shape is None else canonical_shape(shape)
    remaining = tnp.broadcast_to(na, s[:-1])
    pa = tnp.moveaxis(tnp.broadcast_to(pa, s), -1, 0)
    tail_sums = lax.cumsum(pa, axis=0, reverse=True)
    ratios = pa / tnp.where(tail_sums == 0, np.array(1, cd), tail_sums)
    ratios = tnp.clip(ratios, 0, 1)
    ncat = s[-1]
    keys = random_split_p.bind(data, shape=(ncat,))
    counts = []
    for i in range(ncat):
        c = random_binomial_p.bind(
            keys[i], remaining, tnp.broadcast_to(ratios[i], remaining.shape), dtype=cd
        )
        counts.append(c)
        remaining = remaining - c
    out = tnp.stack(counts, axis=-1) if counts else tnp.zeros(s, cd)
    return out.astype(float if dtype is None else dtype)


# -- multivariate ----------------------------------------------------------------------------------


@accepts_out_sharding
def multivariate_normal(
    key: Any,
    mean: Any,
    cov: Any,
    shape: Any = None,
    dtype: Any = None,
    method: str = "cholesky",
) -> Array:
    """``mean + factor @ z`` with ``factor`` from cholesky (default), svd or eigh of ``cov``."""
    data, _ = single_key(key, "multivariate_normal")
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    if dtype is not None:
        float_dtype("multivariate_normal", dtype)
    mu, cv = tnp.asarray(mean), tnp.asarray(cov)
    rd = dtypes.result_type(mu, cv, dtypes.default_float_dtype() if dtype is None else dtype)
    if dtypes.kind(rd) != "f":
        rd = dtypes.default_float_dtype()
    mu, cv = lax.convert_element_type(mu, rd), lax.convert_element_type(cv, rd)
    if mu.ndim < 1:
        raise ValueError("multivariate_normal requires mean.ndim >= 1, got mean.ndim == 0")
    n = mu.shape[-1]
    if cv.ndim < 2 or cv.shape[-2:] != (n, n):
        raise ValueError(
            f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, but got "
            f"cov.shape == {tuple(cv.shape)}."
        )
    batch = resolve_shape(
        "multivariate_normal", shape, _stand_in(mu.shape[:-1]), _stand_in(cv.shape[:-2])
    )
    if method == "cholesky":
        factor = tnp.linalg.cholesky(cv)
    elif method == "svd":
        u, sv, _ = tnp.linalg.svd(cv)
        factor = u * tnp.sqrt(sv)[..., None, :]
    else:
        w, v = tnp.linalg.eigh(cv)
        factor = v * tnp.sqrt(w)[..., None, :]
    z = _normal(data, (*batch, n), rd)
    out = tnp.einsum("...ij,...j->...i", factor, z)
    # the mean broadcast explicitly: library code never relies on rank promotion, so this works
    # under numpy_rank_promotion="raise" as in JAX
    return tnp.broadcast_to(mu, out.shape) + out


@accepts_out_sharding
def orthogonal(key: Any, n: int, shape: Any = (), dtype: Any = None, m: int | None = None) -> Array:
    """Random orthogonal (or unitary) matrices, Haar-distributed, via QR of a normal matrix."""
    data, _ = single_key(key, "orthogonal")
    d = float_dtype("normal", dtype, complex_ok=True)
    if dtypes.kind(d) == "f" and d.itemsize < 4:
        raise NotImplementedError(f"Unsupported dtype {d.name}: QR needs float32 or wider")
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    s = canonical_shape(shape)
    z = _normal(data, (*s, max(n, m), min(n, m)), d)
    q, r = tnp.linalg.qr(z)
    diag = tnp.diagonal(r, axis1=-2, axis2=-1)
    q = q * tnp.sign(diag)[..., None, :]
    return tnp.swapaxes(q, -1, -2) if n < m else q
