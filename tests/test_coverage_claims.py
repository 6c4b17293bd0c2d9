"""Claims of docs pages that no other test measured. docs/jax_coverage.md: ``trellax.numpy``'s scalar types compare and hash as the NumPy
scalar types they stand for (as JAX's do); ``scipy.special.bernoulli`` is exact (rationals rounded
once); ``scipy.linalg.expm`` agrees with SciPy's to the dtype's precision at small and large
norms."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.scipy.linalg import expm
from trellax.scipy.special import bernoulli

NAMES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint32", "float16", "float32",
         "float64", "complex64", "complex128"]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_scalar_type_equals_and_hashes_as_numpys(name: str) -> None:
    ours, numpys = getattr(tnp, name), getattr(np, name)
    assert ours == numpys and numpys == ours
    assert hash(ours) == hash(numpys)
    assert {numpys: "v"}[ours] == "v"
    assert ours != getattr(np, "int16" if name != "int16" else "int8")


def _bernoulli_exact(n: int) -> list[Fraction]:
    """B_0 .. B_n (B_1 = -1/2) by the recurrence sum_k C(m+1, k) B_k = 0."""
    b = [Fraction(1)]
    for m in range(1, n + 1):
        total = Fraction(0)
        coeff = 1  # C(m+1, k)
        for k in range(m):
            total += coeff * b[k]
            coeff = coeff * (m + 1 - k) // (k + 1)
        b.append(-total / (m + 1))
    return b


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bernoulli_numbers_are_exact_rationals_rounded_once(dtype: str) -> None:
    n = 60
    with trellax.enable_x64(dtype == "float64"):
        got = np.asarray(bernoulli(n))
    assert got.dtype == np.dtype(dtype)
    want = np.array([float(v) for v in _bernoulli_exact(n)]).astype(dtype)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("scale", [1e-3, 0.3, 5.0, 40.0])
def test_expm_agrees_with_scipy_at_small_and_large_norms(scale: float) -> None:
    sl = pytest.importorskip("scipy.linalg")
    a = np.random.default_rng(0).standard_normal((6, 6)) * scale / 6
    with trellax.enable_x64(True):
        got = np.asarray(expm(tnp.asarray(a)))
    want = sl.expm(a)
    np.testing.assert_allclose(got, want, rtol=1e-12 * max(1.0, scale), atol=1e-14)


# docs/vmap.md: in_axes entries are ints or None (bool and NumPy ints raise, as in JAX), and
# keyword arguments are mapped over axis 0


@pytest.mark.parametrize("axis", [True, np.int64(0)])
def test_vmap_refuses_bool_and_numpy_int_in_axes(axis: object) -> None:
    with pytest.raises(TypeError, match="in_axes must be an int, None"):
        trellax.vmap(lambda x: x, in_axes=axis)(tnp.ones(3))


def test_vmap_maps_keyword_arguments_over_axis_0() -> None:
    out = trellax.vmap(lambda x, y: x * y, in_axes=None)(2.0, y=tnp.arange(3.0))
    assert out.shape == (3,) and np.asarray(out).tolist() == [0.0, 2.0, 4.0]
    with pytest.raises(ValueError):
        trellax.vmap(lambda x, y: x + y)(tnp.ones(3), y=tnp.ones(4))
