"""Edge behaviour of ``trellax.scipy`` and ``trellax.random`` that ``tests/test_edge_sweep.py``
found (issue 24): pivoted QR, one-triangle Cholesky, batched constructors, static sizes,
parameter-shape rules of samplers and the error classes JAX uses. Reference values come from
SciPy (the algorithms JAX mirrors) or from invariants; the JAX outcomes themselves are in
``tests/golden/edge_sweep.json``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as osp_linalg
import scipy.stats as osp_stats

import trellax
import trellax.numpy as tnp
import trellax.random as trandom
import trellax.scipy.linalg as tsl
import trellax.scipy.signal as tss
import trellax.scipy.special as tsp
import trellax.scipy.stats as tst

# -- scipy.linalg ----------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (6, 6)])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_pivoted_qr_matches_lapack_geqp3(shape: tuple[int, int], dtype: Any) -> None:
    rng = np.random.RandomState(sum(shape))
    a = rng.randn(*shape)
    if dtype == np.complex128:
        a = a + 1j * rng.randn(*shape)
    with trellax.enable_x64(True):
        q, r, p = tsl.qr(tnp.asarray(a.astype(dtype)), pivoting=True)
        assert np.asarray(p).dtype == np.int32
    qs, rs, ps = osp_linalg.qr(a, pivoting=True)
    np.testing.assert_array_equal(np.asarray(p), ps)
    np.testing.assert_allclose(np.asarray(q), qs, atol=1e-12)
    np.testing.assert_allclose(np.asarray(r), rs, atol=1e-12)


def test_pivoted_qr_modes_batches_and_jit() -> None:
    a = np.random.RandomState(0).randn(3, 5, 4).astype(np.float32)
    q, r, p = tsl.qr(a, pivoting=True, mode="economic")
    assert q.shape == (3, 5, 4) and r.shape == (3, 4, 4) and p.shape == (3, 4)
    for i in range(3):
        np.testing.assert_allclose(np.asarray(q[i] @ r[i]), a[i][:, np.asarray(p[i])], atol=1e-5)
        d = np.abs(np.diag(np.asarray(r[i])))
        assert np.all(d[:-1] >= d[1:] - 1e-6)  # the pivot rule: non-increasing |diag(r)|
    r_only, p_only = tsl.qr(a[0], pivoting=True, mode="r")
    assert r_only.shape == (5, 4)  # mode='r' is the full (m, n) factor, as SciPy's
    np.testing.assert_array_equal(np.asarray(p_only), np.asarray(p[0]))
    jq, jr, jp = trellax.jit(lambda x: tsl.qr(x, pivoting=True))(a[0])
    np.testing.assert_allclose(np.asarray(jq @ jr), a[0][:, np.asarray(jp)], atol=1e-5)
    q0, r0, p0 = tsl.qr(np.zeros((0, 2, 2), np.float32), pivoting=True)
    assert (q0.shape, r0.shape, p0.shape) == ((0, 2, 2), (0, 2, 2), (0, 2))


@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_reads_one_triangle_as_scipy(lower: bool) -> None:
    a = np.array([[4.0, 1.0], [3.0, 5.0]])  # not symmetric: the triangles disagree
    with trellax.enable_x64(True):
        got = tsl.cholesky(tnp.asarray(a), lower=lower)
        c, low = tsl.cho_factor(tnp.asarray(a), lower=lower)
    np.testing.assert_allclose(np.asarray(got), osp_linalg.cholesky(a, lower=lower))
    np.testing.assert_allclose(np.asarray(c), np.asarray(got))
    assert low is lower


def test_eigh_symmetrizes_its_input_as_jax() -> None:
    a = np.array([[1.0, 0.125], [0.25, 1.375]], np.float32)
    w = np.asarray(tsl.eigh(a, eigvals_only=True))
    np.testing.assert_allclose(w, np.linalg.eigvalsh((a + a.T) / 2), rtol=1e-6)


@pytest.mark.parametrize("name", ["hilbert", "dft", "helmert", "pascal", "invpascal", "invhilbert"])
def test_static_sizes_refuse_arrays(name: str) -> None:
    with pytest.raises(ValueError, match="static Python int"):
        getattr(tsl, name)(tnp.asarray(3))
    with pytest.raises(ValueError, match="static Python int"):
        getattr(tsl, name)(np.asarray(3))
    assert getattr(tsl, name)(np.int64(3)).shape[-1] == 3


def test_constructor_sizes() -> None:
    with pytest.raises(TypeError, match="non-negative"):
        tsl.hilbert(-1)
    assert tsl.invhilbert(-1).shape == (0, 0)
    with pytest.raises(ValueError, match="power of 2"):
        tsl.hadamard(2.5)
    assert tsl.hadamard(True).shape == (1, 1)


def test_batched_leslie_and_fiedler_companion() -> None:
    f = np.arange(6, dtype=np.float32).reshape(2, 3) + 1
    s = np.array([[0.5, 0.25], [0.75, 0.1]], np.float32)
    out = np.asarray(tsl.leslie(f, s))
    for i in range(2):
        np.testing.assert_allclose(out[i], osp_linalg.leslie(f[i], s[i]))
    np.testing.assert_allclose(np.asarray(tsl.leslie(f[0], s))[1], osp_linalg.leslie(f[0], s[1]))
    with pytest.raises(ValueError, match="at least 2"):
        tsl.leslie(np.ones(1), np.ones(0))
    coeffs = np.array([[1.0, -6.0, 11.0, -6.0, 2.0], [2.0, 1.0, -3.0, 4.0, 1.0]])
    with trellax.enable_x64(True):
        fc = np.asarray(tsl.fiedler_companion(tnp.asarray(coeffs)))
    for i in range(2):
        np.testing.assert_allclose(fc[i], osp_linalg.fiedler_companion(coeffs[i]))
    assert tsl.fiedler_companion(np.float32(2)).shape == (0, 0)  # a constant polynomial
    with pytest.raises(ValueError, match="nonzero length"):
        tsl.fiedler_companion(np.zeros(0, np.float32))


def test_fiedler_companion_eigenvalues_are_roots() -> None:
    a = np.array([1.0, -10.0, 35.0, -50.0, 24.0])  # roots 1, 2, 3, 4
    with trellax.enable_x64(True):
        m = np.asarray(tsl.fiedler_companion(tnp.asarray(a)))
    np.testing.assert_allclose(np.sort(np.linalg.eigvals(m).real), [1, 2, 3, 4], atol=1e-9)


def test_shape_checks_of_tridiagonal_lu_solve_and_polar() -> None:
    v = np.array([0.5, -1.5, 2.0], np.float32)
    with pytest.raises(TypeError, match="e must have shape"):
        tsl.eigh_tridiagonal(v, np.ones(3, np.float32))
    with pytest.raises(ValueError, match="e must have shape"):
        tsl.eigh_tridiagonal(v, np.ones((2, 2), np.float32))
    with pytest.raises(IndexError):
        tsl.eigh_tridiagonal(np.float32(1), np.ones(0, np.float32))
    with pytest.raises(TypeError, match="same dtype"):
        tsl.eigh_tridiagonal(v, np.ones(2, np.float16))
    lu = tsl.lu_factor(np.eye(2, dtype=np.float32))
    with pytest.raises(ValueError, match="2 rows"):
        tsl.lu_solve(lu, v)
    with pytest.raises(NotImplementedError, match="qdwh"):
        tsl.polar(np.ones((2, 3), np.float32))
    u, p = tsl.polar(np.ones((2, 3), np.float32), method="svd")
    assert u.shape == (2, 3) and p.shape == (3, 3)


def test_hessenberg_and_rsf2csf_edges() -> None:
    assert tsl.hessenberg(np.zeros((3, 0), np.float32)).shape == (3, 0)
    t = np.array([[[1.0, 2.0], [-3.0, 1.0]], [[2.0, 0.0], [0.0, 3.0]]], np.float32)
    z = np.broadcast_to(np.eye(2, dtype=np.float32), t.shape)
    tb, zb = tsl.rsf2csf(t, z)
    for i in range(2):
        t1, z1 = tsl.rsf2csf(t[i], z[i])
        np.testing.assert_allclose(np.asarray(tb[i]), np.asarray(t1))
        np.testing.assert_allclose(np.asarray(zb[i]), np.asarray(z1))
    te, ze = tsl.rsf2csf(np.zeros((0, 2, 2), np.float32), np.zeros((0, 2, 2), np.float32))
    assert te.shape == ze.shape == (0, 2, 2) and te.dtype == np.complex64


# -- scipy.signal, special, stats ----------------------------------------------------------------


def test_csd_rank_and_empty_rules() -> None:
    with pytest.raises(ValueError, match="same rank"):
        tss.csd(np.zeros(0, np.float32), np.float32(0.5))
    with pytest.raises(ValueError, match="same rank"):
        tss.csd(np.ones((2, 8), np.float32), np.ones(8, np.float32))
    f, pxy = tss.csd(np.ones(3, np.float32), np.zeros(0, np.float32))
    assert f.shape == pxy.shape == (0,) and pxy.dtype == np.complex64


def test_special_argument_rules() -> None:
    np.testing.assert_allclose(np.asarray(tsp.bernoulli(tnp.asarray(3))), [1, -0.5, 1 / 6, 0])
    with pytest.raises(TypeError):
        tsp.bernoulli(2.0)
    with pytest.raises(TypeError, match="integers"):
        tsp.sph_harm_y(0.5, 0, np.float32(0.5), np.float32(0.5))
    out = tsp.multigammaln(np.array([np.inf, 2.0], np.float32), 0)
    np.testing.assert_array_equal(np.asarray(out), [0.0, 0.0])
    assert not out.weak_type
    for d in (2.5, -1):
        with pytest.raises(ValueError, match="non-negative integer"):
            tsp.multigammaln(np.float32(3), d)


def test_stats_edges() -> None:
    q = tst.bernoulli.ppf(np.float16(0.5), np.float16(0.5))
    assert q.dtype == np.float16 and not q.weak_type
    assert np.isnan(np.asarray(tst.bernoulli.ppf(np.float32(np.nan), np.float32(0.5))))
    x = np.array([0.5, -1.5, 2.0], np.float32)
    got = tst.multivariate_normal.logpdf(x, np.float32(0.5), np.float32(2.0))
    np.testing.assert_allclose(np.asarray(got), osp_stats.norm.logpdf(x, 0.5, np.sqrt(2)), 1e-6)
    empty = tst.multivariate_normal.logpdf(np.zeros((4, 0)), np.zeros(0), np.zeros((0, 0)))
    np.testing.assert_array_equal(np.asarray(empty), np.zeros(4))


# -- random --------------------------------------------------------------------------------------


def test_sampler_parameter_shapes() -> None:
    k = trandom.PRNGKey(0)
    assert trandom.dirichlet(k, np.zeros((3, 0), np.float32)).shape == (3, 0)
    assert trandom.dirichlet(k, np.ones(3, np.float32), (2, 0)).shape == (2, 0, 3)
    assert trandom.multivariate_normal(k, np.zeros(0), np.zeros((0, 0)), (3,)).shape == (3, 0)
    loc = np.array([0.5, -1.5, 2.0], np.float32)
    # shape is prepended to the parameters' shape; () adds nothing (JAX doubles it: semantics.md)
    assert trandom.double_sided_maxwell(k, loc, 1.0, (2,)).shape == (2, 3)
    assert trandom.double_sided_maxwell(k, loc, 1.0).shape == (3,)
    with pytest.raises(TypeError, match="must be an array or a scalar"):
        trandom.weibull_min(k, 1.0, (3,))
    with pytest.raises(TypeError, match="shape"):
        trandom.generalized_normal(k, 2.0, None)


def test_uniform_bound_shapes_and_choice_axis() -> None:
    k = trandom.PRNGKey(0)
    v = np.array([0.5, -1.5, 2.0], np.float32)
    with pytest.raises(TypeError, match="incompatible shapes"):
        trandom.uniform(k, (0,), minval=v)
    with pytest.raises(TypeError, match="incompatible shapes"):
        trellax.jit(lambda kk: trandom.uniform(kk, (2,), minval=v))(k)
    with pytest.raises(ValueError, match="more dimensions"):
        trandom.uniform(k, (), minval=v)
    assert trandom.uniform(k, (2, 3), minval=v).shape == (2, 3)
    m = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    with pytest.raises(ValueError, match="out of bounds"):
        trandom.choice(k, m, (1,), axis=2)
    assert trandom.choice(k, m, (1,), axis=-1).shape == (2, 1)


def test_qr_multiply_with_pivoting() -> None:
    a = np.random.RandomState(3).randn(4, 3).astype(np.float32)
    c = np.random.RandomState(4).randn(2, 4).astype(np.float32)
    out, r, p = tsl.qr_multiply(a, c, pivoting=True)
    q, r2, p2 = tsl.qr(a, pivoting=True, mode="economic")
    np.testing.assert_array_equal(np.asarray(p), np.asarray(p2))
    np.testing.assert_allclose(np.asarray(r), np.asarray(r2))
    np.testing.assert_allclose(np.asarray(out), c @ np.asarray(q), atol=1e-6)
    # half precision: computed in float32 and rounded back, as every trellax decomposition
    qh, rh, ph = tsl.qr(a.astype(np.float16), pivoting=True)
    assert qh.dtype == rh.dtype == np.float16 and ph.dtype == np.int32
