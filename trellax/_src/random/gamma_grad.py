"""``random_gamma_grad``: the derivative of a gamma sample with respect to its shape parameter.

JAX differentiates ``gamma`` by implicit reparameterization: a sample ``x`` of Gamma(a, 1) is
``F⁻¹(u; a)`` for the regularized lower incomplete gamma function ``F = P(a, ·)``, so
``dx/da = -(∂P/∂a)(a, x) / (∂P/∂x)(a, x)``. Both factors share ``x^a e^-x / Γ(a)``, which cancels;
what remains is computed as XLA does (observed in JAX 0.10.2): for ``x <= 1`` or ``x <= a`` the
power series of ``P`` differentiated term by term, otherwise the continued fraction of ``1 - P``
with the derivatives of its convergents carried along (rescaled together when they grow). The
same enabling rules as JAX: ``x == 0`` gives 0, ``x < 0``, ``a <= 0`` or NaN give NaN, and where
``x^a e^-x / Γ(a)`` underflows in the sample dtype the iterations are skipped (JAX's value from
the initial state).

Like JAX, the iterations run in the sample dtype (float32 for float16/bfloat16 samples, where JAX
iterates in the half type itself) and stop at that dtype's epsilon; ``lgamma`` and ``digamma``
come from float64 libm and are rounded, so the results agree with JAX's to a few ulps (up to ~60
ulps for large ``a``, where the continued fraction's rounding errors add up).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.numpy import digamma as _digamma
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import def_elementwise
from trellax._src.random.loops import lgamma


def _series(a: Any, x: Any, enabled: Any) -> Any:
    eps = np.finfo(a.dtype).eps
    r = a.copy()
    c = np.ones_like(a)
    ans = np.ones_like(a)
    dc_da = np.zeros_like(a)
    dans_da = np.zeros_like(a)
    live = np.nonzero(enabled)[0]
    for _ in range(100_000):
        if not live.size:
            break
        xl, rl, cl = x[live], r[live] + 1, c[live]
        dcl = dc_da[live] * (xl / rl) - (cl * xl) / (rl * rl)
        dansl = dans_da[live] + dcl
        cl = cl * (xl / rl)
        r[live], dc_da[live], dans_da[live], c[live] = rl, dcl, dansl, cl
        ans[live] += cl
        live = live[np.abs(dcl / dansl) > eps]
    dlogax_da = np.log(x) - _digamma(a + 1).astype(a.dtype)
    return -(dans_da + ans * dlogax_da) * x / a


def _continued_fraction(a: Any, x: Any, enabled: Any) -> Any:
    d = a.dtype
    eps = d.type(np.finfo(d).eps)
    one = d.type(1)
    y = 1 - a
    z = x + y + 1
    pkm2 = np.ones_like(x)
    qkm2 = x.copy()
    pkm1 = x + 1
    qkm1 = z * x
    ans = pkm1 / qkm1
    dpkm2 = np.zeros_like(x)
    dqkm2 = np.zeros_like(x)
    dpkm1 = np.zeros_like(x)
    dqkm1 = -x
    dans_da = (dpkm1 - ans * dqkm1) / qkm1
    live = np.nonzero(enabled)[0]
    for c in range(1, 2001):
        if not live.size:
            break
        y[live] += 1
        z[live] += 2
        yc = y[live] * d.type(c)
        zl = z[live]
        p1, q1, p2, q2 = pkm1[live], qkm1[live], pkm2[live], qkm2[live]
        dp1, dq1, dp2, dq2 = dpkm1[live], dqkm1[live], dpkm2[live], dqkm2[live]
        pk = p1 * zl - p2 * yc
        qk = q1 * zl - q2 * yc
        nz = qk != 0
        ansl = np.where(nz, pk / np.where(nz, qk, one), ans[live])
        dpk = dp1 * zl - p1 - dp2 * yc + p2 * d.type(c)
        dqk = dq1 * zl - q1 - dq2 * yc + q2 * d.type(c)
        old = dans_da[live]
        new = np.where(nz, (dpk - ansl * dqk) / np.where(nz, qk, one), old)
        change = np.where(nz, np.abs(new - old), one)
        scale = np.where(np.abs(pk) > one / eps, eps, one)
        pkm2[live], pkm1[live] = p1 * scale, pk * scale
        qkm2[live], qkm1[live] = q1 * scale, qk * scale
        dpkm2[live], dpkm1[live] = dp1 * scale, dpk * scale
        dqkm2[live], dqkm1[live] = dq1 * scale, dqk * scale
        ans[live], dans_da[live] = ansl, new
        live = live[change > eps]
    dlogax_da = np.log(x) - _digamma(a).astype(d)
    return (dans_da + ans * dlogax_da) * x


def gamma_grad_data(a: Any, x: Any) -> Any:
    """``d sample / d a`` for gamma samples ``x`` of shape parameters ``a`` (same shape/dtype)."""
    d = np.result_type(a, x)
    cd = np.dtype(np.float64) if d == np.float64 else np.dtype(np.float32)
    shape = np.broadcast_shapes(np.shape(a), np.shape(x))
    a64 = np.broadcast_to(np.asarray(a, cd), shape).reshape(-1)
    x64 = np.broadcast_to(np.asarray(x, cd), shape).reshape(-1)
    with np.errstate(all="ignore"):
        is_nan = np.isnan(a64) | np.isnan(x64)
        x_is_zero = x64 == 0
        domain_error = (x64 < 0) | (a64 <= 0)
        use_cf = (x64 > 1) & (x64 > a64)
        log_ax = a64 * np.log(x64) - x64 - lgamma(a64).astype(cd)
        underflow = log_ax < -math.log(float(np.finfo(d).max))
        enabled = ~(x_is_zero | domain_error | underflow | is_nan)
        out = np.empty_like(a64)
        ser = ~use_cf
        out[ser] = _series(a64[ser], x64[ser], enabled[ser])
        out[use_cf] = _continued_fraction(a64[use_cf], x64[use_cf], enabled[use_cf])
        out = np.where(x_is_zero, cd.type(0), out)
        out = np.where(domain_error | is_nan, cd.type(np.nan), out)
    return out.astype(d).reshape(shape)


def random_gamma_grad(a: Any, x: Any) -> Any:
    """``dx/da`` of a Gamma(a, 1) sample ``x`` (``lax.random_gamma_grad``; operands of one
    floating dtype and shape)."""

    return random_gamma_grad_p.bind(asarray(a), asarray(x))


random_gamma_grad_p = Primitive("random_gamma_grad")
random_gamma_grad_p.def_impl(gamma_grad_data)


@random_gamma_grad_p.def_abstract_eval
def _abstract_eval(a: Any, x: Any) -> ShapedArray:
    for op, dtype in (("le", a.dtype), ("lt", x.dtype)):  # JAX's first comparison of each
        if np.dtype(dtype).kind == "c":
            raise TypeError(
                f"{op} does not accept dtype {dtype} at position 0. Accepted dtypes at position 0 "
                "are subtypes of integer, floating, bool."
            )
    if tuple(a.shape) != tuple(x.shape) or a.dtype != x.dtype:
        raise TypeError(
            "random_gamma_grad takes operands of equal shapes and dtypes, got "
            f"{a.dtype}{list(a.shape)} and {x.dtype}{list(x.shape)}"
        )
    return ShapedArray._fast(tuple(a.shape), a.dtype, bool(a.weak_type and x.weak_type))


# -- batch rules --------------------------------------------------------------------------------

def_elementwise(random_gamma_grad_p, fusable=False)
