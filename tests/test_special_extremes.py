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
