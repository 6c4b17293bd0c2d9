"""``trellax.scipy.sparse.linalg``: the iterative solvers ``cg``, ``bicgstab`` and ``gmres``, as
JAX has them.

``A`` is a function (a linear map on pytrees shaped like ``b``), a square matrix (applied with
``dot`` at the highest precision) or an object with ``@``; ``M`` (a preconditioner, applied to
residuals) likewise, the identity by default. ``b`` and ``x0`` (zeros by default) are pytrees
of matching structure and shapes. Each returns ``(x, None)`` (JAX returns no convergence
information either). The solves run in ``lax.while_loop`` (so under ``jit``) and are wrapped in
``lax.custom_linear_solve`` (``cg`` of real ``b`` as a symmetric solve), so ``x`` is differentiated by
solving again rather than through the iterations. ``x`` keeps ``b``'s dtypes, weak types
included.

* ``cg``: preconditioned conjugate gradients for Hermitian positive definite ``A``; stops when
  ``|r|`` is at most ``max(tol |b|, atol)`` or after ``maxiter`` (default ``10 * b.size``)
  iterations.
* ``bicgstab``: preconditioned BiCGSTAB (van der Vorst) for general ``A``, the same stopping
  rule; a breakdown (``rho`` or ``omega`` zero) stops it.
* ``gmres``: left-preconditioned restarted GMRES: each cycle builds ``restart`` (at most the
  size of ``b``) Arnoldi vectors of ``M A`` by modified Gram-Schmidt (a vector that vanishes
  ends the Krylov space: it stays zero) and minimizes the preconditioned residual by least
  squares over them; cycles repeat until ``|M r|`` is at most ``|M b| min(1, max(tol |b|,
  atol) / |b|)`` or ``maxiter`` cycles (default ``10 * b.size``) were run. ``solve_method``
  (``"batched"`` or ``"incremental"``) is checked; both use the cycle just described (JAX's
  incremental method can stop inside a cycle, so iterates differ when a cycle is cut short,
  not the solution).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.derived.flatten_util import ravel_pytree
from trellax._src.lax.structural import _convert
from trellax._src.tree.tree_util import tree_leaves, tree_map, tree_structure

LinearOperator = Any


def _matvec(f: LinearOperator) -> Callable[[Any], Any]:
    """The operator ``f`` as a function (JAX's checks and messages)."""
    if callable(f):
        return f  # type: ignore[no-any-return]
    if isinstance(f, (np.ndarray, Array)):
        if f.ndim != 2 or f.shape[0] != f.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {f.shape}")
        return functools.partial(jnp.dot, f, precision=lax.Precision.HIGHEST)
    if hasattr(f, "__matmul__"):
        return lambda x: f @ x
    raise TypeError(f"linear operator must be either a function or ndarray: {f}")


def _vdot(x: Any, y: Any) -> Array:
    """``sum conj(x) y`` over the leaves of two pytrees."""
    total: Array = sum(  # type: ignore[assignment]
        jnp.vdot(a, b, precision=lax.Precision.HIGHEST)
        for a, b in zip(tree_leaves(x), tree_leaves(y))
    )
    return total


def _axpy(a: Array, x: Any, y: Any) -> Any:
    """``a x + y`` leafwise, ``a`` cast to each leaf's dtype."""
    return tree_map(lambda u, v: jnp.asarray(a).astype(u.dtype) * u + v, x, y)


def _sub(x: Any, y: Any) -> Any:
    return tree_map(lambda u, v: u - v, x, y)


def _norm(x: Any) -> Array:
    return jnp.sqrt(jnp.real(_vdot(x, x)))


def _prepare(A: Any, b: Any, x0: Any, M: Any) -> tuple[Any, Any, Any, Any, Any]:
    b = tree_map(jnp.asarray, b)
    x0 = tree_map(jnp.zeros_like, b) if x0 is None else tree_map(jnp.asarray, x0)
    if tree_structure(x0) != tree_structure(b):
        raise ValueError(
            "x0 and b must have matching tree structure: "
            f"{tree_structure(x0)} vs {tree_structure(b)}"
        )
    if [x.shape for x in tree_leaves(x0)] != [y.shape for y in tree_leaves(b)]:
        raise ValueError(
            "x0 and b must have matching shapes: "
            f"{[x.shape for x in tree_leaves(x0)]} vs {[y.shape for y in tree_leaves(b)]}"
        )
    # the iterations run in the leaves' own (strong) dtypes; weak types come back at the end
    strong = tree_map(lambda y: _convert(y, y.dtype, False), b)
    x0 = tree_map(lambda x, y: _convert(x, y.dtype, False), x0, b)
    precond = (lambda x: x) if M is None else _matvec(M)
    return _matvec(A), b, strong, x0, precond


def _solve(
    algorithm: Callable[..., Any],
    A: Any,
    b: Any,
    x0: Any,
    M: Any,
    symmetric: bool,
    **options: Any,
) -> tuple[Any, None]:
    matvec, b_in, b_strong, x0, precond = _prepare(A, b, x0, M)
    size = sum(int(np.size(y)) for y in tree_leaves(b_strong))

    def solve(mv: Callable[[Any], Any], rhs: Any) -> Any:
        return algorithm(mv, rhs, x0, precond, size, **options)

    # a Hermitian complex A is not symmetric: its transpose is solved like any other operator
    symmetric = symmetric and all(jnp.isrealobj(y) for y in tree_leaves(b_strong))
    x = lax.custom_linear_solve(
        matvec, b_strong, solve, transpose_solve=None if symmetric else solve, symmetric=symmetric
    )
    x = tree_map(lambda u, y: _convert(u, y.dtype, y.weak_type), x, b_in)
    return x, None


def _cg(
    A: Callable[[Any], Any],
    b: Any,
    x0: Any,
    M: Callable[[Any], Any],
    size: int,
    *,
    tol: float,
    atol: float,
    maxiter: int | None,
) -> Any:
    maxiter = 10 * size if maxiter is None else maxiter
    bound = jnp.maximum(tol * _norm(b), atol)
    r0 = _sub(b, A(x0))
    z0 = M(r0)
    gamma0 = jnp.real(_vdot(r0, z0))

    def cond(s: tuple[Any, ...]) -> Any:
        _, r, _, _, k = s
        return (_norm(r) > bound) & (k < maxiter)

    def body(s: tuple[Any, ...]) -> tuple[Any, ...]:
        x, r, p, gamma, k = s
        ap = A(p)
        alpha = gamma / jnp.real(_vdot(p, ap))
        x = _axpy(alpha, p, x)
        r = _axpy(-alpha, ap, r)
        z = M(r)
        new = jnp.real(_vdot(r, z))
        p = _axpy(new / gamma, p, z)
        return x, r, p, new, k + 1

    x, *_ = lax.while_loop(cond, body, (x0, r0, z0, gamma0, jnp.asarray(0)))
    return x


def _bicgstab(
    A: Callable[[Any], Any],
    b: Any,
    x0: Any,
    M: Callable[[Any], Any],
    size: int,
    *,
    tol: float,
    atol: float,
    maxiter: int | None,
) -> Any:
    maxiter = 10 * size if maxiter is None else maxiter
    bound = jnp.maximum(tol * _norm(b), atol)
    r0 = _sub(b, A(x0))
    one = jnp.ones((), jnp.result_type(*tree_leaves(b)))
    zeros = tree_map(jnp.zeros_like, b)

    def cond(s: tuple[Any, ...]) -> Any:
        _, r, *_, k = s
        return (_norm(r) > bound) & (k < maxiter) & (k >= 0)

    def body(s: tuple[Any, ...]) -> tuple[Any, ...]:
        x, r, rhat, alpha, omega, rho, p, v, k = s
        rho_new = _vdot(rhat, r)
        beta = rho_new / rho * alpha / omega
        p = _axpy(beta, _axpy(-omega, v, p), r)
        phat = M(p)
        v = A(phat)
        rv = _vdot(rhat, v)
        alpha = jnp.where(rv == 0, 0, rho_new / jnp.where(rv == 0, 1, rv))
        s_vec = _axpy(-alpha, v, r)
        shat = M(s_vec)
        t = A(shat)
        tt = _vdot(t, t)
        omega = jnp.where(tt == 0, 0, _vdot(t, s_vec) / jnp.where(tt == 0, 1, tt))
        x = _axpy(omega, shat, _axpy(alpha, phat, x))
        r = _axpy(-omega, t, s_vec)
        # a breakdown (rho, r.v or omega zero: the residual vanished) ends the loop (k < 0)
        broke = (rho_new == 0) | (rv == 0) | (omega == 0)
        k = jnp.where(broke, -10, k + 1)
        return x, r, rhat, alpha, omega, rho_new, p, v, k

    init = (x0, r0, r0, one, one, one, zeros, zeros, jnp.asarray(0))
    x, *_ = lax.while_loop(cond, body, init)
    return x


def _gmres(
    A: Callable[[Any], Any],
    b: Any,
    x0: Any,
    M: Callable[[Any], Any],
    size: int,
    *,
    tol: float,
    atol: float,
    restart: int,
    maxiter: int | None,
) -> Any:
    maxiter = 10 * size if maxiter is None else maxiter
    m = max(1, min(int(restart), size))
    b_flat, unravel = ravel_pytree(b)
    x_flat, _ = ravel_pytree(x0)
    dtype = b_flat.dtype

    def op(v: Array) -> Array:  # M A on flat vectors
        flat: Array = ravel_pytree(M(A(unravel(v))))[0]
        return flat

    def residual(x: Array) -> Array:
        flat: Array = ravel_pytree(M(_sub(b, A(unravel(x)))))[0]
        return flat

    def vnorm(v: Array) -> Array:
        return jnp.sqrt(jnp.real(jnp.vdot(v, v, precision=lax.Precision.HIGHEST)))

    b_norm = vnorm(b_flat)
    mb_norm = vnorm(ravel_pytree(M(b))[0])
    bound = jnp.maximum(tol * b_norm, atol)
    ptol = mb_norm * jnp.minimum(1.0, bound / jnp.where(b_norm == 0, 1.0, b_norm))
    tiny = jnp.finfo(dtype).eps

    def cycle(x: Array) -> Array:
        r = residual(x)
        beta = vnorm(r)
        q0 = jnp.where(beta > 0, r / jnp.where(beta > 0, beta, 1).astype(dtype), 0)
        basis = jnp.zeros((m + 1, size), dtype).at[0].set(q0)
        hess = jnp.zeros((m + 1, m), dtype)

        def arnoldi(j: Any, carry: tuple[Array, Array]) -> tuple[Array, Array]:
            basis, hess = carry
            w = op(basis[j])
            scale = jnp.maximum(vnorm(w), 1)
            for_h = jnp.zeros(m + 1, dtype)

            def orth(i: Any, c: tuple[Array, Array]) -> tuple[Array, Array]:
                w, h = c
                hij = jnp.where(i <= j, jnp.vdot(basis[i], w, precision=lax.Precision.HIGHEST), 0)
                return w - hij * basis[i], h.at[i].set(hij)

            w, h = lax.fori_loop(0, m, orth, (w, for_h))
            wn = vnorm(w)
            alive = wn > tiny * scale
            q = jnp.where(alive, w / jnp.where(alive, wn, 1).astype(dtype), 0)
            h = h.at[j + 1].set(jnp.where(alive, wn, 0).astype(dtype))
            return basis.at[j + 1].set(q), hess.at[:, j].set(h)

        basis, hess = lax.fori_loop(0, m, arnoldi, (basis, hess))
        rhs = jnp.zeros(m + 1, dtype).at[0].set(beta.astype(dtype))
        y: Array = jnp.linalg.lstsq(hess, rhs)[0]
        step: Array = basis[:m].T @ y
        return x + step

    def cond(s: tuple[Array, Array]) -> Any:
        x, k = s
        return (vnorm(residual(x)) > ptol) & (k < maxiter)

    def body(s: tuple[Array, Array]) -> tuple[Array, Array]:
        x, k = s
        return cycle(x), k + 1

    x, _ = lax.while_loop(cond, body, (x_flat, jnp.asarray(0)))
    return unravel(x)


def cg(
    A: LinearOperator,
    b: Any,
    x0: Any = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: int | None = None,
    M: LinearOperator | None = None,
) -> tuple[Any, None]:
    """Solves ``A x = b`` for Hermitian positive definite ``A`` by conjugate gradients."""
    return _solve(_cg, A, b, x0, M, True, tol=tol, atol=atol, maxiter=maxiter)


def bicgstab(
    A: LinearOperator,
    b: Any,
    x0: Any = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: int | None = None,
    M: LinearOperator | None = None,
) -> tuple[Any, None]:
    """Solves ``A x = b`` by the biconjugate gradient stabilized method."""
    return _solve(_bicgstab, A, b, x0, M, False, tol=tol, atol=atol, maxiter=maxiter)


def gmres(
    A: LinearOperator,
    b: Any,
    x0: Any = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    restart: int = 20,
    maxiter: int | None = None,
    M: LinearOperator | None = None,
    solve_method: str = "batched",
) -> tuple[Any, None]:
    """Solves ``A x = b`` by restarted GMRES (see the module docstring)."""
    if solve_method not in ("incremental", "batched"):
        raise ValueError(f"invalid solve_method {solve_method!r}: use 'incremental' or 'batched'")
    return _solve(_gmres, A, b, x0, M, False, tol=tol, atol=atol, restart=restart, maxiter=maxiter)
