"""``linalg.pinv``'s derivative is the pseudo-inverse's own, not the SVD's: finite at repeated
singular values (JAX issue 2792: ``jacobian(pinv)(eye(2))`` is minus the identity map, as JAX
0.10.2 gives), and equal to finite differences of full-rank inputs (float64)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.test_util import check_grads


def test_jacobian_at_the_identity() -> None:
    j = trellax.jacobian(tnp.linalg.pinv)(tnp.eye(2, dtype=tnp.float32))
    want = -np.eye(4, dtype=np.float32).reshape(2, 2, 2, 2)
    np.testing.assert_array_equal(np.asarray(j), want)


def test_issue_2792() -> None:
    def f(p: trellax.Array) -> trellax.Array:
        a = tnp.array([[0.0, 0.0], [-p, 1.0]], tnp.float32) * 1 / (1 + p**2)
        return tnp.linalg.pinv(a)

    j = trellax.jacobian(f)(tnp.float32(2.0))
    np.testing.assert_allclose(np.asarray(j), [[0.0, -1.0], [0.0, 0.0]], atol=1e-6)


@pytest.mark.parametrize(
    ("shape", "dtype", "hermitian"),
    [
        ((3, 4), np.float64, False),
        ((4, 2), np.float64, False),
        ((2, 3, 2), np.float64, False),
        ((3, 3), np.complex128, False),
        ((3, 3), np.float64, True),
    ],
)
def test_matches_finite_differences(shape: tuple[int, ...], dtype: type, hermitian: bool) -> None:
    rng = np.random.RandomState(0)
    x = rng.randn(*shape)
    if dtype is np.complex128:
        x = x + 1j * rng.randn(*shape)
    if hermitian:
        x = x @ x.T + np.eye(shape[-1])
    with trellax.enable_x64(True):
        # hermitian=True reads a symmetric input: differentiate along symmetric directions
        sym = lambda a: tnp.linalg.pinv((a + a.T) / 2, hermitian=True)  # noqa: E731
        f = sym if hermitian else tnp.linalg.pinv
        check_grads(f, (tnp.asarray(x.astype(dtype)),), order=1, modes=("fwd", "rev"))
