"""Derivatives of ``lax.linalg.eig``'s eigenvectors with ``enable_eigvec_derivs=True`` (JAX's
opt-in flag; branch ``jt16``). trellax raised ``NotImplementedError`` even when asked.

The tangent keeps each eigenvector in the gauge ``eig`` returns (LAPACK's: unit norm, largest
component real), so it matches central finite differences of ``eig`` itself, checked here to
second order in float64 for left, right and both kinds of eigenvectors, real and complex
inputs (real inputs through ``v * v``: LAPACK does not fix the sign of a real eigenvector).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.test_util import check_grads

_KINDS = [(False, True), (True, False), (True, True)]


def _eig_fn(left: bool, right: bool, square: bool) -> Callable[[Any], Any]:
    def f(a: Any) -> Any:
        out = lax.linalg.eig(
            a,
            compute_left_eigenvectors=left,
            compute_right_eigenvectors=right,
            enable_eigvec_derivs=True,
        )
        return (out[0], *[v * v for v in out[1:]]) if square else out

    return f


@pytest.mark.parametrize("left_right", _KINDS)
@pytest.mark.parametrize("kind", ["real", "complex"])
def test_eigvec_derivatives_match_finite_differences(
    left_right: tuple[bool, bool], kind: str
) -> None:
    rng = np.random.RandomState(1)
    a = rng.randn(4, 4)
    if kind == "complex":
        a = a + 1j * rng.randn(4, 4)
    with trellax.enable_x64(True):
        f = _eig_fn(*left_right, square=kind == "real")
        check_grads(f, (tnp.asarray(a),), order=2, rtol=1e-4, atol=1e-4)


def test_eigvec_tangent_keeps_unit_norm_and_real_largest_component() -> None:
    rng = np.random.RandomState(2)
    a, da = rng.randn(5, 5) + 1j * rng.randn(5, 5), rng.randn(5, 5) + 1j * rng.randn(5, 5)
    with trellax.enable_x64(True):

        def vecs(m: Any) -> Any:
            return lax.linalg.eig(m, compute_left_eigenvectors=False, enable_eigvec_derivs=True)[1]

        v, dv = trellax.jvp(vecs, (tnp.asarray(a),), (tnp.asarray(da),))
        v, dv = np.asarray(v), np.asarray(dv)
    np.testing.assert_allclose(np.real(np.sum(np.conj(v) * dv, axis=0)), 0, atol=1e-12)
    m = np.argmax(np.abs(v), axis=0)
    np.testing.assert_allclose(np.imag(dv[m, np.arange(5)]), 0, atol=1e-12)


def test_eigvec_derivatives_under_vmap_and_jit() -> None:
    a = np.random.RandomState(3).randn(3, 4, 4).astype(np.float32)

    def one(m: Any) -> Any:
        return tnp.abs(lax.linalg.eig(m, enable_eigvec_derivs=True)[2]).sum()

    batched = trellax.jit(trellax.vmap(trellax.grad(one)))(a)
    looped = np.stack([np.asarray(trellax.grad(one)(m)) for m in a])
    np.testing.assert_allclose(np.asarray(batched), looped, rtol=1e-4, atol=1e-5)


def test_eigvec_derivatives_refused_without_the_flag() -> None:
    with pytest.raises(NotImplementedError, match="enable_eigvec_derivs=True"):
        trellax.jacfwd(lambda m: lax.linalg.eig(m)[2])(tnp.eye(2))
    # eigenvalues alone are differentiable without it
    (w,) = trellax.jvp(
        lambda m: lax.linalg.eig(
            m, compute_left_eigenvectors=False, compute_right_eigenvectors=False
        )[0],
        (tnp.eye(2),),
        (tnp.eye(2),),
    )[1:]
    np.testing.assert_allclose(np.asarray(w), [1, 1])
