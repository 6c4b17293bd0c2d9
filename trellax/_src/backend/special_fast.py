"""The special-function kernels with ``scipy.special`` as their fast path (``scipy_special.py``).

Each entry names trellax's own kernel, the SciPy function computing the same value, the dtypes
whose results are bit-identical to the own kernel's on the survey sample (the fast path is used
only for those) and the domain edges the own kernel computes anyway. The lax primitives use these
kernels; the own ones stay reachable as ``<kernel>.own``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend import numpy as base
from trellax._src.backend import special as series
from trellax._src.backend import special_beta as beta
from trellax._src.backend import special_error as error
from trellax._src.backend import special_gamma as gamma
from trellax._src.backend import special_integrals as integrals
from trellax._src.backend import special_series as hyper
from trellax._src.backend.scipy_special import TABLE as TABLE  # (the kernels below fill it)
from trellax._src.backend.scipy_special import accelerated

F32 = (np.float32,)
BOTH = (np.float32, np.float64)


def _not_natural(n: np.ndarray) -> Any:
    return (n < 0) | (n != np.floor(n))


def _nonpositive(*args: np.ndarray) -> Any:
    out = args[0] <= 0
    for v in args[1:]:
        out = out | (v <= 0)
    return out


erfcx = accelerated("erfcx", error.erfcx, lambda sc, x: sc.erfcx(x), fast_dtypes=F32)
dawsn = accelerated("dawsn", error.dawsn, lambda sc, x: sc.dawsn(x), fast_dtypes=F32)
fresnel_s = accelerated(
    "fresnel_s",
    error.fresnel_s,
    lambda sc, x: sc.fresnel(x)[0],
    own_where=lambda x: x == 0,
    fast_dtypes=F32,
)
fresnel_c = accelerated(
    "fresnel_c",
    error.fresnel_c,
    lambda sc, x: sc.fresnel(x)[1],
    own_where=lambda x: x == 0,
    fast_dtypes=F32,
)
exp1 = accelerated(
    "exp1", integrals.exp1, lambda sc, x: sc.exp1(x), own_where=_nonpositive, fast_dtypes=F32
)
expi = accelerated(
    "expi", integrals.expi, lambda sc, x: sc.expi(x), own_where=lambda x: x == 0, fast_dtypes=F32
)
sici_si = accelerated(
    "sici_si",
    integrals.sici_si,
    lambda sc, x: sc.sici(x)[0],
    own_where=lambda x: x == 0,
    fast_dtypes=F32,
)
sici_ci = accelerated(
    "sici_ci",
    integrals.sici_ci,
    lambda sc, x: sc.sici(x)[1],
    own_where=lambda x: x <= 0,
    fast_dtypes=F32,
)
spence = accelerated(
    "spence",
    integrals.spence,
    lambda sc, x: sc.spence(x),
    own_where=lambda x: x <= 0,
    fast_dtypes=F32,  # (0 of 100,000 float32 differ since the own code is finite past 1e15)
)
expn = accelerated(
    "expn",
    integrals.expn,
    lambda sc, n, x: sc.expn(np.where(_not_natural(n), 0, n).astype(np.int64), x),
    nargs=2,
    own_where=lambda n, x: _not_natural(n) | (x <= 0) | (n >= 2**31),  # (int64 cast wraps)
    fast_dtypes=F32,
)
igamma = accelerated(
    "igamma",
    gamma.igamma,
    lambda sc, a, x: sc.gammainc(a, x),
    nargs=2,
    own_where=_nonpositive,
    fast_dtypes=F32,
)
igammac = accelerated(
    "igammac",
    gamma.igammac,
    lambda sc, a, x: sc.gammaincc(a, x),
    nargs=2,
    own_where=_nonpositive,
    fast_dtypes=F32,  # (0 of 100,000 float32 differ since the own tiny-a series)
)
regularized_incomplete_beta = accelerated(
    "betainc",
    beta.regularized_incomplete_beta,
    lambda sc, a, b, x: sc.betainc(a, b, x),
    nargs=3,
    own_where=lambda a, b, x: (a <= 0) | (b <= 0) | (x <= 0) | (x >= 1),
    fast_dtypes=F32,  # (0 of 100,000 float32 differ since the extreme-parameter rewrite)
)
zeta = accelerated(
    "zeta",
    series.zeta,
    lambda sc, s, q: sc.zeta(s, q),
    nargs=2,
    own_where=lambda s, q: (s <= 1) | (q <= 0),
)
polygamma = accelerated(
    "polygamma",
    series.polygamma,
    lambda sc, m, x: sc.polygamma(np.where(_not_natural(m), 0, m).astype(np.int64), x),
    nargs=2,
    own_where=lambda m, x: _not_natural(m) | np.isinf(m) | ((x <= 0) & (x == np.floor(x))),
)
bessel_i1e = accelerated("bessel_i1e", series.bessel_i1e, lambda sc, x: sc.i1e(x))
bessel_i0e = accelerated("bessel_i0e", series.bessel_i0e, lambda sc, x: sc.i0e(x), fast_dtypes=F32)
i0 = accelerated(
    "i0", base.i0, lambda sc, x: sc.i0(x), fast_dtypes=F32
)  # float64: np.i0 uses np.exp, SVML on AVX-512
owens_t = accelerated("owens_t", hyper.owens_t, lambda sc, h, a: sc.owens_t(h, a), nargs=2)
hyp1f1 = accelerated("hyp1f1", hyper.hyp1f1, lambda sc, a, b, x: sc.hyp1f1(a, b, x), nargs=3)
bessel_j = accelerated(
    "bessel_j",
    hyper.bessel_j,
    lambda sc, n, z: sc.jv(n, z),
    nargs=2,
    own_where=lambda n, z: _not_natural(n),
)
lgamma = accelerated(
    "lgamma",
    base.lgamma,
    lambda sc, x: sc.gammaln(x),
    own_where=lambda x: (x <= 0) & (x == np.floor(x)),
    fast_dtypes=F32,
    min_size=64,  # (the measured crossover of CPU time per call)
)
digamma = accelerated(
    "digamma",
    base.digamma,
    lambda sc, x: sc.psi(x),
    # x <= 0 by the own code: at 0 SciPy's -inf is not JAX's NaN; for x < 0 SciPy reduces x
    # before its reflection's tan(πx), the own code does not (2 of 200,000 float32 differed)
    own_where=lambda x: x <= 0,
    fast_dtypes=F32,
    min_size=8,  # (the measured crossover of CPU time per call)
)
erfc = accelerated("erfc", base.erfc, lambda sc, x: sc.erfc(x), fast_dtypes=F32, min_size=64)
