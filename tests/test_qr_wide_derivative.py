"""``linalg.qr`` of wide matrices (more columns than rows) is differentiable in both modes, as in
JAX (its linalg_test ``testQr`` checks ``jvp`` of ``q @ r`` for a 3x4 complex input): checked
against finite differences in float64/complex128. Tall matrices in ``"complete"`` mode are still
refused (JAX 0.10.2 differentiates them with a rule for the extra columns of Q that follows its
Householder basis, arXiv 2409.13374; not done here)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.test_util import check_grads


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (1, 3)])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_wide_qr_matches_finite_differences(shape: tuple[int, ...], dtype: type, mode: str) -> None:
    rng = np.random.RandomState(1)
    a = rng.randn(*shape)
    if dtype is np.complex128:
        a = a + 1j * rng.randn(*shape)
    with trellax.enable_x64(True):
        x = tnp.asarray(a.astype(dtype))
        check_grads(lambda v: tnp.linalg.qr(v, mode=mode), (x,), order=1, modes=("fwd", "rev"))


def test_jvp_of_q_times_r_is_the_tangent() -> None:
    rng = np.random.RandomState(2)
    a = (rng.randn(3, 4) + 1j * rng.randn(3, 4)).astype(np.complex64)
    t = (rng.randn(3, 4) + 1j * rng.randn(3, 4)).astype(np.complex64)

    def qr_and_mul(x: trellax.Array) -> trellax.Array:
        q, r = tnp.linalg.qr(x, mode="complete")
        return q @ r

    out, tan = trellax.jvp(qr_and_mul, (tnp.asarray(a),), (tnp.asarray(t),))
    np.testing.assert_allclose(np.asarray(out), a, atol=1e-5)
    np.testing.assert_allclose(np.asarray(tan), t, atol=1e-5)


def test_tall_complete_qr_is_still_refused() -> None:
    x = tnp.ones((4, 3))
    with pytest.raises(NotImplementedError, match="Unimplemented case of QR"):
        trellax.jvp(lambda v: tnp.linalg.qr(v, mode="complete"), (x,), (x,))
