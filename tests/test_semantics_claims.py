"""trellax's side of rows of docs/semantics.md's "Where trellax differs from JAX, on purpose"
table that no other test pinned (JAX's side of each row is described there, not tested: the
suite does not import JAX)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.scipy.special import gammaln, multigammaln


def test_subnormal_results_and_inputs_are_kept() -> None:
    # XLA on CPU flushes them; trellax keeps IEEE semantics
    assert float(tnp.arcsin(tnp.float32(1.2e-38))) == float(np.arcsin(np.float32(1.2e-38))) != 0
    assert int(tnp.count_nonzero(tnp.array([1e-40, 0.0], tnp.float32))) == 1


@pytest.mark.parametrize(
    "dtype, lo, hi",
    [
        (np.float16, -24, 16),
        (ml_dtypes.bfloat16, -133, 128),
        (np.float32, -149, 128),
        (np.float64, -1074, 1024),
    ],
)
def test_exp2_of_integer_values_is_the_exact_power_of_two(dtype: type, lo: int, hi: int) -> None:
    assert float(tnp.exp2(tnp.float32(100.0))) == 2.0**100
    assert float(tnp.exp2(tnp.asarray(7, ml_dtypes.bfloat16))) == 128.0
    n = np.arange(lo, hi)
    with trellax.enable_x64(dtype is np.float64):
        got = np.asarray(tnp.exp2(tnp.asarray(n.astype(dtype))))
    # it is NumPy's exp2 (ml_dtypes' for bfloat16), bit for bit ...
    assert got.tobytes() == np.exp2(n.astype(dtype)).tobytes()
    # ... which is exact except float32's exp2(127): one ulp high with NumPy 2.4's AVX-512
    # kernel on this host (docs/semantics.md states it)
    inexact = n[got.astype(np.float64) != np.ldexp(1.0, n)].tolist()
    assert set(inexact) <= ({127} if dtype is np.float32 else set()), inexact


def test_logaddexp2_of_equal_arguments_is_exact() -> None:
    assert float(tnp.logaddexp2(tnp.float32(-1.0), tnp.float32(-1.0))) == 0.0


@pytest.mark.parametrize("x", [100.0, 700.0, 710.0])
def test_float64_sinh_and_cosh_are_numpy_values(x: float) -> None:
    with trellax.enable_x64(True):
        assert float(tnp.sinh(x)) == float(np.sinh(x))
        assert float(tnp.cosh(x)) == float(np.cosh(x))


def test_gammaln_at_one_and_two_is_exactly_zero() -> None:
    for v in (True, tnp.float32(1.0), tnp.float32(2.0)):
        assert float(gammaln(v)) == 0.0


@pytest.mark.parametrize("d", [2.5, 0.5, -1])
def test_multigammaln_refuses_a_non_integral_or_negative_d(d: float) -> None:
    with pytest.raises(ValueError, match="non-negative integer"):
        multigammaln(3.0, d)


def test_multigammaln_with_d_zero_is_the_empty_product() -> None:
    assert float(multigammaln(3.0, 0)) == 0.0
