"""End to end: small real computations written only against the Array API namespace.

``least_squares`` and ``kmeans`` below know nothing about trellax: they get their namespace from
their input (``xp = x.__array_namespace__()``) and use only functions of the 2024.12 standard,
the way SciPy and scikit-learn call array libraries. They run on trellax arrays and must give
NumPy's answer (computed by the same algorithms written with NumPy in float64).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

# -- written against the standard only ---------------------------------------------------------------


def least_squares(X: Any, y: Any) -> tuple[Any, Any]:
    """Coefficients minimizing ``||X @ beta - y||`` (via QR), and the residual norm."""
    xp = X.__array_namespace__()
    Q, R = xp.linalg.qr(X)
    beta = xp.linalg.solve(R, xp.linalg.matrix_transpose(Q) @ y)
    residual = xp.linalg.vector_norm(X @ beta - y)
    return beta, residual


def kmeans(points: Any, k: int, iterations: int = 10) -> tuple[Any, Any, Any]:
    """Lloyd's algorithm from the first ``k`` points: (centers, labels, cluster sizes)."""
    xp = points.__array_namespace__()
    centers = points[:k, :]
    labels = xp.zeros(points.shape[0], dtype=xp.int32)
    for _ in range(iterations):
        diff = xp.expand_dims(points, axis=1) - xp.expand_dims(centers, axis=0)
        distances = xp.sum(diff * diff, axis=-1)
        labels = xp.argmin(distances, axis=1)
        rows = []
        for j in range(k):
            member = xp.expand_dims(labels == j, axis=1)
            total = xp.sum(xp.where(member, points, 0.0), axis=0)
            count = xp.sum(xp.where(member, 1.0, 0.0))
            rows.append(total / count)
        centers = xp.stack(rows, axis=0)
    values, counts = xp.unique_counts(labels)
    order = xp.argsort(values)
    return centers, labels, xp.take(counts, order, axis=0)


# -- the same algorithms in NumPy, float64 -----------------------------------------------------------


def np_least_squares(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    beta, *_ = np.linalg.lstsq(X, y, rcond=None)
    return beta, float(np.linalg.norm(X @ beta - y))


def np_kmeans(points: np.ndarray, k: int, iterations: int = 10) -> tuple[Any, Any, Any]:
    centers = points[:k]
    labels = np.zeros(len(points), dtype=int)
    for _ in range(iterations):
        distances = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
        labels = distances.argmin(1)
        centers = np.stack([points[labels == j].mean(0) for j in range(k)])
    return centers, labels, np.bincount(labels, minlength=k)


# -- data ---------------------------------------------------------------------------------------------

rng = np.random.default_rng(42)
X = np.column_stack([np.ones(40), rng.uniform(-2, 2, 40), rng.uniform(0, 1, 40)])
Y = X @ np.array([0.5, -1.25, 3.0]) + 0.05 * rng.standard_normal(40)
MEANS = np.array([[0.0, 0.0], [4.0, 4.0], [-4.0, 3.0]])
POINTS = np.concatenate([m + 0.6 * rng.standard_normal((30, 2)) for m in MEANS])
POINTS = POINTS[rng.permutation(len(POINTS))]


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_least_squares_fit(x64: bool) -> None:
    tol = 1e-10 if x64 else 2e-4
    with trellax.enable_x64(x64):
        dtype = tnp.float64 if x64 else tnp.float32
        beta, residual = least_squares(tnp.asarray(X, dtype=dtype), tnp.asarray(Y, dtype=dtype))
        assert beta.dtype == dtype and residual.dtype == dtype
    want_beta, want_residual = np_least_squares(X, Y)
    np.testing.assert_allclose(np.asarray(beta), want_beta, rtol=tol, atol=tol)
    np.testing.assert_allclose(float(residual), want_residual, rtol=tol * 10)


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_kmeans(x64: bool) -> None:
    with trellax.enable_x64(x64):
        dtype = tnp.float64 if x64 else tnp.float32
        centers, labels, sizes = kmeans(tnp.asarray(POINTS, dtype=dtype), 3)
        assert centers.dtype == dtype
        assert labels.dtype == (np.int64 if x64 else np.int32)
    want_centers, want_labels, want_sizes = np_kmeans(POINTS, 3)
    np.testing.assert_array_equal(np.asarray(labels), want_labels)
    np.testing.assert_array_equal(np.asarray(sizes), want_sizes)
    np.testing.assert_allclose(np.asarray(centers), want_centers, rtol=1e-5, atol=1e-5)
    # the clusters found are the ones the data were drawn from
    found = np.asarray(centers)[np.argsort(np.asarray(centers)[:, 0])]
    np.testing.assert_allclose(found, MEANS[np.argsort(MEANS[:, 0])], atol=0.5)


def test_the_algorithms_also_run_on_numpy() -> None:
    """The functions really are library-agnostic: NumPy 2 is an Array API namespace too."""
    beta, _ = least_squares(X, Y)
    np.testing.assert_allclose(beta, np_least_squares(X, Y)[0], rtol=1e-10)
    _, labels, _ = kmeans(POINTS, 3)
    np.testing.assert_array_equal(labels, np_kmeans(POINTS, 3)[1])


def test_kmeans_under_jit() -> None:
    """The same standard-only code traces: ``jit`` gives the eager labels."""
    points = tnp.asarray(POINTS, dtype=tnp.float32)

    def assign(p: Any) -> Any:
        xp = p.__array_namespace__()
        centers = p[:3, :]
        diff = xp.expand_dims(p, axis=1) - xp.expand_dims(centers, axis=0)
        return xp.argmin(xp.sum(diff * diff, axis=-1), axis=1)

    np.testing.assert_array_equal(
        np.asarray(trellax.jit(assign)(points)), np.asarray(assign(points))
    )
