"""trellax's float64 ``i0e`` and ``i1e`` against mpmath on a grid (issue 24):
``tests/golden/deriv_exact_derivs_rest.json`` (``tools/gen_deriv_exact_derivs_rest.py``). Their
derivative rules cancel near -2.5 (``i1e''`` 15-fold), so the kernels' own errors reached the
derivatives magnified: summed in float64, ``i1e`` was up to 10 ulps off near |x| = 23 and 3 ulps
off at -2.5, ``i0e`` up to 3; now summed in ``np.longdouble``."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import trellax

EXACT = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "deriv_exact_derivs_rest.json").read_text()
)

#: the worst distance measured (28 Nov 2026, x86-64, whose np.longdouble has a 64-bit
#: significand), in ulps (spacings of the exact value): i0e 2 (beyond |x| = 30, np.i0 times
#: exp), i1e 1; where np.longdouble is float64 the kernels are the old ones (up to 10)
BOUNDS = {"i0e": 2.0, "i1e": 1.0}
WIDE = np.finfo(np.longdouble).nmant > 52


@pytest.mark.skipif(not WIDE, reason="np.longdouble is float64 on this platform")
@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_scaled_bessel_float64_within_an_ulp_or_two(name: str) -> None:
    x = np.array(EXACT["x"])
    want = np.array(EXACT[name])
    with trellax.enable_x64(True):
        got = np.asarray(getattr(trellax.scipy.special, name)(x))
    ulps = np.abs(got - want) / np.spacing(np.abs(want))
    assert ulps.max() <= BOUNDS[name], (x[ulps.argmax()], ulps.max())
    # the point of the derivative cases where the rules cancel: exact to the last bit
    assert ulps[x == -2.5].max() == 0.0


def test_beta_pieces_at_the_open_point() -> None:
    """The former open entry ``sp_beta/ordinary|float64`` at (2.0, 0.7): the digammas are within an
    ulp, the two-sum correction makes ``digamma(a + b)`` exact for the exact sum (the rounded
    sum alone left it 1 ulp off), and ``beta = exp(betaln)`` is 5 ulps off because the float64
    ``gammaln`` kernel is 6 and 5 ulps off at 0.7 and 2.7 (the remaining few ulps of its derivatives)."""
    want = EXACT["beta_pieces"]
    jsp = trellax.scipy.special

    def ulps(got: object, key: str) -> float:
        w = float(want[key])
        return abs(float(np.asarray(got)) - w) / float(np.spacing(abs(w)))

    with trellax.enable_x64(True):
        a, b = np.float64(2.0), np.float64(0.7)
        assert ulps(jsp.digamma(a), "digamma(a)") <= 1
        assert ulps(jsp.digamma(b), "digamma(b)") <= 1
        assert ulps(jsp.digamma(a + b), "digamma(a+b)") == 1  # the rounding of a + b
        d_a = trellax.grad(jsp.betaln, 0)(a, b)  # digamma(a) - digamma(a + b), corrected
        exact_d_a = want["digamma(a)"] - want["digamma(a+b)"]
        assert abs(float(d_a) - exact_d_a) <= float(np.spacing(abs(exact_d_a)))
        assert ulps(jsp.gammaln(b), "gammaln(b)") == 6
        assert ulps(jsp.gammaln(a + b), "gammaln(a+b)") == 5
        assert ulps(jsp.beta(a, b), "beta(a,b)") == 5
