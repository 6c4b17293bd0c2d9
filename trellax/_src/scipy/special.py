"""``trellax.scipy.special``: special functions written with ``trellax.numpy`` and ``lax``.

Every function promotes its arguments with ``promote_args_inexact`` (integers and bool become
floats; Python scalars stay weak) and then composes existing operations, so all of them trace under
``jit``. Values at the edges follow SciPy and JAX: ``xlogy(0, 0)`` is 0, ``entr(0)`` is 0 and
``entr(x < 0)`` is ``-inf``, ``logit(0)`` is ``-inf``, ``ndtri(0)`` is ``-inf``.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import special as lax_special
from trellax._src.lax import special_beta, special_complex, special_gamma, special_prims
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.stop_gradient import stop_gradient
from trellax._src.lax.structural import _convert
from trellax._src.numpy import reductions, ufuncs
from trellax._src.numpy.creation import asarray, full
from trellax._src.numpy.selection import where
from trellax._src.numpy.shapes import squeeze
from trellax._src.numpy.util import check_arraylike, promote_args_inexact
from trellax._src.scipy import special_boxcox, special_inverse, special_zeta

ArrayLike = Any
Axis = Any


#: the ``ValueError`` JAX 0.10.2 raises for complex input (observed): its message's subject
_COMPLEX_VALUE_ERROR = {
    "beta": "beta",
    "betainc": "betainc",
    "dawsn": "dawsn",
    "entr": "entr",
    "exp1": "exp1",
    "expi": "expi",
    "expn": "expn",
    "gammasgn": "gammasgn",
    "hyp1f1": "hyp1f1",
    "kl_div": "kl_div",
    "rel_entr": "rel_entr",
    "poch": "jnp.poch",
}
#: the primitive whose dtype check refuses complex input in JAX (a ``TypeError``), and whether
#: its message names the operand's position
_COMPLEX_TYPE_ERROR = {
    "erf": ("erf", False),
    "erfc": ("erfc", False),
    "erfinv": ("erf_inv", False),
    "digamma": ("digamma", False),
    "gammaln": ("lgamma", False),
    "betaln": ("lgamma", False),
    "comb": ("lgamma", False),
    "factorial": ("lgamma", False),
    "multigammaln": ("lgamma", False),
    "i0": ("bessel_i0e", False),
    "i0e": ("bessel_i0e", False),
    "i1": ("bessel_i1e", False),
    "i1e": ("bessel_i1e", False),
    "gammainc": ("igamma", True),
    "gammaincc": ("igammac", True),
    "zeta": ("zeta", True),
}


def _inexact(name: str, *args: ArrayLike) -> list[Array]:
    """The arguments promoted to an inexact dtype, complex included (the functions JAX
    computes for complex operands with the same formula)."""
    check_arraylike(name, *args)
    out: list[Array] = promote_args_inexact(name, *args)
    return out


def _complex_error(name: str, dtype: Any) -> Exception:
    """The error JAX raises for a complex operand of ``scipy.special.<name>``: ``ValueError``
    for most functions that check, ``TypeError`` from the first primitive otherwise."""
    if name in _COMPLEX_VALUE_ERROR:
        return ValueError(f"{_COMPLEX_VALUE_ERROR[name]} does not support complex-valued inputs.")
    if name == "sici":
        return ValueError(f"Argument `x` to sici must be real-valued. Got dtype {dtype}.")
    if name == "fresnel":
        return NotImplementedError("Support for complex-valued inputs is not implemented yet.")
    if name in ("hyp2f1", "bessel_jn"):  # (JAX's first operation is a remainder)
        return TypeError(
            f"rem does not accept dtype {dtype} at position 0. Accepted dtypes at position 0 "
            "are subtypes of integer, floating."
        )
    if name not in _COMPLEX_TYPE_ERROR:  # (JAX computes a complex value: not supported here)
        return TypeError(f"{name} does not support complex-valued inputs")
    prim, positional = _COMPLEX_TYPE_ERROR[name]
    where = " at position 0" if positional else ""
    return TypeError(
        f"{prim} does not accept dtype {dtype}{where}. Accepted dtypes{where} are subtypes of "
        "floating."
    )


def _real_inexact(name: str, *args: ArrayLike) -> list[Array]:
    check_arraylike(name, *args)
    out = promote_args_inexact(name, *args)
    if dtypes.kind(out[0].dtype) == "c":
        raise _complex_error(name, out[0].dtype)
    if dtypes.kind(out[0].dtype) != "f":
        raise TypeError(f"{name} requires floating-point or integer inputs, got {out[0].dtype}")
    return out


def _c(v: float, x: Array) -> Array:
    """``v`` in ``x``'s dtype and weak flag."""
    return scalar_to_array(v, x.dtype, x.weak_type)


# -- error function and normal distribution ------------------------------------------------------


def erf(x: ArrayLike) -> Array:
    """The error function."""
    (a,) = _real_inexact("erf", x)
    return lax.erf(a)


def erfc(x: ArrayLike) -> Array:
    """The complementary error function ``1 - erf(x)``, accurate for large ``x``."""
    (a,) = _real_inexact("erfc", x)
    return lax.erfc(a)


def erfinv(x: ArrayLike) -> Array:
    """The inverse error function (``±inf`` at ``±1``, NaN outside ``[-1, 1]``)."""
    (a,) = _real_inexact("erfinv", x)
    return special_inverse.erf_inv(a)


def _float32_64(name: str, x: ArrayLike) -> Array:
    """JAX's ndtr family takes float32 and float64 only (no promotion of integers); the result is
    strong even for a Python float."""
    check_arraylike(name, x)
    a = asarray(x)
    if a.dtype not in (dtypes.float32, dtypes.float64):
        # (JAX's log_ndtr message stops after "supported.")
        tail = "" if name == "log_ndtr" else ", see docstring for supported types"
        raise TypeError(f"x.dtype={a.dtype} is not supported{tail}.")
    return _convert(a, a.dtype, False)


def ndtr(x: ArrayLike) -> Array:
    """The standard normal CDF ``(1 + erf(x / sqrt(2))) / 2`` (via ``erfc`` in the tails).

    Only float32 and float64 are accepted (a TypeError otherwise, as in JAX).
    """
    a = _float32_64("ndtr", x)
    z = lax.mul(a, _c(1 / math.sqrt(2), a))
    abs_z = lax.abs(z)
    half = _c(0.5, a)
    y = where(
        ufuncs.less(abs_z, _c(1 / math.sqrt(2), a)),
        lax.add(half, lax.mul(half, lax.erf(z))),
        where(
            ufuncs.greater(z, _c(0, a)),
            lax.sub(_c(1, a), lax.mul(half, lax.erfc(z))),
            lax.mul(half, lax.erfc(abs_z)),
        ),
    )
    return y


def ndtri(p: ArrayLike) -> Array:
    """The inverse of ``ndtr`` (``-inf`` at 0, ``inf`` at 1, NaN outside ``[0, 1]``), differentiated
    by the inverse-function rule ``sqrt(2 pi) exp(z**2 / 2)``: ``inf`` at 0 and 1 (JAX's
    derivative through its polynomial is 0 there; docs/semantics.md)."""
    out: Array = _ndtri(_float32_64("ndtri", p))
    return out


def _ndtri_jvp(primals: tuple[Array], tangents: tuple[Array]) -> Any:
    (a,), (t,) = primals, tangents
    z: Array = _ndtri(a)
    half_square = lax.mul(_c(0.5, z), lax.mul(z, z))
    return z, lax.mul(t, lax.mul(_c(math.sqrt(2 * math.pi), z), lax.exp(half_square)))


def _ndtri_plain(a: Array) -> Array:
    """ndtri's value.

    The lower tail ``q = min(p, 1 - p)`` starts from ``sqrt(2) * erfinv(2q - 1)`` (or, below
    ``1e-3``, Abramowitz and Stegun's rational tail estimate) and takes three Newton steps on
    ``log_ndtr(z) = log(q)``, which keep the relative accuracy of tiny probabilities.
    """
    lower = ufuncs.less(a, _c(0.5, a))
    q = where(lower, a, lax.sub(_c(1, a), a))
    central = lax.mul(
        _c(-math.sqrt(2), a), lax_special.erf_inv(lax.sub(_c(1, a), lax.mul(_c(2, a), q)))
    )
    safe_q = where(ufuncs.greater(q, _c(0, a)), q, _c(0.5, a))
    t = lax.sqrt(lax.mul(_c(-2, a), lax.log(safe_q)))
    numerator = lax.add(
        _c(2.515517, a), lax.mul(t, lax.add(_c(0.802853, a), lax.mul(t, _c(0.010328, a))))
    )
    denominator = lax.add(
        _c(1, a),
        lax.mul(
            t,
            lax.add(
                _c(1.432788, a), lax.mul(t, lax.add(_c(0.189269, a), lax.mul(t, _c(0.001308, a))))
            ),
        ),
    )
    tail = lax.neg(lax.sub(t, lax.div(numerator, denominator)))
    z = where(ufuncs.less(q, _c(1e-3, a)), tail, central)
    for _ in range(3):
        log_phi = lax.sub(lax.mul(_c(-0.5, z), lax.mul(z, z)), _c(0.5 * math.log(2 * math.pi), z))
        lz = log_ndtr(z)
        step = lax.mul(lax.sub(lz, lax.log(safe_q)), lax.exp(lax.sub(lz, log_phi)))
        z = where(lax.is_finite(step), lax.sub(z, step), z)
    z = where(ufuncs.equal(q, _c(0, a)), _c(float("-inf"), a), z)
    z = where(
        ufuncs.logical_or(ufuncs.less(a, _c(0, a)), ufuncs.greater(a, _c(1, a))),
        _c(float("nan"), a),
        z,
    )
    # at p = 0.5 the value is exactly +0 and the derivative is sqrt(2 pi): sqrt(2) erfinv(2p - 1)
    # gives both (a constant 0 would give a zero derivative)
    at_half = lax.mul(
        _c(math.sqrt(2), a), lax_special.erf_inv(lax.sub(lax.mul(_c(2, a), a), _c(1, a)))
    )
    return where(ufuncs.equal(a, _c(0.5, a)), at_half, where(lower, z, lax.neg(z)))


_ndtri = ufuncs._custom_jvp(_ndtri_plain, _ndtri_jvp)


def log_ndtr(x: ArrayLike, series_order: int = 3) -> Array:
    """``log(ndtr(x))``, accurate far into the lower tail (an asymptotic series there)."""
    if not isinstance(series_order, int) or series_order < 0:
        raise ValueError(f"series_order must be a non-negative int, got {series_order!r}")
    if series_order > 30:
        raise ValueError(f"series_order must be <= 30, got {series_order}")
    a = _float32_64("log_ndtr", x)
    lower, upper = (-20.0, 8.0) if a.dtype == dtypes.float64 else (-10.0, 5.0)
    # upper tail: log(1 - q) ~ -q with q = ndtr(-x)
    upper_value = lax.neg(ndtr(lax.neg(a)))
    # the middle formula only where it is taken: below ``lower`` ndtr underflows to 0 and the
    # masked log(0)'s infinite derivative would turn the reverse-mode gradient into NaN
    in_middle = ufuncs.greater(a, _c(lower, a))
    middle = lax.log(ndtr(where(in_middle, a, _c(0, a))))
    # (not minimum(a, lower): at a == lower a tie would halve the derivative)
    safe = where(in_middle, _c(lower, a), a)
    return where(
        ufuncs.greater(a, _c(upper, a)),
        upper_value,
        where(in_middle, middle, _log_ndtr_lower(safe, series_order)),
    )


def _log_ndtr_lower(x: Array, series_order: int) -> Array:
    """The asymptotic series of ``log(ndtr(x))`` for very negative ``x``."""
    x2 = lax.mul(x, x)
    log_phi_over_x = lax.sub(
        lax.sub(lax.mul(_c(-0.5, x), x2), lax.log(lax.neg(x))),
        _c(0.5 * math.log(2 * math.pi), x),
    )
    total = _c(1, x)
    term = _c(1, x)
    inv = lax.div(_c(1, x), x2)
    coefficient = 1.0
    for n in range(1, series_order + 1):
        coefficient *= -(2 * n - 1)
        term = lax.mul(term, inv)
        total = lax.add(total, lax.mul(_c(coefficient, x), term))
    return lax.add(log_phi_over_x, lax.log(total))


# -- gamma family -------------------------------------------------------------------------------


def gammaln(x: ArrayLike) -> Array:
    """``log(|gamma(x)|)`` (``inf`` at the poles)."""
    (a,) = _real_inexact("gammaln", x)
    return lax.lgamma(a)


def loggamma(x: ArrayLike) -> Array:
    """The principal branch of ``log(gamma(x))``: for real ``x``, ``gammaln`` for ``x > 0``, NaN
    for ``x <= 0`` (as JAX; SciPy gives ``inf`` at 0); for complex ``x`` the branch continuous
    off the negative real axis, taken from above on it (``nan + nanj`` at the poles and for
    non-finite ``x``, as JAX)."""
    (a,) = _inexact("loggamma", x)
    if dtypes.kind(a.dtype) == "c":
        return special_complex.loggamma_complex(_convert(a, a.dtype, False))
    (a,) = _real_inexact("loggamma", a)
    return where(ufuncs.greater(a, _c(0, a)), lax.lgamma(a), _c(float("nan"), a))


def gammasgn(x: ArrayLike) -> Array:
    """The sign of ``gamma(x)``: ``copysign(1, x)`` at ``±0``, NaN at the negative integers, at
    ``-inf`` and for NaN; -1 where ``floor(x)`` is an odd negative number. Strong, as in JAX."""
    (a,) = _real_inexact("gammasgn", x)
    a = _convert(a, a.dtype, False)
    floor_x = lax.floor(a)
    negative = ufuncs.less(a, _c(0, a))
    odd = ufuncs.not_equal(ufuncs.fmod(floor_x, _c(2, a)), _c(0, a))
    sign = where(ufuncs.logical_and(negative, odd), _c(-1, a), _c(1, a))
    pole = ufuncs.logical_and(negative, ufuncs.equal(a, floor_x))  # includes -inf
    sign = where(ufuncs.equal(a, _c(0, a)), ufuncs.copysign(_c(1, a), a), sign)
    return where(ufuncs.logical_or(pole, ufuncs.isnan(a)), _c(float("nan"), a), sign)


def gamma(x: ArrayLike) -> Array:
    """The gamma function ``gammasgn(x) * exp(gammaln(x))`` (``±inf`` at ``±0``, NaN at the
    negative integers). Strong, as in JAX. Complex ``x``: ``exp(loggamma(x))`` (the real gamma
    on the real axis; ``nan + nanj`` at the poles and for non-finite ``x``, as JAX)."""
    (a,) = _inexact("gamma", x)
    if dtypes.kind(a.dtype) == "c":
        return special_complex.gamma_complex(_convert(a, a.dtype, False))
    (a,) = _real_inexact("gamma", a)
    a = _convert(a, a.dtype, False)
    return lax.mul(gammasgn(a), lax.exp(lax.lgamma(a)))


def digamma(x: ArrayLike) -> Array:
    """The logarithmic derivative of the gamma function."""
    (a,) = _real_inexact("digamma", x)
    return lax.digamma(a)


def betaln(a: ArrayLike, b: ArrayLike) -> Array:
    """``log(|beta(a, b)|)``: ``lgamma(a) + lgamma(b) - lgamma(a + b)``, except where the
    larger argument is 8 or more (1e6 in float64) and the other positive: there the difference of the two large
    log-gammas is taken from Stirling's series, which keeps the digits the subtraction of two
    rounded log-gammas loses (``betaln(65504, 0.5)`` in float32: -4.9725666, SciPy
    -4.97256639; the subtraction gave -5.0)."""
    x, y = _real_inexact("betaln", a, b)
    # lgamma(x + y) with the rounding error e of x + y (two-sum) put back to first order,
    # lgamma(s) + e digamma(s): e has a zero derivative, so every derivative in turn gets its
    # correction (polygamma(k, s) + e polygamma(k + 1, s)); without it the 0.5-ulp rounding of
    # 2.0 + 0.7 made d3 beta / da db2 20 ulps off (digamma(2) - digamma(2.7) cancels). The
    # correction is below an ulp, so digamma(s) is taken as log(s + 1/2) - 1/s (close to it and
    # to its first derivatives for s > 0; a log instead of a digamma in cost)
    s = lax.add(x, y)
    back = lax.sub(s, x)
    e = lax.add(lax.sub(x, lax.sub(s, back)), lax.sub(y, back))
    positive = ufuncs.logical_and(ufuncs.greater(s, 0), ufuncs.isfinite(e))
    s_safe = where(positive, s, _c(1, s))
    psi = lax.sub(lax.log(lax.add(s_safe, _c(0.5, s))), lax.div(_c(1, s), s_safe))
    correction = where(positive, lax.mul(where(positive, e, _c(0, e)), psi), _c(0, e))
    sum_term = lax.add(lax.lgamma(s), correction)
    direct = lax.sub(lax.add(lax.lgamma(x), lax.lgamma(y)), sum_term)
    small, big = lax.min(x, y), lax.max(x, y)
    # the series stops at x^-5 (error below 1/(1680 x^7)): float64 needs x >= 1e6 for that
    start = 1e6 if x.dtype == dtypes.float64 else 8
    use = ufuncs.logical_and(
        ufuncs.logical_and(ufuncs.greater_equal(big, start), ufuncs.greater(small, 0)),
        ufuncs.isfinite(big),
    )
    bs, ss = where(use, big, _c(8, big)), where(use, small, _c(1, small))
    total = lax.add(ss, bs)
    # lgamma(bs) - lgamma(ss + bs) by Stirling: the (x - 1/2) log x - x terms in one piece,
    # then the difference of the series 1/(12x) - 1/(360x^3) + 1/(1260x^5)
    main = ufuncs.subtract(
        ss,
        ufuncs.add(
            ufuncs.multiply(ufuncs.subtract(bs, 0.5), ufuncs.log1p(ufuncs.divide(ss, bs))),
            ufuncs.multiply(ss, ufuncs.log(total)),
        ),
    )
    asym = lax.add(
        lax.lgamma(ss), lax.add(main, lax.sub(_stirling_tail(bs), _stirling_tail(total)))
    )
    return where(use, asym, direct)


def _stirling_tail(x: Array) -> Array:
    """``lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2)`` for ``x >= 8``."""
    r = ufuncs.reciprocal(x)
    r2 = ufuncs.multiply(r, r)
    inner = ufuncs.subtract(
        1 / 12, ufuncs.multiply(r2, ufuncs.subtract(1 / 360, ufuncs.multiply(r2, 1 / 1260)))
    )
    return ufuncs.multiply(r, inner)


def beta(a: ArrayLike, b: ArrayLike) -> Array:
    """The beta function ``gamma(a) gamma(b) / gamma(a + b)``."""
    x, y = _real_inexact("beta", a, b)
    x, y = _convert(x, x.dtype, False), _convert(y, y.dtype, False)  # strong, as JAX's
    sign = lax.mul(lax.mul(gammasgn(x), gammasgn(y)), gammasgn(lax.add(x, y)))
    return lax.mul(sign, lax.exp(betaln(x, y)))


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The regularized incomplete beta function ``I_x(a, b)`` (``lax.betainc``)."""
    aa, bb, xx = _real_inexact("betainc", a, b, x)
    return special_beta.betainc(aa, bb, xx)


def multigammaln(a: ArrayLike, d: ArrayLike) -> Array:
    """The log of the multivariate gamma function of dimension ``d`` (a static int; ``d = 0``
    is the empty product, 0). A negative or non-integral ``d`` is a ``ValueError`` (as SciPy;
    JAX truncates it with ``int()``)."""
    d_float = float(d)
    d_int = int(d_float)
    if d_int != d_float or d_int < 0:
        raise ValueError(f"multigammaln: d must be a non-negative integer, got {d}")
    (x,) = _real_inexact("multigammaln", a)
    # strong from the start, as JAX's: every term is then strong, and the cast's transpose gives
    # a weakly typed input a weakly typed gradient (JAX's weak flags)
    x = _convert(x, x.dtype, False)
    constant = d_int * (d_int - 1) / 4 * math.log(math.pi)
    total = full(tuple(x.shape), constant, dtype=x.dtype)  # x's shape, also for d = 0
    for j in range(d_int):
        total = lax.add(total, lax.lgamma(lax.sub(x, _c(j / 2, x))))
    return total


def factorial(n: ArrayLike, exact: bool = False) -> Array:
    """``gamma(n + 1)``, 0 for negative ``n`` (``exact=True`` is not supported, as in JAX)."""
    if exact:
        raise NotImplementedError("factorial with exact=True")
    (a,) = _real_inexact("factorial", n)
    return where(ufuncs.less(a, _c(0, a)), _c(0, a), lax.exp(lax.lgamma(lax.add(a, _c(1, a)))))


def poch(z: ArrayLike, m: ArrayLike) -> Array:
    """The rising factorial ``gamma(z + m) / gamma(z)`` (1 for ``m == 0``; strong).
    Differentiated by a custom rule, as JAX does: ``d/dz = poch (digamma(z + m) - digamma(z))``
    and ``d/dm = poch digamma(z + m)``, also at ``m = 0`` (where the ``where`` selecting 1 would
    otherwise give a zero derivative in ``m``), so higher derivatives run through ``polygamma``."""
    x, y = _real_inexact("poch", z, m)
    x, y = _convert(x, x.dtype, False), _convert(y, y.dtype, False)
    out: Array = _poch(x, y)
    return out


def _poch_plain(x: Array, y: Array) -> Array:
    return where(ufuncs.equal(y, _c(0, y)), _c(1, x), lax.div(gamma(lax.add(x, y)), gamma(x)))


def _poch_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> Any:
    (x, y), (tx, ty) = primals, tangents
    out: Array = _poch(x, y)
    shifted = lax.digamma(lax.add(x, y))
    dz = lax.mul(out, lax.sub(shifted, lax.digamma(x)))
    dm = lax.mul(out, shifted)
    return out, lax.add(lax.mul(dz, tx), lax.mul(dm, ty))


_poch = ufuncs._custom_jvp(_poch_plain, _poch_jvp)


def gammainc(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)`` (``lax.igamma``)."""
    aa, xx = _real_inexact("gammainc", a, x)
    return special_gamma.igamma(aa, xx)


def gammaincc(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    aa, xx = _real_inexact("gammaincc", a, x)
    return special_gamma.igammac(aa, xx)


# -- logs and logistic ---------------------------------------------------------------------------


def expit(x: ArrayLike) -> Array:
    """The logistic sigmoid ``1 / (1 + exp(-x))``."""
    (a,) = _inexact("expit", x)
    if dtypes.kind(a.dtype) == "c":  # (JAX's complex logistic: the plain formula)
        one = _c(1, a)
        return lax.div(one, lax.add(one, lax.exp(lax.neg(a))))
    return lax.logistic(a)


def logit(x: ArrayLike) -> Array:
    """The inverse of ``expit``: ``log(x / (1 - x))``. Differentiated as JAX does (custom JVP
    ``t / (x (1 - x))``), so the derivative at 0 and 1 is ``inf``, not NaN."""
    (a,) = _inexact("logit", x)
    out: Array = _logit(a)
    return out


def _logit_plain(a: Array) -> Array:
    return lax.log(lax.div(a, lax.sub(_c(1, a), a)))


def _logit_jvp(primals: tuple[Array], tangents: tuple[Array]) -> Any:
    (a,), (t,) = primals, tangents
    out: Array = _logit(a)
    return out, lax.div(t, lax.mul(a, lax.sub(_c(1, a), a)))


_logit = ufuncs._custom_jvp(_logit_plain, _logit_jvp)


def xlogy(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log(y)``, 0 where ``x == 0`` (even for ``y == 0``). Differentiated as JAX does
    (custom JVP ``t_x log(y) + t_y x / y``): at ``x == 0`` the derivative in ``x`` is
    ``log(y)``, not 0."""
    a, b = _inexact("xlogy", x, y)
    out: Array = _xlogy(a, b)
    return out


def _zero_x(a: Array, b: Array) -> Array:
    """Where ``x * f(y)`` is 0: ``x == 0`` and ``y`` not NaN (a NaN ``y`` propagates, as in
    SciPy and JAX)."""
    return ufuncs.logical_and(ufuncs.equal(a, _c(0, a)), ufuncs.logical_not(ufuncs.isnan(b)))


def _xlogy_plain(a: Array, b: Array) -> Array:
    return where(_zero_x(a, b), _c(0, a), lax.mul(a, lax.log(b)))


def _xlogy_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> Any:
    a, b = primals
    ta, tb = tangents
    out: Array = _xlogy(a, b)
    tangent = ufuncs.add(ufuncs.multiply(ta, lax.log(b)), ufuncs.divide(ufuncs.multiply(tb, a), b))
    return out, tangent.astype(out.dtype)


_xlogy = ufuncs._custom_jvp(_xlogy_plain, _xlogy_jvp)


def xlog1py(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log1p(y)``, 0 where ``x == 0``. Differentiated as JAX does (custom JVP
    ``t_x log1p(y) + t_y x / (1 + y)``): at ``x == 0`` the derivative in ``x`` is
    ``log1p(y)``, not 0."""
    a, b = _inexact("xlog1py", x, y)
    out: Array = _xlog1py(a, b)
    return out


def _xlog1py_plain(a: Array, b: Array) -> Array:
    return where(_zero_x(a, b), _c(0, a), lax.mul(a, lax.log1p(b)))


def _xlog1py_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> Any:
    a, b = primals
    ta, tb = tangents
    out: Array = _xlog1py(a, b)
    one_plus_b = ufuncs.add(_c(1, b), b)
    tangent = ufuncs.add(
        ufuncs.multiply(ta, lax.log1p(b)), ufuncs.divide(ufuncs.multiply(tb, a), one_plus_b)
    )
    return out, tangent.astype(out.dtype)


_xlog1py = ufuncs._custom_jvp(_xlog1py_plain, _xlog1py_jvp)


def entr(x: ArrayLike) -> Array:
    """``-x log(x)`` for ``x >= 0`` (0 at 0), ``-inf`` for ``x < 0``, NaN for NaN; its
    derivative is JAX's ``-(log(x) + 1)`` (``inf`` at 0)."""
    (a,) = _real_inexact("entr", x)
    negative = ufuncs.less(a, _c(0, a))
    out: Array = _xlogx(a)
    return where(negative, _c(float("-inf"), a), lax.neg(out))


def _xlogx_jvp(primals: tuple[Array], tangents: tuple[Array]) -> Any:
    (a,) = primals
    (ta,) = tangents
    out: Array = _xlogx(a)
    return out, ufuncs.multiply(ta, ufuncs.add(lax.log(a), 1))


_xlogx = ufuncs._custom_jvp(lambda a: _xlogy_plain(a, a), _xlogx_jvp)


def rel_entr(p: ArrayLike, q: ArrayLike) -> Array:
    """``p log(p / q)`` for ``p, q > 0``, 0 for ``p == 0 <= q``, ``inf`` otherwise. Computed as
    JAX does, ``xlogx(p) - xlogy(p, q)`` on operands replaced by 1 outside ``p, q > 0``, so its
    derivatives there are finite (0) instead of NaN."""
    a, b = _real_inexact("rel_entr", p, q)
    return _rel_entr(a, b)


def _rel_entr(a: Array, b: Array) -> Array:
    zero, one = _c(0, a), _c(1, a)
    both = ufuncs.logical_and(ufuncs.greater(a, zero), ufuncs.greater(b, zero))
    safe_a, safe_b = where(both, a, one), where(both, b, one)
    value = lax.sub(_xlogx(safe_a), _xlogy(safe_a, safe_b))
    edge = where(
        ufuncs.logical_and(ufuncs.equal(a, zero), ufuncs.greater_equal(b, zero)),
        zero,
        _c(float("inf"), a),
    )
    return where(both, value, edge)


def kl_div(p: ArrayLike, q: ArrayLike) -> Array:
    """``p log(p / q) - p + q`` for ``p, q > 0``, ``q`` for ``p == 0 <= q``, ``inf`` otherwise
    (``rel_entr(p, q) - p + q``, as JAX computes it: NaN in either gives NaN)."""
    a, b = _real_inexact("kl_div", p, q)
    return lax.add(lax.sub(_rel_entr(a, b), a), b)


def boxcox(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """The Box-Cox transform: ``(x**lmbda - 1) / lmbda``, ``log(x)`` for ``lmbda == 0``
    (real operands: differentiated by a rule exact through ``lmbda == 0``,
    ``special_boxcox.py``; complex ones by the formula, as JAX)."""
    a, lam = _inexact("boxcox", x, lmbda)
    if dtypes.kind(a.dtype) != "c":
        return special_boxcox.boxcox(a, lam)
    safe = where(ufuncs.equal(lam, _c(0, lam)), _c(1, lam), lam)
    value = lax.div(lax.expm1(lax.mul(safe, lax.log(a))), safe)
    return where(ufuncs.equal(lam, _c(0, lam)), lax.log(a), value)


def boxcox1p(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """The Box-Cox transform of ``1 + x``."""
    a, lam = _inexact("boxcox1p", x, lmbda)
    if dtypes.kind(a.dtype) != "c":
        return special_boxcox.boxcox1p(a, lam)
    safe = where(ufuncs.equal(lam, _c(0, lam)), _c(1, lam), lam)
    value = lax.div(lax.expm1(lax.mul(safe, lax.log1p(a))), safe)
    return where(ufuncs.equal(lam, _c(0, lam)), lax.log1p(a), value)


# -- reductions ----------------------------------------------------------------------------------


def logsumexp(
    a: ArrayLike,
    axis: Axis = None,
    b: ArrayLike | None = None,
    keepdims: bool = False,
    return_sign: bool = False,
    where: ArrayLike | None = None,
) -> Array | tuple[Array, Array]:
    """``log(sum(b * exp(a)))`` over ``axis``, computed stably (the maximum is factored out).

    With ``b`` the sum may be negative: ``return_sign=True`` returns ``(log|sum|, sign)``;
    otherwise a negative sum gives NaN.
    """

    if where is not None:  # masked-out entries can't make NaNs, in values or gradients
        a = asarray(a)
        if a.dtype == dtypes.bool_:  # JAX fills with a Python 0: bool joins to the default int
            a = _convert(a, dtypes.default_int_dtype(), a.weak_type)
        a = _where(where, a, _c(0, a))
    if b is not None:
        x, weights = promote_args_inexact("logsumexp", a, b)
        x = _where(ufuncs.not_equal(weights, _c(0, weights)), x, _c(float("-inf"), x))
    else:
        (x,) = promote_args_inexact("logsumexp", a)
        weights = None
    check_arraylike("logsumexp", x)
    # The shift is a constant for differentiation (as in JAX): its gradient cancels exactly in
    # real arithmetic, and in float16/bfloat16 would leave rounding noise behind.
    amax = reductions.max(
        ufuncs.real(x), axis=axis, keepdims=True, where=where, initial=float("-inf")
    )
    amax = stop_gradient(_where(ufuncs.isfinite(amax), amax, _c(0, amax)))
    exp_a = ufuncs.exp(ufuncs.subtract(x, amax.astype(x.dtype)))
    if weights is not None:
        exp_a = ufuncs.multiply(exp_a, weights)
    sumexp = reductions.sum(exp_a, axis=axis, where=where, keepdims=keepdims)
    sign = ufuncs.sign(sumexp)
    if return_sign or dtypes.kind(sumexp.dtype) != "c":
        sumexp = ufuncs.abs(sumexp)
    shift = amax if keepdims else squeeze(amax, reductions.reduction_axes(amax.ndim, axis))
    out = ufuncs.add(ufuncs.log(sumexp), shift.astype(sumexp.dtype))
    if return_sign:
        return out, sign
    if weights is not None and dtypes.kind(out.dtype) != "c":
        out = _where(ufuncs.less(sign, _c(0, sign)), _c(float("nan"), out), out)
    return out


_where = where


def softmax(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``exp(x) / sum(exp(x), axis)``, computed after subtracting the maximum."""
    check_arraylike("softmax", x)
    a = asarray(x)
    if a.size == 0:
        return ufuncs.exp(a)  # nothing to normalize: JAX's empty result (issue 24)
    unnormalized = ufuncs.exp(ufuncs.subtract(a, reductions.max(a, axis=axis, keepdims=True)))
    return ufuncs.divide(unnormalized, reductions.sum(unnormalized, axis=axis, keepdims=True))


def log_softmax(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``x - logsumexp(x, axis)``, computed after subtracting the maximum."""
    check_arraylike("log_softmax", x)
    a = asarray(x)
    if a.size == 0:
        return ufuncs.exp(a)  # nothing to normalize: JAX's empty result (issue 24)
    shifted = ufuncs.subtract(a, reductions.max(a, axis=axis, keepdims=True))
    total = reductions.sum(ufuncs.exp(shifted), axis=axis, keepdims=True)
    return ufuncs.subtract(shifted, ufuncs.log(total))


# -- Bessel functions ----------------------------------------------------------------------------


def i0(x: ArrayLike) -> Array:
    """The modified Bessel function of the first kind, order 0."""
    (a,) = _real_inexact("i0", x)
    return ufuncs.i0(a)


def i0e(x: ArrayLike) -> Array:
    """``exp(-|x|) * i0(x)``."""
    (a,) = _real_inexact("i0e", x)
    return lax.bessel_i0e(a)


def i1e(x: ArrayLike) -> Array:
    """``exp(-|x|) * i1(x)``, the exponentially scaled modified Bessel function of order 1."""
    (a,) = _real_inexact("i1e", x)
    return special_prims.bessel_i1e(a)


def i1(x: ArrayLike) -> Array:
    """The modified Bessel function of the first kind, order 1 (``exp(|x|) * i1e(x)``)."""
    (a,) = _real_inexact("i1", x)
    return lax.mul(lax.exp(lax.abs(a)), special_prims.bessel_i1e(a))


def polygamma(n: ArrayLike, x: ArrayLike) -> Array:
    """The ``n``-th derivative of ``digamma``; ``n`` must have an integer dtype (as in JAX)."""
    check_arraylike("polygamma", n, x)
    n_dtype = dtypes.dtype_and_weak_type(n)[0]
    if dtypes.kind(n_dtype) not in ("i", "u"):
        raise ValueError(
            f"Argument `n` to polygamma must be of integer type. Got dtype {n_dtype.name}."
        )
    m, a = _real_inexact("polygamma", n, x)
    return special_prims.polygamma(m, a)


def zeta(x: ArrayLike, q: ArrayLike | None = None) -> Array:
    """The Hurwitz zeta function ``sum((k + q) ** -x for k >= 0)``; ``q`` is required.
    Differentiable in ``x`` and ``q`` as in JAX (through its Euler-Maclaurin expansion)."""
    if q is None:
        raise NotImplementedError(
            "Riemann zeta function not implemented; pass q != None to compute the Hurwitz Zeta "
            "function."
        )
    a, b = _real_inexact("zeta", x, q)
    out: Array = special_zeta.zeta_differentiable(a, b)
    return out


# -- combinatorics -------------------------------------------------------------------------------


def comb(N: ArrayLike, k: ArrayLike, *, repetition: bool = False) -> Array:
    """The binomial coefficient ``N choose k`` via ``gammaln`` (0 where ``k > N`` or negative)."""
    n, kk = _real_inexact("comb", N, k)
    given = n
    if repetition:
        n = lax.sub(lax.add(n, kk), _c(1, n))
    one = _c(1, n)
    valid = ufuncs.logical_and(ufuncs.greater_equal(kk, _c(0, kk)), ufuncs.less_equal(kk, n))
    valid = ufuncs.logical_and(valid, ufuncs.greater_equal(n, _c(0, n)))
    # outside the valid region comb is the constant 0: the log-gammas there are evaluated at
    # (1, 0), so that their derivatives (NaN at the poles of k > N, such as comb(3, 4)) do not
    # reach the derivative of the 0 selected (JAX's derivative there is 0 as well)
    n_at, k_at = where(valid, n, one), where(valid, kk, _c(0, kk))
    value = lax.exp(
        lax.sub(
            lax.lgamma(lax.add(n_at, one)),
            lax.add(lax.lgamma(lax.add(k_at, one)), lax.lgamma(lax.add(lax.sub(n_at, k_at), one))),
        )
    )
    out = where(valid, value, _c(0, n))
    if repetition:  # choosing nothing from N >= 0 kinds is one way (N + k - 1 may be negative)
        empty = ufuncs.logical_and(
            ufuncs.equal(kk, _c(0, kk)), ufuncs.greater_equal(given, _c(0, n))
        )
        out = where(empty, one, out)
    return out


def bernoulli(n: int) -> Array:
    """The first ``n + 1`` Bernoulli numbers ``B_0 .. B_n`` (``B_1 = -1/2``), a float array."""
    n = operator.index(n)  # a Python/NumPy int or a concrete 0-d integer array, as JAX's
    if n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    from fractions import Fraction

    # the Akiyama-Tanigawa algorithm: B_m^+ (B_1 = +1/2) at index 0 after pass m
    numbers = []
    a = [Fraction(0)] * (n + 1)
    for m in range(n + 1):
        a[m] = Fraction(1, m + 1)
        for j in range(m, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
        numbers.append(a[0])
    if n >= 1:
        numbers[1] = -numbers[1]
    return asarray(np.array([float(v) for v in numbers], dtype=dtypes.default_float_dtype()))
