"""Linear algebra: products (``tensordot``, ``einsum``, ``kron``, ``cross``, ``vecdot``...) and
``trellax.numpy.linalg``: dtypes and weak flags (observed on JAX 0.10.2), values against NumPy in
float64, errors, and ``jit``.

Deliberate difference, tested here: float16/bfloat16 decompositions compute in float32 and
return the input dtype (JAX's CPU backend raises NotImplementedError).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.dtypes import TypePromotionError

LA = tnp.linalg
rng = np.random.default_rng(7)
A = rng.standard_normal((4, 4))
SPD = A @ A.T + 4 * np.eye(4)
B3 = rng.standard_normal((2, 3, 3))
C = A + 1j * rng.standard_normal((4, 4))
HPD = C @ C.conj().T + 4 * np.eye(4)
R = rng.standard_normal((5, 3))
b = rng.standard_normal(4)


def t(x: Any, dtype: str = "float32") -> Any:
    d = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    return tnp.asarray(np.asarray(x).astype(d))


def close(got: Any, want: Any, tol: float = 2e-4) -> None:
    got = np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


# -- dtypes (JAX's, x32 / x64) ------------------------------------------------------------------------


def W() -> Any:
    """A weakly typed matrix of the default float (like a jit argument made from Python floats)."""
    return lax.convert_element_type(SPD, float, weak_type=True)


DTYPES: list[tuple[str, Callable[[], Any], str, str]] = [
    ("inv(i32)", lambda: LA.inv(t(SPD.round(), "int32")), "float32", "float32"),
    ("inv(bool)", lambda: LA.inv(t(np.eye(3), "bool")), "float32", "float32"),
    ("inv(f16)", lambda: LA.inv(t(SPD, "float16")), "float16", "float16"),
    ("inv(bf16)", lambda: LA.inv(t(SPD, "bfloat16")), "bfloat16", "bfloat16"),
    ("inv(c64)", lambda: LA.inv(t(HPD, "complex64")), "complex64", "complex64"),
    ("inv(weak)", lambda: LA.inv(W()), "float32", "float64"),
    ("det(i32)", lambda: LA.det(t(SPD.round(), "int32")), "float32", "float32"),
    ("det(weak)", lambda: LA.det(W()), "float32", "float64"),
    ("slogdet(c64).sign", lambda: LA.slogdet(t(HPD, "complex64")).sign, "complex64", "complex64"),
    ("slogdet(c64).logabsdet", lambda: LA.slogdet(t(HPD, "complex64")).logabsdet, "float32", "float32"),
    ("eigh(c64).eigenvalues", lambda: LA.eigh(t(HPD, "complex64")).eigenvalues, "float32", "float32"),
    ("eigh(c64).eigenvectors", lambda: LA.eigh(t(HPD, "complex64")).eigenvectors, "complex64", "complex64"),
    ("eigh(i32)", lambda: LA.eigh(t(SPD.round(), "int32")).eigenvalues, "float32", "float32"),
    ("eig(f32)", lambda: LA.eig(t(A)).eigenvalues, "complex64", "complex64"),
    ("eigvals(i32)", lambda: LA.eigvals(t(A.round(), "int32")), "complex64", "complex64"),
    ("qr(i32).R", lambda: LA.qr(t(A.round(), "int32")).R, "float32", "float32"),
    ("svd(c64).S", lambda: LA.svd(t(C, "complex64")).S, "float32", "float32"),
    ("svd(c64).U", lambda: LA.svd(t(C, "complex64")).U, "complex64", "complex64"),
    ("svdvals(i32)", lambda: LA.svdvals(t(A.round(), "int32")), "float32", "float32"),
    ("solve(f16, f32)", lambda: LA.solve(t(SPD, "float16"), t(b)), "float32", "float32"),
    ("lstsq(i32).x", lambda: LA.lstsq(t(R.round(), "int32"), t(R[:, 0].round(), "int32"))[0], "float32", "float32"),
    ("lstsq rank", lambda: LA.lstsq(t(R), t(R[:, 0]))[2], "int32", "int64"),
    ("pinv(weak)", lambda: LA.pinv(W()), "float32", "float64"),
    ("matrix_rank", lambda: LA.matrix_rank(t(A)), "int32", "int64"),
    ("matrix_power(i32, 3)", lambda: LA.matrix_power(t(A.round(), "int32"), 3), "int32", "int32"),
    ("matrix_power(i32, -1)", lambda: LA.matrix_power(t(SPD.round(), "int32"), -1), "float32", "float32"),
    ("matrix_power(bool, 2)", lambda: LA.matrix_power(t(np.eye(3), "bool"), 2), "bool", "bool"),
    ("matrix_power(i8, 0)", lambda: LA.matrix_power(t(A.round(), "int8"), 0), "int8", "int8"),
    ("norm(i32)", lambda: LA.norm(t(b.round(), "int32")), "float32", "float32"),
    ("norm(f16)", lambda: LA.norm(t(b, "float16")), "float16", "float16"),
    ("norm(c64)", lambda: LA.norm(t(C, "complex64")), "float32", "float32"),
    ("norm(weak)", lambda: LA.norm(W()), "float32", "float64"),
    ("vector_norm(bool)", lambda: LA.vector_norm(t([True, False], "bool")), "float32", "float32"),
    ("matrix_norm(nuc)", lambda: LA.matrix_norm(t(A), ord="nuc"), "float32", "float32"),
    ("cond", lambda: LA.cond(t(A)), "float32", "float32"),
    ("trace(i8)", lambda: LA.trace(t(A.round(), "int8")), "int32", "int64"),
    ("trace(i8, dtype=i8)", lambda: LA.trace(t(A.round(), "int8"), dtype="int8"), "int8", "int8"),
    ("diagonal(weak)", lambda: LA.diagonal(W()), "float32", "float64"),
    ("cond(weak, fro)", lambda: LA.cond(W(), "fro"), "float32", "float64"),
    ("lstsq(weak).x", lambda: LA.lstsq(W(), W())[0], "float32", "float64"),
    ("slogdet(weak)", lambda: LA.slogdet(W())[1], "float32", "float64"),
    ("matrix_power(wf, 0)", lambda: LA.matrix_power(W(), 0), "float32", "float64"),
    ("tensordot(i8, u8)", lambda: tnp.tensordot(t(b, "int8"), t(b, "uint8"), 1), "int16", "int16"),
    ("einsum(i8, f16)", lambda: tnp.einsum("i,i", t(b, "int8"), t(b, "float16")), "float16", "float16"),
    ("einsum pet", lambda: tnp.einsum("i,i", t(b, "int8"), t(b, "int8"), preferred_element_type="int32"), "int32", "int32"),
    ("einsum(bool)", lambda: tnp.einsum("i->", t([1, 1], "bool")), "bool", "bool"),
    ("cross(i8, f16)", lambda: tnp.cross(t([1, 2, 3], "int8"), t([1, 0, 0], "float16")), "float16", "float16"),
    ("matvec(i8, f16)", lambda: tnp.matvec(t(A, "int8"), t(b, "float16")), "float16", "float16"),
    ("vecmat(i8, i32)", lambda: tnp.vecmat(t(b, "int8"), t(A, "int32")), "int32", "int32"),
    ("vecdot(i8, i8)", lambda: tnp.vecdot(t(b, "int8"), t(b, "int8")), "int8", "int8"),
    ("vecdot(bool)", lambda: tnp.vecdot(t([1, 0], "bool"), t([1, 1], "bool")), "bool", "bool"),
    ("kron(i8, i8)", lambda: tnp.kron(t(b, "int8"), t(b, "int8")), "int8", "int8"),
    ("linalg.outer(i8, u8)", lambda: LA.outer(t(b, "int8"), t(b, "uint8")), "int16", "int16"),
]  # fmt: skip

WEAK: list[tuple[str, Callable[[], Any], str, str]] = [
    ("einsum(wf, wf)", lambda: tnp.einsum("i,i", tnp.full((3,), 2.0), tnp.full((3,), 2.0)), "float32", "float64"),
    ("einsum(wf, i8)", lambda: tnp.einsum("i,i->i", tnp.full((3,), 2.0), t([1, 2, 3], "int8")), "float32", "float64"),
    ("kron(i8, wf)", lambda: tnp.kron(t([1, 2], "int8"), tnp.full((2,), 2.0)), "float32", "float64"),
    ("vecdot(wf, wf)", lambda: tnp.vecdot(tnp.full((3,), 2.0), tnp.full((3,), 2.0)), "float32", "float64"),
    ("linalg.outer(i8, wf)", lambda: LA.outer(t([1, 2], "int8"), tnp.full((3,), 2.0)), "float32", "float64"),
    ("matrix_power(wf, 1)", lambda: LA.matrix_power(W(), 1), "float32", "float64"),
    ("matrix_transpose(weak)", lambda: LA.matrix_transpose(W()), "float32", "float64"),
    ("eig(weak)", lambda: LA.eig(W()).eigenvectors, "complex64", "complex128"),
    ("cholesky(weak)", lambda: LA.cholesky(W()), "float32", "float64"),
    ("det(weak 3x3)", lambda: LA.det(W()[:3, :3]), "float32", "float64"),
    ("svdvals(weak)", lambda: LA.svdvals(W()), "float32", "float64"),
    ("solve(weak, weak)", lambda: LA.solve(W(), W()), "float32", "float64"),
    ("cond(weak)", lambda: LA.cond(W()), "float32", "float64"),
    ("lstsq(weak).s", lambda: LA.lstsq(W(), W())[3], "float32", "float64"),
    ("matrix_power(wf, 3)", lambda: LA.matrix_power(W(), 3), "float32", "float64"),
]  # fmt: skip


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize(
    "desc, thunk, x32, x64_dtype", DTYPES + WEAK, ids=[d[0] for d in DTYPES + WEAK]
)
def test_dtypes(desc: str, thunk: Any, x32: str, x64_dtype: str, x64: bool) -> None:
    weak = any(desc == w[0] for w in WEAK)
    with trellax.enable_x64(x64):
        out = thunk()
    want = (
        np.dtype(ml_dtypes.bfloat16) if x32 == "bfloat16" else np.dtype(x64_dtype if x64 else x32)
    )
    assert (out.dtype, out.weak_type) == (want, weak)


@pytest.mark.parametrize(
    "thunk",
    [
        lambda: LA.solve(t(A, "float16"), t(b, "bfloat16")),
        lambda: tnp.einsum("i,i", t(b, "int8"), t(b, "float16")),
        lambda: tnp.tensordot(t(b, "int8"), t(b, "uint8"), 1),
        lambda: tnp.kron(t(b, "int8"), t(b, "int16")),
    ],
)
def test_strict_mode_refuses_mixed_operands(thunk: Any) -> None:
    with trellax.numpy_dtype_promotion("strict"), pytest.raises(TypePromotionError):
        thunk()


# -- values against NumPy (float64 inputs under x64, float32 otherwise) ----------------------------


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_decompositions_match_numpy(x64: bool) -> None:
    tol = 1e-10 if x64 else 2e-4
    dt = "float64" if x64 else "float32"
    with trellax.enable_x64(x64):
        close(LA.inv(t(A, dt)), np.linalg.inv(A), tol)
        close(LA.inv(t(B3, dt)), np.linalg.inv(B3), tol)
        close(LA.det(t(B3, dt)), np.linalg.det(B3), tol)
        sign, logdet = LA.slogdet(t(A, dt))
        close(sign, np.linalg.slogdet(A)[0], tol)
        close(logdet, np.linalg.slogdet(A)[1], tol)
        close(LA.cholesky(t(SPD, dt)), np.linalg.cholesky(SPD), tol)
        close(LA.cholesky(t(SPD, dt), upper=True), np.linalg.cholesky(SPD).T, tol)
        w, v = LA.eigh(t(SPD, dt))
        close(w, np.linalg.eigh(SPD)[0], tol)
        close(np.asarray(v) @ np.diag(np.asarray(w)) @ np.asarray(v).T, SPD, 1e3 * tol)
        close(
            LA.eigvalsh(t(HPD, "complex128" if x64 else "complex64")),
            np.linalg.eigvalsh(HPD),
            1e2 * tol,
        )
        close(
            np.sort_complex(np.asarray(LA.eigvals(t(A, dt)))),
            np.sort_complex(np.linalg.eigvals(A)),
            tol,
        )
        w, v = LA.eig(t(A, dt))
        close(np.asarray(v) @ np.diag(np.asarray(w)), A @ np.asarray(v), 10 * tol)
        q, r = LA.qr(t(R, dt))
        close(np.asarray(q) @ np.asarray(r), R, tol)
        assert LA.qr(t(R, dt), mode="complete").Q.shape == (5, 5)
        assert LA.qr(t(R, dt), mode="r").shape == (3, 3)
        u, s, vh = LA.svd(t(R, dt), full_matrices=False)
        close(s, np.linalg.svd(R, compute_uv=False), tol)
        close(np.asarray(u) @ np.diag(np.asarray(s)) @ np.asarray(vh), R, tol)
        assert LA.svd(t(R, dt)).U.shape == (5, 5)
        close(LA.svdvals(t(B3, dt)), np.linalg.svd(B3, compute_uv=False), tol)
        close(LA.solve(t(A, dt), t(b, dt)), np.linalg.solve(A, b), 10 * tol)
        close(
            LA.solve(t(B3, dt), t(b[:3], dt)),
            np.linalg.solve(B3, b[None, :3, None])[..., 0],
            10 * tol,
        )
        close(LA.solve(t(B3, dt), t(B3, dt)), np.linalg.solve(B3, B3), 10 * tol)
        close(LA.pinv(t(R, dt)), np.linalg.pinv(R), tol)
        close(LA.pinv(t(B3, dt)), np.linalg.pinv(B3), 10 * tol)
        assert int(LA.matrix_rank(t(np.ones((3, 3)), dt))) == 1
        close(LA.matrix_rank(t(B3, dt)), np.linalg.matrix_rank(B3), 0)
        close(LA.matrix_power(t(A, dt), 3), np.linalg.matrix_power(A, 3), 10 * tol)
        close(LA.matrix_power(t(A, dt), -2), np.linalg.matrix_power(A, -2), 100 * tol)
        close(LA.matrix_power(t(A, dt), 0), np.eye(4), 0)
        x, resid, rank, sv = LA.lstsq(t(R, dt), t(R @ [1.0, 2.0, 3.0] + 0.1, dt))
        wx, wres, wrank, wsv = np.linalg.lstsq(R, R @ [1.0, 2.0, 3.0] + 0.1, rcond=None)
        close(x, wx, 10 * tol)
        close(resid, wres, 10 * tol)
        assert int(rank) == wrank
        close(sv, wsv, tol)
        close(LA.cond(t(A, dt)), np.linalg.cond(A), 100 * tol)
        close(LA.cond(t(A, dt), 1), np.linalg.cond(A, 1), 100 * tol)
        close(
            LA.multi_dot([t(A, dt), t(A, dt), t(b, dt)]), np.linalg.multi_dot([A, A, b]), 10 * tol
        )


def test_float16_decompositions_compute_in_float32() -> None:
    got = LA.inv(t(SPD, "float16"))
    assert got.dtype == np.float16
    close(
        np.asarray(got, np.float64), np.linalg.inv(SPD.astype(np.float16).astype(np.float64)), 2e-3
    )
    assert LA.eigh(t(SPD, "bfloat16")).eigenvalues.dtype == ml_dtypes.bfloat16


@pytest.mark.parametrize("ord", [None, 0, 1, -1, 2, 3, np.inf, -np.inf])
def test_vector_norms(ord: Any) -> None:
    close(LA.norm(t(b), ord=ord), np.linalg.norm(b, ord=ord))
    close(LA.vector_norm(t(B3), ord=2 if ord is None else ord, axis=(0, 2), keepdims=True),
          np.linalg.norm(B3.transpose(1, 0, 2).reshape(3, -1), ord=2 if ord is None else ord, axis=1).reshape(1, 3, 1))  # fmt: skip
    close(LA.norm(t(C, "complex64"), ord=ord, axis=1), np.linalg.norm(C, ord=ord, axis=1))


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
def test_matrix_norms(ord: Any) -> None:
    close(LA.norm(t(A), ord=ord), np.linalg.norm(A, ord=ord))
    close(LA.norm(t(B3), ord=ord, axis=(2, 1), keepdims=True),
          np.linalg.norm(B3, ord=ord, axis=(2, 1), keepdims=True))  # fmt: skip
    close(
        LA.matrix_norm(t(B3), ord="fro" if ord is None else ord),
        np.linalg.norm(B3, ord=ord, axis=(-2, -1)),
    )


def test_diagonal_trace_transpose_outer_cross() -> None:
    for off in (-2, -1, 0, 1, 3, 5):
        close(LA.diagonal(t(B3), offset=off), np.diagonal(B3, off, -2, -1))
        close(LA.trace(t(B3), offset=off), np.trace(B3, off, axis1=-2, axis2=-1))
    close(LA.matrix_transpose(t(B3)), B3.transpose(0, 2, 1))
    close(tnp.matrix_transpose(t(B3)), B3.transpose(0, 2, 1))
    close(LA.outer(t(b), t(b[:2])), np.outer(b, b[:2]))
    close(LA.cross(t(B3), t(B3[:1, ::-1]), axis=-1), np.cross(B3, B3[:1, ::-1]))


def test_values_of_behaviour_that_cannot_raise() -> None:
    assert np.isinf(np.asarray(LA.inv(t([[1.0, 2.0], [2.0, 4.0]])))).all()
    assert np.isnan(np.asarray(LA.cholesky(t([[1.0, 2.0], [2.0, 1.0]])))).any()
    sign, logdet = LA.slogdet(t(np.zeros((2, 2))))
    assert (float(sign), float(logdet)) == (0.0, -np.inf)
    assert LA.det(t(np.ones((2, 0, 0)))).tolist() == [1.0, 1.0]
    x, _, _, _ = LA.lstsq(t([[1.0, 0.0], [0.0, 0.0]]), t([1.0, 1.0]))
    close(x, [1.0, 0.0])


# -- products ----------------------------------------------------------------------------------------

EINSUMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("ij->ji", [(2, 3)]),
    ("ij", [(2, 3)]),
    ("ji", [(2, 3)]),
    ("i,j", [(2,), (3,)]),
    ("i->", [(4,)]),
    ("iij->j", [(2, 2, 3)]),
    ("...ij,...jk->...ik", [(5, 2, 3), (3, 2)]),
    ("bij,bjk->bik", [(4, 2, 3), (4, 3, 5)]),
    ("ijk,jl,lk->i", [(2, 3, 4), (3, 5), (5, 4)]),
    ("i,i,i->", [(3,), (3,), (3,)]),
    ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 3), (3, 3, 3, 3), (2, 3), (2, 3)]),
]


@pytest.mark.parametrize("optimize", ["auto", False, "optimal"])
@pytest.mark.parametrize("subscripts, shapes", EINSUMS, ids=[e[0] for e in EINSUMS])
def test_einsum_matches_numpy(
    subscripts: str, shapes: list[tuple[int, ...]], optimize: Any
) -> None:
    ops = [rng.standard_normal(s) for s in shapes]
    got = tnp.einsum(subscripts, *[t(o) for o in ops], optimize=optimize)
    close(got, np.einsum(subscripts, *ops))


def test_einsum_explicit_paths_and_einsum_path() -> None:
    ops = [rng.standard_normal(s) for s in [(2, 3), (3, 4), (4, 5)]]
    want = np.einsum("ij,jk,kl->il", *ops)
    close(tnp.einsum("ij,jk,kl->il", *[t(o) for o in ops], optimize=[(0, 1, 2)]), want)
    path, text = tnp.einsum_path("ij,jk,kl->il", *[t(o) for o in ops])
    assert path[0] == "einsum_path" and "Optimized" in text
    close(tnp.einsum("ij,jk,kl->il", *[t(o) for o in ops], optimize=path), want)


@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors:DeprecationWarning")
def test_other_products_match_numpy() -> None:
    x, y = rng.standard_normal((2, 3, 4)), rng.standard_normal((4, 3, 2))
    close(
        tnp.tensordot(t(x), t(y), axes=([1, 2], [1, 0])), np.tensordot(x, y, axes=([1, 2], [1, 0]))
    )
    close(tnp.tensordot(t(x), t(y), axes=0), np.tensordot(x, y, axes=0))
    close(tnp.tensordot(t(A), t(A)), np.tensordot(A, A))
    close(tnp.kron(t(A[:2, :3]), t(B3)), np.kron(A[:2, :3], B3))
    for u, v in [([1, 2], [3, 4]), ([1, 2], [3, 4, 5]), ([1, 2, 3], [3, 4]), (B3[0], B3[1])]:
        close(tnp.cross(t(u), t(v)), np.cross(u, v))
    close(
        tnp.cross(t(B3), t(B3[::-1]), axisa=1, axisb=1, axisc=0),
        np.cross(B3, B3[::-1], axisa=1, axisb=1, axisc=0),
    )
    close(tnp.matvec(t(B3), t(B3[0, 0])), np.matvec(B3, B3[0, 0]))
    cz = C[:3, :3]
    close(tnp.vecmat(t(cz[0], "complex64"), t(cz, "complex64")), np.vecmat(cz[0], cz))
    close(
        tnp.vecdot(t(cz, "complex64"), t(cz[::-1], "complex64"), axis=0),
        np.vecdot(cz, cz[::-1], axis=0),
    )
    assert t(A).dot(t(b)).shape == (4,)


# -- errors --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "thunk, exc, words",
    [
        (lambda: LA.inv(tnp.ones((2, 3))), ValueError, r"\[..., n, n\]"),
        (lambda: LA.det(tnp.ones((2, 3))), ValueError, r"\[..., n, n\]"),
        (lambda: LA.inv(tnp.ones(3)), ValueError, r"\[..., n, n\]"),
        (lambda: LA.cholesky(tnp.ones((2, 3))), ValueError, "shape"),
        (lambda: LA.eigh(tnp.ones((2, 3))), ValueError, "shape"),
        (lambda: LA.eigh(tnp.eye(2), UPLO="X"), ValueError, "UPLO"),
        (lambda: LA.solve(tnp.eye(3), tnp.ones(4)), ValueError, "solve"),
        (lambda: LA.solve(tnp.ones((2, 3, 3)), tnp.ones((2, 3))), ValueError, "solve"),
        (lambda: LA.qr(tnp.eye(2), mode="bogus"), ValueError, "mode"),
        (lambda: LA.matrix_power(tnp.eye(2), 1.5), TypeError, "integer"),
        # JAX 0.10.2's classes for arguments of the wrong rank, and for arrays given where its
        # arguments are static (unhashable: a ValueError)
        (lambda: LA.cholesky(tnp.ones(3)), TypeError, "rank at least 2"),
        (lambda: LA.svdvals(tnp.ones(3)), TypeError, "rank at least 2"),
        (lambda: LA.solve(tnp.eye(3), 1.0), ValueError, "solve"),
        (lambda: LA.lstsq(tnp.eye(3), 1.0), IndexError, "lstsq"),
        (lambda: LA.cross(tnp.ones((2, 3)), 1.0), IndexError, "cross"),
        (lambda: LA.svd(tnp.eye(2), tnp.asarray(True)), ValueError, "Non-hashable"),
        (lambda: LA.matrix_power(tnp.eye(2), tnp.asarray(2)), ValueError, "Non-hashable"),
        (lambda: LA.eigh(tnp.eye(2), ["L"]), ValueError, "Non-hashable"),
        (lambda: LA.norm(tnp.ones((2, 2)), ord="fro", axis=0), ValueError, "vector norm"),
        (lambda: LA.norm(tnp.ones((2, 2, 2)), ord=2), ValueError, "dimensions"),
        (lambda: LA.matrix_norm(tnp.ones((2, 2)), ord=3), ValueError, "matrix norm"),
        (lambda: LA.outer(tnp.ones((2, 2)), tnp.ones(2)), ValueError, "one-dimensional"),
        (lambda: LA.cross(tnp.ones(2), tnp.ones(2)), ValueError, "3-dimensional"),
        (lambda: LA.lstsq(tnp.ones(3), tnp.ones(3)), TypeError, "two-dimensional"),
        (lambda: tnp.cross(tnp.ones(4), tnp.ones(4)), ValueError, "2 or 3"),
        (lambda: tnp.cross(tnp.asarray([True] * 3), tnp.asarray([True] * 3)), TypeError, "bool"),
        (lambda: tnp.einsum("ij,jk", tnp.ones((2, 3)), tnp.ones((2, 3))), ValueError, "label 'j'"),
        (lambda: tnp.einsum("ij,j", tnp.ones((2, 3))), ValueError, "operand"),
        (lambda: tnp.einsum("ij->k", tnp.ones((2, 3))), ValueError, "output label"),
        (
            lambda: tnp.tensordot(tnp.ones((2, 3)), tnp.ones((2, 3)), axes=3),
            TypeError,
            "exceeds input ranks",
        ),
        (lambda: tnp.tensordot(tnp.ones((2, 3)), tnp.ones((3, 2))), TypeError, "tensordot"),
        (lambda: tnp.vecdot(tnp.ones(3), tnp.ones(4)), ValueError, "size"),
        (lambda: tnp.matvec(tnp.ones(3), tnp.ones(3)), ValueError, "2-D"),
        (
            lambda: lax.linalg.inv(tnp.eye(2, dtype=int)),
            TypeError,
            "inv does not accept dtype int32",
        ),
        (
            lambda: lax.linalg.solve(tnp.eye(2), tnp.ones((2, 1), dtype="float16")),
            TypeError,
            "same dtypes",
        ),
    ],
)
def test_errors(thunk: Any, exc: type[Exception], words: str) -> None:
    with pytest.raises(exc, match=words):
        thunk()


# -- the lax.linalg primitives and jit --------------------------------------------------------------


def test_lax_linalg_primitives() -> None:
    a = t(SPD)
    _, w = lax.linalg.eigh(a)
    close(w, np.linalg.eigh(SPD)[0])
    x = lax.linalg.triangular_solve(
        lax.linalg.cholesky(a), t(np.eye(4)), left_side=True, lower=True
    )
    close(x, np.linalg.inv(np.linalg.cholesky(SPD)))
    x = lax.linalg.triangular_solve(
        t(np.triu(A)), t(A), left_side=False, lower=False, transpose_a=True
    )
    close(x @ t(np.triu(A)).T, A, 1e-3)
    s = lax.linalg.svd(a, compute_uv=False)
    close(s, np.linalg.svd(SPD, compute_uv=False))
    assert lax.linalg.inv(tnp.full((2, 2), 1.0) + tnp.eye(2)).weak_type is False


JIT_CASES: dict[str, Callable[[Any], Any]] = {
    "inv": LA.inv,
    "det": LA.det,
    "slogdet": LA.slogdet,
    "cholesky": lambda x: LA.cholesky(x @ x.T + 4 * tnp.eye(4)),
    "eigh": lambda x: LA.eigh(x @ x.T),
    "eig": LA.eig,
    "qr": LA.qr,
    "svd": LA.svd,
    "solve": lambda x: LA.solve(x, x[0]),
    "lstsq": lambda x: LA.lstsq(x, x[0]),
    "pinv": LA.pinv,
    "matrix_rank": LA.matrix_rank,
    "norm": lambda x: LA.norm(x, "nuc"),
    "matrix_power": lambda x: LA.matrix_power(x, -3),
    "einsum": lambda x: tnp.einsum("ij,jk,k->i", x, x, x[0]),
    "tensordot": lambda x: tnp.tensordot(x, x),
    "kron": lambda x: tnp.kron(x, x),
    "cross": lambda x: tnp.cross(x[:, :3], x[::-1, :3]),
    "vecdot": lambda x: tnp.vecdot(x, x),
}


@pytest.mark.parametrize("name", list(JIT_CASES))
def test_jit_matches_eager(name: str) -> None:
    fn = JIT_CASES[name]
    x = t(A)
    eager, traced = fn(x), trellax.jit(fn)(x)
    e_leaves, t_leaves = trellax.tree_util.tree_leaves(eager), trellax.tree_util.tree_leaves(traced)
    for e, tr in zip(e_leaves, t_leaves, strict=True):
        assert (tr.dtype, tr.weak_type, tr.shape) == (e.dtype, e.weak_type, e.shape)
        np.testing.assert_allclose(np.asarray(tr), np.asarray(e), rtol=1e-5, atol=1e-5)


def test_jaxpr_shows_linalg_primitives() -> None:
    text = str(trellax.make_jaxpr(lambda x: LA.inv(x) + LA.det(x))(t(A)))
    assert "inv" in text and "det" in text


def test_einsum_takes_any_character_as_a_label() -> None:
    # JAX's einsum (opt_einsum's parser) takes digits and other characters as labels, as Flax
    # nnx's attention does ('...kh1d'); NumPy's refuses them. The result is the lettered one's.
    rng = np.random.default_rng(3)
    q = rng.standard_normal((2, 3, 4, 5, 6)).astype(np.float32)
    k = rng.standard_normal((2, 7, 4, 1, 6)).astype(np.float32)
    got = tnp.einsum("...qhgd,...kh1d->...hgqk", q, k)
    want = tnp.einsum("...qhgd,...khzd->...hgqk", q, k)
    assert got.shape == (2, 4, 5, 3, 7)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    np.testing.assert_array_equal(
        np.asarray(tnp.einsum("αβ,βγ->αγ", a, b)), np.asarray(tnp.einsum("ij,jk->ik", a, b))
    )
    with pytest.raises(ValueError, match="invalid subscript"):
        tnp.einsum("i.j", a)


@pytest.mark.parametrize(
    ("subscripts", "x", "y", "want"),
    [  # JAX 0.10.2's values: a size-1 axis broadcasts against the other operand's label
        ("ij,jk->ik", [[1.0], [2.0]], np.arange(6.0).reshape(3, 2), [[6.0, 9.0], [12.0, 18.0]]),
        ("ij,ij->ij", np.arange(8).reshape(4, 2), [[3]], (np.arange(8) * 3).reshape(4, 2)),
        ("ij,ij->i", np.arange(8.0).reshape(4, 2), [[3.0]], [3.0, 15.0, 27.0, 39.0]),
        ("ij,ij->", np.arange(8.0).reshape(4, 2), [[3.0, 3.0]], 84.0),
        ("ij,j->i", np.ones((2, 3)), [1.0], [3.0, 3.0]),
        ("i,i->", np.ones((0,)), [1.0], 0.0),
    ],
)
def test_einsum_broadcasts_size_one_axes(subscripts: str, x: Any, y: Any, want: Any) -> None:
    """Fuzzer seed 672 (``tests/test_fuzz_programs.py``): these raised a dot_general TypeError."""
    got = tnp.einsum(subscripts, tnp.asarray(x), tnp.asarray(y))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
