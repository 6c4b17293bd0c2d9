"""``betainc`` at extreme parameters (issue 24): results were outside [0, 1] (28247, negatives),
NaN, or lost every digit when one parameter is tiny or huge.

Reference values: the analytic limits stated next to each case, and mpmath 1.3 at 60 digits
(``mpmath.betainc(a, b, 0, x, regularized=True)`` of the exact float64 inputs) where a number
is written out. ``test_ordinary_range_matches_scipy`` compares a random sample with SciPy when it
is installed (the ``dev`` extra installs it).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax.scipy import special

VALS = [1e-300, 1e-100, 1e-30, 1e-10, 1e-5, 1e-3, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0, 1e3, 1e5]
VALS += [1e8, 1e10, 1e15, 1e20, 1e30, 1e100, 1e300]
XS = [1e-300, 1e-20, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-10, 1 - 1e-15]


def _betainc64(a: object, b: object, x: object) -> np.ndarray:
    with trellax.enable_x64(True):
        return np.asarray(
            special.betainc(
                jnp.asarray(a, jnp.float64),
                jnp.asarray(b, jnp.float64),
                jnp.asarray(x, jnp.float64),
            )
        )


def test_always_a_probability_over_the_extreme_grid() -> None:
    a, b, x = (v.ravel() for v in np.meshgrid(VALS, VALS, XS, indexing="ij"))
    got = _betainc64(a, b, x)
    assert not np.isnan(got).any()
    assert ((got >= 0) & (got <= 1)).all()


def test_monotone_in_x_over_the_extreme_grid() -> None:
    a, b = (v.ravel() for v in np.meshgrid(VALS, VALS, indexing="ij"))
    got = _betainc64(a[:, None], b[:, None], np.array(XS)[None, :])
    # a CDF never decreases in x (allowing float64 rounding)
    assert (np.diff(got, axis=1) >= -1e-12 * np.maximum(got[:, 1:], 1e-300)).all()


@pytest.mark.parametrize(
    ("a", "b"), [(1e-100, 1e-300), (1e-30, 1e-300), (1e-10, 1e-30), (1e-5, 1e-30), (1e-3, 1e-10)]
)
def test_tiny_parameters_split_the_mass(a: float, b: float) -> None:
    # Beta(a, b) with tiny a and b puts b/(a+b) of its mass at 0, a/(a+b) at 1: inside (0, 1),
    # I_x(a, b) = b/(a+b) (1 + O(max(a, b) log)) -- 1 - v of the flipped fraction gave 0 or 1e-14
    x = np.array([0.01, 0.3, 0.7, 0.9, 0.99])
    got = _betainc64(a, b, x)
    np.testing.assert_allclose(got, b / (a + b), rtol=1e-2)


@pytest.mark.parametrize(
    ("a", "b", "x", "want"),
    [
        (1e-5, 1e-30, 0.7, 1.0000084728530853e-25),
        (1e-5, 1e-30, 1 - 1e-15, 1.0003453955954e-25),
        (1e-10, 1e-30, 1 - 1e-10, 1.0000000023025852e-20),
        (1e10, 1e-10, 1 - 1e-10, 2.19383903979e-11),
        (1e15, 1e-3, 1 - 1e-15, 2.19902800193e-4),
        (10.0, 10.0, 1e-20, 9.237800000000001e-196),
        (10.0, 1e5, 1e-20, 2.7569722415384623e-157),
        (0.5, 1e10, 1e-10, 0.842700792954904),
    ],
)
def test_values_where_digits_were_lost(a: float, b: float, x: float, want: float) -> None:
    np.testing.assert_allclose(_betainc64(a, b, x), want, rtol=1e-9)


@pytest.mark.parametrize(("a", "b"), [(1e8, 3e8), (1e10, 1e15), (1e20, 1e20), (1e30, 1e30)])
def test_huge_parameters_are_normal_near_the_mean(a: float, b: float) -> None:
    # Temme's expansion: to O(1/sqrt(a+b)) the law is normal with the beta's mean and variance;
    # the fraction alone gave values like 28247 or 0 here
    r = a + b
    p = a / r
    sd = math.sqrt(p * (1 - p) / r)
    z = np.array([-2.0, -0.5, 0.0, 0.3, 1.5])
    x = p + z * sd
    z_exact = (x - p) / sd  # the float64 x's own distance
    want = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in z_exact])
    np.testing.assert_allclose(_betainc64(a, b, x), want, atol=5e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("jit", [False, True])
def test_float32_extremes_stay_in_range(dtype: type, jit: bool) -> None:
    big = float(np.finfo(np.float32).max) / 4
    a = np.array([1e-38, 1e-20, 1e20, big, 0.5, 1e30], dtype)
    b = np.array([1e-30, big, 1e-20, 1.0, 1e30, 1e30], dtype)
    x = np.array([0.7, 0.5, 0.999, 0.9, 1e-30, 0.5], dtype)
    fn = trellax.jit(special.betainc) if jit else special.betainc
    with trellax.enable_x64(dtype == np.float64):
        got = np.asarray(fn(jnp.asarray(a), jnp.asarray(b), jnp.asarray(x)))
    assert got.dtype == dtype
    assert ((got >= 0) & (got <= 1)).all()
    assert got[3] == 0.0  # a huge: all the mass at 1, none below 0.9
    np.testing.assert_allclose(got[5], 0.5, atol=1e-6)  # a == b huge, at the mean


def test_ordinary_range_matches_scipy() -> None:
    scipy_special = pytest.importorskip("scipy.special")
    rng = np.random.default_rng(7)
    n = 20000
    a = np.exp(rng.uniform(math.log(1e-3), math.log(1e4), n))
    b = np.exp(rng.uniform(math.log(1e-3), math.log(1e4), n))
    x = rng.uniform(0, 1, n)
    got = _betainc64(a, b, x)
    want = scipy_special.betainc(a, b, x)
    keep = want > 1e-250  # SciPy's own digits thin out near the underflow
    np.testing.assert_allclose(got[keep], want[keep], rtol=1e-9)
    np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))
