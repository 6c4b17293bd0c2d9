"""``scipy.special`` functions on the primitives of ``lax/special_integrals.py``: the scaled
complementary error function, Dawson's integral, Fresnel, exponential, sine/cosine integrals and
``spence``. Arguments promote to an inexact dtype as in JAX (complex refused, except by ``erfcx``)."""

from __future__ import annotations

import operator

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import special_integrals as prims
from trellax._src.lax import special_series as series
from trellax._src.lax import special_sph_harm as sph
from trellax._src.lax._base import check_dtype, int_or_float
from trellax._src.lax.structural import _convert
from trellax._src.numpy.creation import arange, asarray
from trellax._src.numpy.selection import where
from trellax._src.numpy.shapes import broadcast_to
from trellax._src.numpy.util import check_arraylike, promote_args_inexact, promote_shapes
from trellax._src.scipy.special import ArrayLike
from trellax._src.scipy.special import _real_inexact as _weak_real_inexact


def _real_inexact(name: str, *args: ArrayLike) -> list[Array]:
    """The arguments promoted to a real inexact dtype, strongly typed: JAX's versions of these
    functions return strong results for Python scalars (``jax.scipy.special.expi(0.5)`` is
    float32, not weak), so their derivatives are strong too."""
    return [_strong(a) for a in _weak_real_inexact(name, *args)]


def _strong(a: Array) -> Array:
    return _convert(a, a.dtype, False) if a.weak_type else a


def erfcx(x: ArrayLike) -> Array:
    """``exp(x²) erfc(x)``, without the overflow of the product. Complex input is the Faddeeva
    function at ``i z``: ``erfcx(z) = w(iz)`` (complex64/complex128, as JAX)."""
    check_arraylike("erfcx", x)
    (z,) = promote_args_inexact("erfcx", x)
    if dtypes.kind(z.dtype) == "c":
        return series.wofz(_strong(lax.complex(lax.neg(lax.imag(z)), lax.real(z))))
    (a,) = _real_inexact("erfcx", x)
    return prims.erfcx(a)


def dawsn(x: ArrayLike) -> Array:
    """Dawson's integral ``exp(-x²) ∫_0^x exp(t²) dt``."""
    (a,) = _real_inexact("dawsn", x)
    return prims.dawsn(a)


def fresnel(x: ArrayLike) -> tuple[Array, Array]:
    """``(S(x), C(x))``, the Fresnel integrals of ``sin``/``cos(π t²/2)``."""
    (a,) = _real_inexact("fresnel", x)
    return prims.fresnel_s(a), prims.fresnel_c(a)


def exp1(x: ArrayLike) -> Array:
    """The exponential integral ``E_1(x)`` (NaN for negative ``x``, as JAX)."""
    (a,) = _real_inexact("exp1", x)
    return prims.exp1(a)


def expi(x: ArrayLike) -> Array:
    """The exponential integral ``Ei(x)``."""
    (a,) = _real_inexact("expi", x)
    return prims.expi(a)


def expn(n: ArrayLike, x: ArrayLike) -> Array:
    """The generalized exponential integral ``E_n(x)`` for any real order ``n`` (NaN for a
    negative ``x``)."""
    nn, a = _real_inexact("expn", n, x)
    return prims.expn(nn, a)


def sici(x: ArrayLike) -> tuple[Array, Array]:
    """``(Si(x), Ci(x))``; for negative ``x``, ``Ci`` is that of ``|x|`` (the real part)."""
    (a,) = _real_inexact("sici", x)
    return prims.sici_si(a), prims.sici_ci(a)


def spence(x: ArrayLike) -> Array:
    """``∫_1^x log(t)/(1 - t) dt``; float32 or float64 input only (JAX's ``TypeError``)."""
    a = asarray(x)
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"x.dtype={a.dtype} is not supported, see docstring for supported types.")
    return prims.spence(_strong(a))


def owens_t(h: ArrayLike, a: ArrayLike) -> Array:
    """Owen's T function ``T(h, a)``."""
    hh, aa = _real_inexact("owens_t", h, a)
    if hh.dtype in (dtypes.float16, dtypes.bfloat16):  # JAX computes and returns float32
        hh, aa = _convert(hh, dtypes.float32, False), _convert(aa, dtypes.float32, False)
    return series.owens_t(hh, aa)


def hyp1f1(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """Kummer's confluent hypergeometric function ``1F1(a; b; x)``."""
    aa, bb, xx = _real_inexact("hyp1f1", a, b, x)
    # 1F1(a; a; x) = exp(x) (so 1 at a = b = 0, inf/0 at x = +-inf), as JAX takes it
    return where(lax.eq(aa, bb), lax.exp(xx), series.hyp1f1(aa, bb, xx))


def bessel_jn(z: ArrayLike, *, v: int, n_iter: int = 50) -> Array:
    """``J_0(z), ..., J_v(z)`` stacked on a new leading axis. ``n_iter`` is accepted for JAX's
    signature; the recurrence here runs until it converges."""
    del n_iter
    (zc,) = promote_args_inexact("bessel_jn", z)
    if dtypes.kind(zc.dtype) == "c":  # refused before the order is read, as JAX refuses it:
        # its check catches complex128 (ValueError); complex64 fails later in its remainder,
        # whose dtype check raises the TypeError
        if zc.dtype == dtypes.complex128:
            raise ValueError("bessel_jn: complex input (complex128) is not supported")
        check_dtype("rem", zc.dtype, int_or_float, 0)
    try:
        v = operator.index(v)  # the number of orders: an integer (JAX's TypeError otherwise)
    except TypeError:
        raise TypeError(f"bessel_jn: v must be an integer, got {v!r}") from None
    (zz,) = _real_inexact("bessel_jn", z)
    orders = arange(v + 1, dtype=zz.dtype).reshape((-1,) + (1,) * zz.ndim)
    zb = broadcast_to(zz, (v + 1, *zz.shape))
    return series.bessel_j(broadcast_to(orders, zb.shape), zb)


def wofz(z: ArrayLike) -> Array:
    """The Faddeeva function ``exp(-z²) erfc(-iz)``; real input gives a complex result."""
    check_arraylike("wofz", z)
    (zz,) = promote_args_inexact("wofz", z)
    if dtypes.kind(zz.dtype) != "c":
        target = dtypes.complex128 if zz.dtype.itemsize == 8 else dtypes.complex64
        zz = _convert(zz, target, False)
    return series.wofz(_strong(zz))


def hyp2f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, x: ArrayLike) -> Array:
    """Gauss's hypergeometric function ``2F1(a, b; c; x)`` (``inf`` for ``x > 1``, as JAX)."""
    aa, bb, cc, xx = _real_inexact("hyp2f1", a, b, c, x)
    return series.hyp2f1(aa, bb, cc, xx)


def sph_harm_y(
    n: ArrayLike,
    m: ArrayLike,
    theta: ArrayLike,
    phi: ArrayLike,
    diff_n: int | None = None,
    n_max: int | None = None,
) -> Array:
    """The spherical harmonic ``Y_n^m(θ, φ)`` (polar ``θ``, azimuthal ``φ``), complex.

    All four arguments broadcast together. ``n_max`` is accepted for JAX's signature (each
    element is computed for its own degree, so no bound is needed, also under ``jit``);
    ``diff_n`` is JAX's ``NotImplementedError``.
    """
    del n_max
    if diff_n is not None:
        raise NotImplementedError(
            "The 'diff_n' argument to jax.scipy.special.sph_harm_y is not supported."
        )
    tt, pp = _real_inexact("sph_harm_y", theta, phi)
    for name, v in (("n", n), ("m", m)):
        if dtypes.kind(asarray(v).dtype) not in "iub":
            raise TypeError(
                f"sph_harm_y: the degree and order must be integers, got {name} of dtype "
                f"{asarray(v).dtype}"
            )
    nn, mm = (_convert(asarray(v), tt.dtype, tt.weak_type) for v in (n, m))
    return sph.sph_harm_y(*promote_shapes([nn, mm, tt, pp]))
