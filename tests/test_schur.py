"""The Schur and Hessenberg decompositions (written for trellax: NumPy has neither) on random,
ill-conditioned, degenerate and non-finite matrices: residual ``A = Z T Z^H``, unitarity,
triangular structure, LAPACK's 2x2 block conventions, eigenvalues; and the functions built on
them (``sqrtm``, ``funm``, ``solve_sylvester``, ``rsf2csf``) by their defining equations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.lax.linalg as lax_linalg
import trellax.numpy as tnp
import trellax.scipy.linalg as linalg

RNG = np.random.default_rng(7)


def _matrices() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for n in (1, 2, 3, 5, 8, 17):
        out.append((f"normal{n}", RNG.normal(size=(n, n))))
        out.append((f"complex{n}", RNG.normal(size=(n, n)) + 1j * RNG.normal(size=(n, n))))
    out += [
        ("zeros", np.zeros((4, 4))),
        ("identity", np.eye(5)),
        ("jordan", np.diag(np.ones(4), 1) + 2 * np.eye(5)),
        ("rotation", np.array([[0.0, -1.0], [1.0, 0.0]])),
        ("permutation", np.roll(np.eye(6), 1, 0)),
        ("ones", np.ones((5, 5))),
        ("vandermonde", np.vander(np.linspace(0, 1, 8))),
        ("graded", np.diag([1e-200, 1.0, 1e200]) + np.diag([1.0, 1.0], 1)),
        ("symmetric", (lambda a: a + a.T)(RNG.normal(size=(6, 6)))),
        ("skew", (lambda a: a - a.T)(RNG.normal(size=(6, 6)))),
        ("companion", np.diag(np.ones(5), -1) + np.eye(6)[::-1] * 0.5),
        ("lower", np.tril(RNG.normal(size=(5, 5)))),
    ]
    return out


MATRICES = _matrices()


def _check_schur(a: Any, t: Any, z: Any) -> None:
    n = a.shape[0]
    scale = max(1.0, float(np.abs(a).max()))
    np.testing.assert_allclose(z @ t @ z.conj().T, a, atol=1e-12 * scale * n, rtol=0)
    np.testing.assert_allclose(z.conj().T @ z, np.eye(n), atol=1e-12 * n, rtol=0)
    if np.iscomplexobj(a):
        assert np.all(np.tril(t, -1) == 0)
        return
    assert np.all(np.tril(t, -2) == 0)
    sub = np.diag(t, -1)
    for i, s in enumerate(sub):
        if s != 0:  # a 2x2 block: complex pair, LAPACK's standard form
            assert i + 1 == len(sub) or sub[i + 1] == 0
            assert t[i, i] == t[i + 1, i + 1] and t[i, i + 1] * t[i + 1, i] < 0


@pytest.mark.parametrize(("name", "a"), MATRICES, ids=[m[0] for m in MATRICES])
def test_schur_residual_unitary_structure(name: str, a: Any) -> None:
    with trellax.enable_x64():
        t, z = lax_linalg.schur(tnp.asarray(a))
        _check_schur(a, np.asarray(t), np.asarray(z))
        ev = np.linalg.eigvals(a)
        if np.iscomplexobj(a):
            got = np.diag(np.asarray(t))
        else:
            got = np.linalg.eigvals(np.asarray(t))  # quasi-triangular: the blocks' eigenvalues
        _same_multiset(got, ev, 1e-8 * max(1, abs(ev).max()))


def _same_multiset(got: Any, want: Any, tol: float) -> None:
    """Every eigenvalue matched to a distinct one within ``tol`` (sorting is unstable for
    values whose real parts differ by rounding only)."""
    left = list(got)
    for w in want:
        i = int(np.argmin([abs(g - w) for g in left]))
        assert abs(left[i] - w) <= tol, (w, left)
        left.pop(i)


@pytest.mark.parametrize(("name", "a"), MATRICES, ids=[m[0] for m in MATRICES])
def test_hessenberg_reconstructs(name: str, a: Any) -> None:
    with trellax.enable_x64():
        h, q = linalg.hessenberg(tnp.asarray(a), calc_q=True)
        h, q = np.asarray(h), np.asarray(q)
        n = a.shape[0]
        assert np.all(np.tril(h, -2) == 0)
        np.testing.assert_allclose(q @ h @ q.conj().T, a, atol=1e-12 * n * max(1, np.abs(a).max()))
        np.testing.assert_allclose(q.conj().T @ q, np.eye(n), atol=1e-12 * n)
        if np.iscomplexobj(a):
            assert np.all(np.diag(h, -1).imag == 0)  # LAPACK makes the subdiagonal real


def test_schur_of_nonfinite_input_is_nan() -> None:
    for bad in (np.nan, np.inf):
        a = np.eye(3)
        a[1, 2] = bad
        t, z = lax_linalg.schur(tnp.asarray(a, dtype=tnp.float32))
        assert np.isnan(np.asarray(t)).all() and np.isnan(np.asarray(z)).all()


def test_schur_float32_and_batches() -> None:
    a = RNG.normal(size=(3, 4, 4)).astype(np.float32)
    t, z = lax_linalg.schur(tnp.asarray(a))
    assert t.dtype == tnp.float32 and t.shape == (3, 4, 4) and not t.weak_type
    for i in range(3):
        zi, ti = np.asarray(z[i], np.float64), np.asarray(t[i], np.float64)
        np.testing.assert_allclose(zi @ ti @ zi.T, a[i], atol=1e-4)
    tv, _ = trellax.vmap(lax_linalg.schur)(tnp.asarray(a))
    np.testing.assert_array_equal(np.asarray(tv), np.asarray(t))
    (only_t,) = lax_linalg.schur(tnp.asarray(a), compute_schur_vectors=False)
    np.testing.assert_array_equal(np.asarray(only_t), np.asarray(t))
    tj, _ = trellax.jit(lax_linalg.schur)(tnp.asarray(a))
    np.testing.assert_array_equal(np.asarray(tj), np.asarray(t))


def test_schur_errors() -> None:
    with pytest.raises(ValueError, match="square"):
        lax_linalg.schur(tnp.ones((2, 3)))
    with pytest.raises(TypeError, match="does not accept dtype int32"):
        lax_linalg.schur(tnp.ones((2, 2), dtype=tnp.int32))
    with pytest.raises(NotImplementedError):
        trellax.grad(lambda x: lax_linalg.schur(x)[0].sum())(tnp.eye(2))
    with pytest.raises(NotImplementedError, match="sort"):
        lax_linalg.schur(tnp.eye(2), sort_eig_vals=True)


@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_sqrtm_funm_sylvester_rsf2csf(n: int) -> None:
    a = RNG.normal(size=(n, n)) + n * np.eye(n)
    b = RNG.normal(size=(n + 1, n + 1)) + n * np.eye(n + 1)
    c = RNG.normal(size=(n, n + 1))
    with trellax.enable_x64():
        r = np.asarray(linalg.sqrtm(tnp.asarray(a)))
        np.testing.assert_allclose(r @ r, a, atol=1e-10 * n)
        e = np.asarray(linalg.funm(tnp.asarray(a), tnp.exp))
        np.testing.assert_allclose(e, np.asarray(linalg.expm(tnp.asarray(a))), rtol=1e-9)
        x = np.asarray(linalg.solve_sylvester(tnp.asarray(a), tnp.asarray(b), tnp.asarray(c)))
        assert x.dtype == np.float64
        np.testing.assert_allclose(a @ x + x @ b, c, atol=1e-10 * n)
        t, z = linalg.schur(tnp.asarray(a))
        tc, zc = linalg.rsf2csf(t, z)
        tc, zc = np.asarray(tc), np.asarray(zc)
        assert np.all(np.tril(tc, -1) == 0)
        np.testing.assert_allclose(zc @ tc @ zc.conj().T, a, atol=1e-10 * n)
