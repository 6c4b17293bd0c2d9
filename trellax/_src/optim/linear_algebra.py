"""optax's linear algebra helpers: ``power_iteration`` (the dominant eigenpair of a matrix or of
a matrix-vector product on pytrees), ``matrix_inverse_pth_root`` (``A^(-1/p)`` of a symmetric
positive semi-definite matrix by coupled Newton iterations, Higham's *Functions of Matrices*
eq. 7.18) and ``nnls`` (non-negative least squares by accelerated projected gradient).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.optim.tree_math import norm as _norm
from trellax._src.optim.tree_math import vdot as _vdot
from trellax._src.random import keys as random_keys
from trellax._src.random import samplers as random_samplers
from trellax.tree_util import tree_map


def _unit(tree: Any) -> Any:
    inv = 1.0 / _norm(tree)
    return tree_map(lambda x: inv * x, tree)


def power_iteration(
    matrix: Any,
    *,
    v0: Any = None,
    num_iters: Any = 100,
    error_tolerance: Any = 1e-6,
    precision: Any = lax.Precision.HIGHEST,
    key: Any = None,
) -> tuple[Any, Any]:
    """``(eigenvalue, unit eigenvector)`` of the dominant eigenpair of ``matrix`` (an ``(n, n)``
    array, or a callable taking and returning a pytree, which then needs ``v0``).

    Iterates ``v <- A v / ||A v||`` from ``v0`` (by default uniform in ``[-1, 1]`` drawn with
    ``key``, ``PRNGKey(0)`` when ``None``) until ``||A v - lambda v|| / |lambda|`` falls below
    ``error_tolerance`` or ``num_iters`` products were taken; ``lambda = <v, A v>``.
    """
    if callable(matrix):
        if v0 is None:
            raise ValueError("v0 must be provided when `matrix` is a callable.")
        product: Callable[[Any], Any] = matrix
    else:
        matrix = jnp.asarray(matrix)

        def product(v: Any) -> Any:
            return jnp.matmul(matrix, v, precision=precision)

        if v0 is None:
            key = random_keys.PRNGKey(0) if key is None else key
            v0 = random_samplers.uniform(
                key, shape=matrix.shape[-1:], dtype=matrix.dtype, minval=-1.0, maxval=1.0
            )
    start = _unit(v0)

    def running(carry: tuple[Any, Any, Any, Any]) -> Any:
        v, av, eig, step = carry
        residual = _norm(tree_map(lambda a, b: a - eig * b, av, v))
        converged = jnp.abs(residual / eig) < error_tolerance
        return jnp.logical_and(jnp.logical_not(converged), step < num_iters)

    def advance(carry: tuple[Any, Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
        _, av, _, step = carry
        v = _unit(av)
        av = product(v)
        return v, av, _vdot(v, av), step + 1

    carry = (start, product(start), jnp.asarray(0.0), jnp.asarray(0))
    _, av, eig, _ = lax.while_loop(running, advance, carry)
    return eig, _unit(av)


def matrix_inverse_pth_root(
    matrix: Any,
    p: Any,
    num_iters: Any = 100,
    ridge_epsilon: Any = 1e-6,
    error_tolerance: Any = 1e-6,
    precision: Any = lax.Precision.HIGHEST,
) -> tuple[Any, Any]:
    """``(matrix + r I)^(-1/p)`` and the final error ``max |M_k - I|`` of the iteration, for a
    symmetric positive semi-definite ``matrix`` and a positive integer ``p``. The ridge ``r`` is
    ``ridge_epsilon`` times the largest eigenvalue (at least 1e-16). Computed in float32 and
    returned in the matrix's dtype; the iteration stops at ``num_iters``, below
    ``error_tolerance``, or when the error grows by more than 20 % (then the previous iterate is
    kept)."""
    matrix = jnp.asarray(matrix)
    n = matrix.shape[0]
    largest, _ = power_iteration(matrix, num_iters=100, error_tolerance=1e-6, precision=precision)
    ridge = ridge_epsilon * jnp.maximum(largest, 1e-16)
    exponent = jnp.asarray(-1.0 / p, jnp.float32)
    if n == 1:
        return (matrix + ridge) ** exponent, 0
    eye = jnp.eye(n, dtype=jnp.float32)
    damped = matrix + ridge * eye

    def mm(a: Any, b: Any) -> Any:
        return jnp.matmul(a, b, precision=precision)

    if int(p) != p or p < 1:
        raise ValueError(f"matrix_inverse_pth_root needs a positive integer p, got {p}")

    def power(a: Any) -> Any:
        return jnp.linalg.matrix_power(a, int(p))

    z = (1 + p) / (2 * jnp.linalg.norm(damped))
    m0 = damped * z
    h0 = eye * jnp.power(z, 1.0 / p)
    err0 = jnp.max(jnp.abs(m0 - eye))

    def running(c: tuple[Any, ...]) -> Any:
        i, _, _, _, err, improving = c
        return jnp.logical_and(i < num_iters, jnp.logical_and(err > error_tolerance, improving))

    def advance(c: tuple[Any, ...]) -> tuple[Any, ...]:
        i, m, h, _, err, _ = c
        t = (1 - exponent) * eye + exponent * m
        m_next = mm(power(t), m)
        h_next = mm(h, t)
        err_next = jnp.max(jnp.abs(m_next - eye))
        return i + 1, m_next, h_next, h, err_next, err_next < err * 1.2

    _, m, h, h_prev, _, improving = lax.while_loop(
        running, advance, (0, m0, h0, h0, err0, jnp.asarray(True))
    )
    error = jnp.max(jnp.abs(m - eye))
    keep = jnp.asarray(improving, h_prev.dtype)
    return jnp.asarray(keep * h + (1 - keep) * h_prev, matrix.dtype), error


def nnls(A: Any, b: Any, iters: int, unroll: int | bool = 1, L: Any = None) -> Any:
    """The ``x >= 0`` minimizing ``||A x - b||_2`` (``b`` a vector or a matrix of right-hand
    sides), after ``iters`` steps of projected gradient with Nesterov momentum from zero; ``L``
    bounds the largest eigenvalue of ``A^T A`` (by default the smaller of its Frobenius and
    1-norms)."""
    A = jnp.asarray(A)
    b = jnp.asarray(b)
    if A.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != A.shape[0]:
        raise ValueError(f"nnls: incompatible shapes A {A.shape} and b {b.shape}")
    gram = A.mT @ A
    rhs = A.mT @ b
    if L is None:
        frob = jnp.linalg.matrix_norm(gram, ord="fro")
        L = jnp.minimum(frob, jnp.linalg.matrix_norm(gram, ord=1)) if gram.size else frob
    L = jnp.where(L == 0, 1, L)

    def step(carry: tuple[Any, Any, Any], _: Any) -> tuple[tuple[Any, Any, Any], None]:
        x, y, t = carry
        t_next = (1 + jnp.sqrt(1 + 4 * t**2)) / 2
        x_next = jnp.clip(y - (gram @ y - rhs) / L, 0)
        y_next = x_next + (t - 1) / t_next * (x_next - x)
        return (x_next, y_next, t_next), None

    x0 = jnp.zeros(A.shape[-1:] + b.shape[1:], b.dtype)
    (x, _, _), _ = lax.scan(step, (x0, x0, 0.0), length=iters, unroll=unroll)
    return x
