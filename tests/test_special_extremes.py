"""Special functions at extreme parameters (issue 24): values that were NaN, negative or hung."""

from __future__ import annotations

import math

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax.scipy import special

DTYPES = [np.float32, np.float64]


def _run(fn: object, jit: bool) -> object:
    return trellax.jit(fn) if jit else fn  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("jit", [False, True])
def test_igammac_tiny_a_is_a_times_e1(dtype: type, jit: bool) -> None:
    a = np.array([1.2e-38, 1e-30, 1e-10], dtype)
    x = np.array([0.53, 0.53, 0.53], dtype)
    got = np.asarray(_run(lax.igammac, jit)(jnp.asarray(a), jnp.asarray(x)))  # type: ignore[operator]
    e1 = 0.5249511  # E_1(0.53); Q(a, x) = a E_1(x) (1 + O(a))
    want = a.astype(np.float64) * e1
    assert (got > 0).all()
    np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("jit", [False, True])
def test_zeta_huge_s_below_one_overflows(dtype: type, jit: bool) -> None:
    s = jnp.asarray(np.array([1e30, 1e30, 1e30], dtype))
    q = jnp.asarray(np.array([0.5, 1.0, 2.0], dtype))
    got = np.asarray(_run(special.zeta, jit)(s, q))  # type: ignore[operator]
    np.testing.assert_array_equal(got, np.array([np.inf, 1.0, 0.0], dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("jit", [False, True])
def test_spence_huge_x_is_finite(dtype: type, jit: bool) -> None:
    x = np.array([1e9, 1e20, 3.4e38], dtype)
    got = np.asarray(_run(special.spence, jit)(jnp.asarray(x)))  # type: ignore[operator]
    # Li_2(1 - x) = -π²/6 - log(x)²/2 + O(log(x)/x) for large x
    lx = np.log(x.astype(np.float64))
    want = -(math.pi**2) / 6 - 0.5 * lx**2
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("jit", [False, True])
def test_expn_infinite_and_huge_orders(dtype: type, jit: bool) -> None:
    n = jnp.asarray(np.array([np.inf, np.inf, 1e20, 1e4], dtype))
    x = jnp.asarray(np.array([0.5, 1.0, 0.5, 0.5], dtype))
    got = np.asarray(_run(special.expn, jit)(n, x))  # type: ignore[operator]
    # E_n(x) = e^-x / (x + n) (1 + n / (x + n)^2 + ...) for large n
    xf = np.array([0.5, 1.0, 0.5, 0.5])
    nf = np.array([np.inf, np.inf, 1e20, 1e4])
    with np.errstate(invalid="ignore"):
        want = np.where(np.isinf(nf), 0.0, np.exp(-xf) / (xf + nf) * (1 + nf / (xf + nf) ** 2))
    np.testing.assert_allclose(got, want.astype(dtype), rtol=2e-6)


# (n, x, E_n(x)): mpmath's expint at 50 digits for orders that are negative or not integers
# (JAX 0.10.2: NaN for x <= 1, and -0.00136 at (-100.5, 2)); x = 0 and inf are the limits
EXPN_REAL_ORDERS = [
    (0.5, 0.1, 3.6697045911267447),
    (0.5, 3.0, 0.014639587483610874),
    (2.5, 0.5, 0.26512649694890095),
    (7.5, 1.0, 0.048111374216158694),
    (70.5, 0.5, 0.008663827024723444),
    (-0.5, 0.5, 2.0084408102719697),
    (-1.0, 0.1, 99.53211598395553),
    (-1.0, 3.0, 0.022127585941272863),
    (-7.25, 1.5, 295.29971971883367),
    (-100.5, 2.0, 2.612656357352871e128),
    (-128.0, 127.0, 8.76276461049298e-57),
    (0.5, 0.0, np.inf),
    (2.5, 0.0, 1 / 1.5),
    (-0.5, np.inf, 0.0),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("jit", [False, True])
def test_expn_of_negative_and_non_integer_orders(dtype: type, jit: bool) -> None:
    n, x, want = (np.array(c) for c in zip(*EXPN_REAL_ORDERS, strict=True))
    fn = _run(special.expn, jit)
    with trellax.enable_x64(dtype == np.float64):
        got = np.asarray(fn(jnp.asarray(n.astype(dtype)), jnp.asarray(x.astype(dtype))))  # type: ignore[operator]
    assert got.dtype == dtype
    tol = 2e-6 if dtype == np.float32 else 1e-12
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(got, want.astype(dtype), rtol=tol)


# orders within 1e-5 of an integer: Γ(1-n) x^(n-1) and the series' term at k = n - 1 cancel
EXPN_NEAR_INTEGER = [
    (2.00001, 1.0, 0.14849500025433132),
    (0.9999, 0.5, 0.5598094240958695),
    (1.0001, 1.0, 0.21937415043182246),
    (2.00001, 0.5, 0.32664238726764455),
]


def test_expn_near_integer_orders_float64() -> None:
    n, x, want = (np.array(c) for c in zip(*EXPN_NEAR_INTEGER, strict=True))
    with trellax.enable_x64(True):
        got = np.asarray(special.expn(jnp.asarray(n), jnp.asarray(x)))
    np.testing.assert_allclose(got, want, rtol=1e-12)


# (a, b, x, I_x(a, b)): scipy.special.betainc's float64 values (Boost), except the row with
# b = 1e300 where SciPy gives NaN: there I_x(3, b) -> P(3, b x) = 1 - 2.5/e (b x = 1).
BETAINC_EXTREMES = [
    (3.5e-5, 1.4e20, 1.4e-31, 0.9991576143427066),
    (1e-3, 1e10, 1e-10, 0.9997803916424145),
    (0.5, 1.4e20, 1.4e-31, 4.995547525195121e-06),
    (0.5, 1e10, 1e-10, 0.8427007929549037),
    (1e-40, 1.4e20, 1.4e-31, 1.0),
    (1e-300, 1e300, 1e-300, 1.0),
    (1.0, 1e300, 1e-300, 0.6321205588285577),
    (3.0, 1e300, 1e-300, 1 - 2.5 / math.e),
    (1e10, 1e10, 0.49999, 0.00233886748862132),
    (1e7, 1e7, 0.5003, 0.9963548232210578),
    (1.4e20, 1.4e20, 0.5, 0.5),
]


@pytest.mark.parametrize("jit", [False, True])
def test_betainc_extreme_parameters_match_scipy(jit: bool) -> None:
    a, b, x, want = (np.array(c, np.float64) for c in zip(*BETAINC_EXTREMES, strict=True))
    with trellax.enable_x64(True):
        got = np.asarray(_run(special.betainc, jit)(a, b, x))  # type: ignore[operator]
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=2e-9, atol=1e-300)
    got32 = np.asarray(special.betainc(*(v.astype(np.float32) for v in (a, b, x))))
    ok = np.isfinite(a.astype(np.float32)) & np.isfinite(b.astype(np.float32))
    ok &= (x.astype(np.float32) > 0) & (a.astype(np.float32) > 0) & (x.astype(np.float32) == x)
    np.testing.assert_allclose(got32[ok], want[ok].astype(np.float32), rtol=1e-5, atol=1e-38)


def test_betainc_unconverged_fraction_is_nan_not_wrong() -> None:
    # both parameters huge and x near (not at) the mean: the fraction needs ~sqrt(a) steps
    with trellax.enable_x64(True):
        got = np.asarray(
            special.betainc(np.float64(1e16), np.float64(1e16), np.float64(0.5 + 1e-9))
        )
    assert np.isnan(got) or 0.0 <= float(got) <= 1.0


def test_betainc_tiny_b_past_the_mean_is_not_negative() -> None:
    # I_x(a, b) ~ b for tiny b: the complement 1 - I_{1-x}(b, a) gave 0 or -4.4e-16 here
    a = np.array([7.798108e-08, 6.693021, 0.5160092], np.float32)
    b = np.array([1.8216880e-44, 1.0171083e-34, 4.6396992e-42], np.float32)
    x = np.array([0.9098784, 0.9481873, 0.6624011], np.float32)
    got = np.asarray(special.betainc(a, b, x))
    assert not (got <= 0).any()
