"""``bits``, ``uniform``, ``normal``, ``randint``, ``bernoulli``, ``rademacher`` and the samplers
that are one transformation of a uniform or normal draw (exponential, gumbel, laplace...)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend.array import ArrayImpl
from trellax._src.core.basearray import Array
from trellax._src.core.out_sharding import accepts_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.lax.fma import fma_p
from trellax._src.random.dispatch import draw, eager_value
from trellax._src.random.fixed_point import gumbel_highest_float32
from trellax._src.random.floats import (
    NMANT,
    random_erf_inv_p,
    random_uniform_p,
    uniform_values,
    unit_f32_small,
)
from trellax._src.random.floats import SMALL as _SMALL_UNIFORM
from trellax._src.random.keys import single_key
from trellax._src.random.logs import (
    random_exp_p,
    random_log1p_p,
    random_log_p,
    random_pow_p,
    random_tan_p,
)
from trellax._src.random.normal import lower_bound, normal_data, random_normal_p
from trellax._src.random.primitives import random_bits_p, random_split_p
from trellax._src.random.randint import randint as randint
from trellax._src.random.randint import random_randint_p as random_randint_p
from trellax._src.random.threefry import bits_data
from trellax._src.random.util import (
    as_param,
    canonical_shape,
    float_dtype,
    int_dtype,
    resolve_shape,
)


def split_data(data: Array, n: int) -> list[Array]:
    """``n`` single-key data arrays split from one."""
    keys = random_split_p.bind(data, shape=(n,))
    return [keys[i] for i in range(n)]


@accepts_out_sharding
def bits(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    """Raw random bits as unsigned integers (uint32 by default, uint64 under x64)."""
    data, _ = single_key(key, "bits")
    d = dtypes.check_user_dtype(dtypes.default_uint_dtype() if dtype is None else dtype)
    if dtypes.kind(d) != "u" or d.itemsize * 8 not in (8, 16, 32, 64):
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {d.name}")
    s = canonical_shape(shape)
    kv = eager_value(data)
    if kv is not None:  # eagerly the impl itself (dispatch.draw; integer arithmetic only)
        return ArrayImpl._new(bits_data(kv, d.itemsize * 8, s), d, False)
    return random_bits_p.bind(data, bit_width=d.itemsize * 8, shape=s)


def _uniform(data: Array, shape: tuple[int, ...], d: np.dtype[Any], lo: Any, hi: Any) -> Array:
    lo_a, hi_a = _bound(lo, d), _bound(hi, d)
    if lo_a.shape or hi_a.shape:  # array bounds: the abstract-eval rule checks their shapes
        return random_uniform_p.bind(data, lo_a, hi_a, shape=shape, dtype=d)
    return draw(random_uniform_p, data, lo_a, hi_a, shape=shape, dtype=d)


_SCALARS: dict[tuple[np.dtype[Any], bytes], Array] = {}


def _bound(x: Any, d: np.dtype[Any]) -> Array:
    if type(x) in (float, int) or isinstance(x, np.generic):
        # A Python/NumPy scalar: no conversion primitive. The arrays are immutable, so each
        # value (by its bits: -0.0 and NaNs stay distinct) is made once.
        v = np.array(x, d)
        key = (d, v.tobytes())
        out = _SCALARS.get(key)
        if out is None:
            if len(_SCALARS) > 4096:
                _SCALARS.clear()
            # exactly ``d`` (asarray would narrow a float64 bound made with x64 off, which the
            # explicit-x64 "allow" mode does, and the cache would hand it out under x64)
            out = _SCALARS[key] = ArrayImpl._new(v, d, False)
        return out
    return as_param(x, d)


@accepts_out_sharding
def uniform(
    key: Any, shape: Any = (), dtype: Any = None, minval: Any = 0.0, maxval: Any = 1.0
) -> Array:
    """Uniform floats in ``[minval, maxval)``, bit-identical to JAX (XLA:CPU's FMA emulated)."""
    data, _ = single_key(key, "uniform")
    s, d = canonical_shape(shape), float_dtype("uniform", dtype)
    if type(minval) is float and type(maxval) is float and minval == 0 and maxval == 1:
        kv = eager_value(data)
        if kv is not None and d is _F32 and math.copysign(1.0, minval) > 0:
            # eagerly, a small float32 draw in [+0, 1) (the defaults): the unit floats are the
            # result (``max(+0, f * 1 + 0)`` is ``f``), computed on Python ints
            n = math.prod(s)
            if kv.shape == (2,) and n <= _SMALL_UNIFORM:
                return ArrayImpl._new(unit_f32_small(kv, n).reshape(s), d, False)
    return _uniform(data, s, d, minval, maxval)


_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def _normal_real(data: Array, shape: tuple[int, ...], d: np.dtype[Any]) -> Array:
    key = eager_value(data)
    if key is None:
        return random_normal_p.bind(data, shape=shape, dtype=d)
    # eagerly the impl itself (see dispatch.draw; it raises no floating-point errors)
    return ArrayImpl._new(normal_data(key, shape=shape, dtype=d), d, False)


@accepts_out_sharding
def normal(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    """Standard normal samples: ``sqrt(2) * erfinv(u)`` with ``u`` uniform in ``(-1, 1)``."""
    data, _ = single_key(key, "normal")
    d = float_dtype("normal", dtype, complex_ok=True)
    return _normal(data, canonical_shape(shape), d)


def _normal(data: Array, shape: tuple[int, ...], d: np.dtype[Any]) -> Array:
    if d.kind == "c":
        real = np.dtype(np.float64) if d == np.complex128 else np.dtype(np.float32)
        kr, ki = split_data(data, 2)
        s = np.array(math.sqrt(2), real)
        re = tnp.divide(_normal_real(kr, shape, real), s)
        im = tnp.divide(_normal_real(ki, shape, real), s)
        return lax.complex(re, im)
    return _normal_real(data, shape, d)


# -- bernoulli and friends -------------------------------------------------------------------------


@accepts_out_sharding
def bernoulli(key: Any, p: Any = 0.5, shape: Any = None, mode: str = "low") -> Array:
    """Booleans that are True with probability ``p`` (``uniform < p``)."""
    data, _ = single_key(key, "bernoulli")
    if type(p) is float and 0 <= p <= 1 and mode == "low":
        kv = eager_value(data)
        if kv is not None:  # eagerly: uniform's impl and a comparison (see dispatch.draw)
            d = dtypes.default_float_dtype()
            s = () if shape is None else canonical_shape(shape)  # a scalar p broadcasts
            u = uniform_values(kv, _ZERO[d], _ONE[d], shape=s, dtype=d)
            return ArrayImpl._new(np.less(u, d.type(p)), _BOOL, False)
    pa = tnp.asarray(p)
    if dtypes.kind(pa.dtype) != "f":
        raise TypeError(
            f"bernoulli probability `p` must have a floating dtype, got {pa.dtype.name}."
        )
    d = pa.dtype
    pa = lax.convert_element_type(pa, d)
    s = resolve_shape("bernoulli", shape, pa)
    if mode == "low":
        return tnp.less(_uniform(data, s, d, 0.0, 1.0), pa)
    if mode == "high":
        u = _uniform(data, (2, *s), d, 0.0, 1.0)
        u2 = tnp.multiply(u[1], np.array(2.0 ** -NMANT[d.name], d))
        return tnp.less(u2, tnp.subtract(pa, u[0]))
    raise ValueError(f"mode must be 'low' or 'high', got {mode!r}")


_BOOL = np.dtype(bool)
_ZERO = {np.dtype(n): np.array(0, n) for n in ("float32", "float64")}
_ONE = {np.dtype(n): np.array(1, n) for n in ("float32", "float64")}


@accepts_out_sharding
def rademacher(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    """-1 or +1 with equal probability, in any dtype (bool gives all True; None the default
    int, as JAX)."""
    d = dtypes.check_user_dtype(int if dtype is None else dtype)
    b = bernoulli(key, 0.5, canonical_shape(shape))
    two_b = lax.convert_element_type(b, np.int32) * 2 - 1
    return lax.convert_element_type(two_b, d)


# -- one-line transformations ------------------------------------------------------------------------


def _log(x: Any) -> Array:
    """XLA's ``log`` of a sampler's draw (:mod:`.logs`)."""
    out: Array = random_log_p.bind(x)
    return out


def _log1p(x: Any) -> Array:
    """XLA's ``log1p`` of a sampler's draw (:mod:`.logs`)."""
    out: Array = random_log1p_p.bind(x)
    return out


def _exp(x: Any) -> Array:
    """XLA's ``exp`` of a sampler's value (:mod:`.logs`)."""
    out: Array = random_exp_p.bind(x)
    return out


def _pow(x: Any, y: Any) -> Array:
    """``x ** y`` as XLA:CPU computes it (the C library's ``powf``: :mod:`.logs`)."""
    x, y = tnp.broadcast_arrays(x, y)
    out: Array = random_pow_p.bind(x, y)
    return out


def _scalar(x: Any) -> bool:
    """Whether a parameter is one value (JAX broadcasts it, and XLA's algebraic simplifier then
    folds it into neighbouring constants: see ``lognormal``, ``pareto``)."""
    return getattr(x, "ndim", 0) == 0


def _tiny(d: np.dtype[Any]) -> Any:
    return dtypes.finfo(d).tiny


@accepts_out_sharding
def gumbel(key: Any, shape: Any = (), dtype: Any = None, mode: str | None = None) -> Array:
    """Standard Gumbel samples: ``-log(-log(u))``."""
    data, _ = single_key(key, "gumbel")
    d = float_dtype("gumbel", dtype)
    return _gumbel(data, canonical_shape(shape), d, mode)


def _gumbel(data: Array, shape: tuple[int, ...], d: np.dtype[Any], mode: str | None) -> Array:
    if mode in (None, "low"):
        u = _uniform(data, shape, d, _tiny(d), 1.0)
        return -_log(-_log(u))
    if mode == "highest" and d == np.float32:  # 64 bits per sample
        return gumbel_highest_float32(data, shape)
    if mode in ("high", "highest"):
        u = _uniform(data, (2, *shape), d, 0.0, 1.0)
        hi, lo = u[0], u[1]
        x = tnp.where(
            hi >= np.array(0.5, d),
            hi,
            hi + lo * np.array(2.0 ** -NMANT[d.name], d) + np.array(_tiny(d), d),
        )
        return -_log(-_log1p(-x))
    raise ValueError(f"Must provide valid mode for gumbel got: {mode}")


@accepts_out_sharding
def exponential(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    """Exponential(1) samples: ``-log1p(-u)``."""
    data, _ = single_key(key, "exponential")
    d = float_dtype("exponential", dtype)
    return _exponential(data, canonical_shape(shape), d)


def _exponential(data: Array, shape: tuple[int, ...], d: np.dtype[Any]) -> Array:
    return -_log1p(-_uniform(data, shape, d, 0.0, 1.0))


@accepts_out_sharding
def laplace(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    data, _ = single_key(key, "laplace")
    d = float_dtype("laplace", dtype)
    lo = np.nextafter(np.array(-1, d), np.array(0, d))
    u = _uniform(data, canonical_shape(shape), d, lo, 1.0)
    return tnp.sign(u) * _log1p(-tnp.abs(u))


@accepts_out_sharding
def logistic(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    data, _ = single_key(key, "logistic")
    d = float_dtype("logistic", dtype)
    u = _uniform(data, canonical_shape(shape), d, _tiny(d), 1.0)
    return _log(u) - _log1p(-u)


@accepts_out_sharding
def cauchy(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    data, _ = single_key(key, "cauchy")
    d = float_dtype("cauchy", dtype)
    u = _uniform(data, canonical_shape(shape), d, dtypes.finfo(d).eps, 1.0)
    out: Array = random_tan_p.bind(np.array(math.pi, d) * (u - np.array(0.5, d)))
    return out


@accepts_out_sharding
def truncated_normal(
    key: Any, lower: Any, upper: Any, shape: Any = None, dtype: Any = None
) -> Array:
    """Normal samples restricted to ``(lower, upper)`` by inverting the CDF."""
    data, _ = single_key(key, "truncated_normal")
    d = float_dtype("truncated_normal", dtype)
    lo, hi = as_param(lower, d), as_param(upper, d)
    s = resolve_shape("truncated_normal", shape, lo, hi)
    r2 = np.array(math.sqrt(2), d)
    a = lax.erf(lo / r2)
    b = lax.erf(hi / r2)
    u = random_uniform_p.bind(data, a, b, shape=s, dtype=d)
    out = r2 * random_erf_inv_p.bind(u)
    inf = np.array(np.inf, d)
    # the clip keeps samples strictly inside; its bounds are not differentiated (nextafter has
    # no derivative), as in JAX, so that grad in lower/upper works
    lo_c, hi_c = lax.stop_gradient(lo), lax.stop_gradient(hi)
    return tnp.clip(
        out,
        lax.nextafter(lo_c, tnp.full_like(lo_c, inf)),
        lax.nextafter(hi_c, tnp.full_like(hi_c, -inf)),
    )


@accepts_out_sharding
def lognormal(key: Any, sigma: Any = 1.0, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "lognormal")
    d = float_dtype("lognormal", dtype, complex_ok=True)  # complex: exp of a complex normal
    sg = as_param(sigma, d)
    s = resolve_shape("lognormal", shape, sg)
    if d.kind == "f" and d != tnp.bfloat16 and _scalar(sg):
        # JAX computes exp((sqrt(2) * erfinv(u)) * sigma); with one sigma XLA's simplifier folds
        # the two factors first: erfinv(u) * (sqrt(2) * sigma), one rounding fewer (measured:
        # with the unfolded product 28 % of lognormal(5.0)'s float32 samples differ)
        e = random_erf_inv_p.bind(_uniform(data, s, d, lower_bound(d), 1.0))
        return _exp(e * (np.array(math.sqrt(2), d) * sg))
    return _exp(_normal(data, s, d) * sg)


@accepts_out_sharding
def pareto(key: Any, b: Any, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "pareto")
    d = float_dtype("pareto", dtype)
    ba = as_param(b, d)
    s = resolve_shape("pareto", shape, ba)
    if d != tnp.bfloat16 and _scalar(ba) and math.prod(s) > 1:
        # XLA's simplifier turns the division by one broadcast value into a multiplication by
        # its reciprocal (measured: with the division 10 % of pareto(3.0)'s float32 samples
        # differ); a one-element draw keeps the division (measured at size 1)
        return _exp(_exponential(data, s, d) * (np.array(1, d) / ba))
    return _exp(_exponential(data, s, d) / ba)


def weibull_min(
    key: Any, scale: Any, concentration: Any, shape: Any = (), dtype: Any = None
) -> Array:
    data, _ = single_key(key, "weibull_min")
    for name, value in (("scale", scale), ("concentration", concentration)):
        if isinstance(value, (tuple, list)):  # JAX's TypeError (it divides by the raw value)
            raise TypeError(
                f"weibull_min: {name} must be an array or a scalar, got a {type(value).__name__}"
                " (is a shape in the place of the parameters?)"
            )
    d = float_dtype("weibull_min", dtype)
    u = _uniform(data, canonical_shape(shape), d, 0.0, 1.0)
    one = np.array(1.0, d)
    return _pow(-_log1p(-u), as_param(one / as_param(concentration, d), d)) * as_param(scale, d)


@accepts_out_sharding
def rayleigh(key: Any, scale: Any = 1.0, shape: Any = None, dtype: Any = None) -> Array:
    data, _ = single_key(key, "rayleigh")
    d = float_dtype("rayleigh", dtype)
    sc = as_param(scale, d)
    s = resolve_shape("rayleigh", shape, sc)
    u = _uniform(data, s, d, 0.0, 1.0)
    return sc * tnp.sqrt(_log(u) * np.array(-2.0, d))


@accepts_out_sharding
def maxwell(key: Any, shape: Any = (), dtype: Any = None) -> Array:
    data, _ = single_key(key, "maxwell")
    d = float_dtype("maxwell", dtype)
    return _maxwell(data, canonical_shape(shape), d)


def _maxwell(data: Array, shape: tuple[int, ...], d: np.dtype[Any]) -> Array:
    x = _normal_real(data, (*shape, 3), d)
    if d not in (_F32, _F64):
        return tnp.sqrt(tnp.sum(x * x, axis=-1))
    x0, x1, x2 = x[..., 0], x[..., 1], x[..., 2]
    if x.size > _YNN_MIN:
        # XLA:CPU hands a reduction of more than 4,096 elements to YNNPACK, which adds the squares
        # as (x0² + x2²) + x1², each rounded (measured on JAX 0.10.2's draws, both sizes, float32
        # and float64)
        return tnp.sqrt((x0 * x0 + x2 * x2) + x1 * x1)
    # XLA's own loop, fused multiply-adds: float32 starts from x1² and adds x0², then x2²;
    # float64 starts from x0² and adds x1², then x2² (measured at 7, 1,000 and 1,365 samples)
    if d == _F32:
        return tnp.sqrt(_fma(x2, x2, _fma(x0, x0, x1 * x1)))
    return tnp.sqrt(_fma(x2, x2, _fma(x1, x1, x0 * x0)))


#: Reductions of more elements than this XLA:CPU gives to YNNPACK (measured with maxwell: 1,365
#: samples, 4,095 squares, XLA's loop; 1,366 samples, 4,098 squares, YNNPACK's).
_YNN_MIN = 4096


def double_sided_maxwell(
    key: Any, loc: Any, scale: Any, shape: Any = (), dtype: Any = None
) -> Array:
    data, _ = single_key(key, "double_sided_maxwell")
    d = float_dtype("double_sided_maxwell", dtype)
    lo, sc = as_param(loc, d), as_param(scale, d)
    # ``shape`` is prepended to the parameters' broadcast shape (JAX's documented rule; with
    # shape=() JAX's code appends that shape twice, which trellax does not copy: docs/semantics.md)
    try:
        params = tuple(np.broadcast_shapes(tuple(lo.shape), tuple(sc.shape)))
    except ValueError:
        raise ValueError(
            f"Incompatible shapes for broadcasting: shapes={[tuple(lo.shape), tuple(sc.shape)]}"
        ) from None
    s = (*canonical_shape(shape), *params)
    k1, k2 = split_data(data, 2)
    m = _maxwell(k1, s, d)
    # the signs are JAX's rademacher draws: a float32 bernoulli whatever the sample dtype
    return rademacher(k2, s, d) * m * sc + lo


@accepts_out_sharding
def geometric(key: Any, p: Any, shape: Any = None, dtype: Any = None) -> Array:
    """Trials until the first success (``>= 1``), by inversion."""
    data, _ = single_key(key, "geometric")
    d = int_dtype(dtype)
    if dtypes.kind(d) not in ("i", "u"):
        raise ValueError(f"geometric only accepts integer dtypes, got {d.name}")  # JAX's class
    fd = dtypes.default_float_dtype()
    pa = as_param(p, fd)
    s = resolve_shape("geometric", shape, pa)
    u = _uniform(data, s, fd, 0.0, 1.0)
    u = tnp.where(u == np.array(0, fd), np.array(1, fd), u)
    g = tnp.floor(_log(u) / _log1p(-pa)) + np.array(1, fd)
    return lax.convert_element_type(g, d)


@accepts_out_sharding
def triangular(
    key: Any, left: Any, mode: Any, right: Any, shape: Any = None, dtype: Any = None
) -> Array:
    data, _ = single_key(key, "triangular")
    d = float_dtype("triangular", dtype)
    lf, md, rt = as_param(left, d), as_param(mode, d), as_param(right, d)
    s = resolve_shape("triangular", shape, lf, md, rt)
    lf, md, rt = (tnp.broadcast_to(v, s) for v in (lf, md, rt))
    fc = (md - lf) / (rt - lf)
    u = _uniform(data, s, d, 0.0, 1.0)
    below = lf + tnp.sqrt(u * (rt - lf) * (md - lf))
    above = rt - tnp.sqrt((np.array(1, d) - u) * (rt - lf) * (rt - md))
    return tnp.where(u < fc, below, above)


@accepts_out_sharding
def wald(key: Any, mean: Any, shape: Any = None, dtype: Any = None) -> Array:
    """Inverse Gaussian samples with scale 1 (Michael, Schucany and Haas)."""
    data, _ = single_key(key, "wald")
    d = float_dtype("wald", dtype)
    mu = as_param(mean, d)
    s = resolve_shape("wald", shape, mu)
    mu = tnp.broadcast_to(mu, s)
    k1, k2 = split_data(data, 2)
    v = _normal_real(k1, s, d)
    z = _uniform(k2, s, d, 0.0, 1.0)
    y = v * v
    y2 = y * y
    mu2 = mu * mu
    if d in (_F32, _F64):
        # XLA:CPU fuses two of the multiply-adds (read off JAX 0.10.2's compiled wald): the sum
        # under the root keeps one product exact, and the last step, where mu + mu² y / 2 and
        # mu / 2 * sqrt(...) nearly cancel for a large mean, is one fused multiply-subtract
        sq = tnp.sqrt(_fma(np.array(4, d) * mu, y, mu2 * y2))  # (the other fusing: 12 % differ)
        x = _fma(-(mu / np.array(2, d)), sq, mu + mu2 * y / np.array(2, d))
    else:
        sq = tnp.sqrt(np.array(4, d) * mu * y + mu2 * y2)
        x = mu + mu2 * y / np.array(2, d) - mu / np.array(2, d) * sq
    return tnp.where(z <= mu / (mu + x), x, mu2 / x)


def _fma(a: Any, b: Any, c: Any) -> Array:
    """``a * b + c`` rounded once, as XLA:CPU's fused multiply-add (:mod:`trellax._src.lax.fma`)."""
    a, b, c = tnp.broadcast_arrays(a, b, c)
    out: Array = fma_p.bind(a, b, c)
    return out
