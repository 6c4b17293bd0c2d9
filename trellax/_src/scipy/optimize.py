"""``trellax.scipy.optimize``: ``minimize(fun, x0, args, method="BFGS")`` and
``OptimizeResults``, as JAX has them.

BFGS (Nocedal & Wright, algorithm 6.1) starts from the identity as inverse Hessian, steps along
``-H g`` with the strong-Wolfe line search of ``optimize_line_search`` (whose first trial uses
the previous value, initially ``f(x0) + |g0| / 2``), and updates ``H`` with the BFGS formula
unless ``1 / (y . s)`` is not finite. It stops when the ``norm``-norm of the gradient is at
most ``gtol`` (status 0), after ``maxiter`` iterations (status 1, default ``200 * x0.size``)
or when a line search fails (status ``2 +`` the search's status: 3 its zoom failed, 5 it found
no step in ``line_search_maxiter`` trials); as in JAX the step of a failed search is still
taken. Gradients come from ``trellax.grad``; the loop is a ``lax.while_loop``, so ``minimize``
works under ``jit``. ``x0`` must be a 1-D inexact array; ``tol`` is accepted and, as in JAX,
has no effect (use ``options={"gtol": ...}``). Counters and the status are weakly typed default
integers, ``success`` a strong bool.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.autodiff import value_and_grad
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.scipy.optimize_lbfgs import minimize_lbfgs
from trellax._src.scipy.optimize_line_search import line_search

#: JAX's name of its L-BFGS method (lower case; ``minimize`` compares without case).
LBFGS = "l-bfgs-experimental-do-not-rely-on-this"


class OptimizeResults(NamedTuple):
    """The outcome of :func:`minimize`.

    ``x``: the solution; ``success``: converged without a failed line search; ``status``: 0
    converged, 1 maximum BFGS iterations reached, 3 zoom failed, 4 saddle point reached, 5
    maximum line-search iterations reached, -1 undefined; ``fun``, ``jac``: value and gradient
    at ``x``; ``hess_inv``: the final inverse-Hessian estimate; ``nfev``, ``njev``: evaluations
    of the function and of its gradient; ``nit``: iterations.
    """

    x: Array
    success: bool | Array
    status: int | Array
    fun: Array
    jac: Array
    hess_inv: Array | None
    nfev: int | Array
    njev: int | Array
    nit: int | Array


class _State(NamedTuple):
    converged: Array
    failed: Array
    k: Array
    nfev: Array
    x: Array
    f: Array
    g: Array
    h: Array
    old_f: Array
    status: Array
    ls_status: Array


def _norm(g: Array, order: Any) -> Array:
    return jnp.linalg.norm(g, ord=order)


def minimize_bfgs(
    fun: Callable[[Array], Array],
    x0: Array,
    maxiter: int | None = None,
    norm: Any = math.inf,
    gtol: float = 1e-5,
    line_search_maxiter: int = 10,
) -> OptimizeResults:
    """Minimize ``fun`` from ``x0`` with BFGS (see the module docstring)."""
    value_grad = value_and_grad(fun)
    if maxiter is None:
        maxiter = x0.size * 200
    f0, g0 = value_grad(x0)
    n = x0.shape[0]
    init = _State(
        converged=_norm(g0, norm) < gtol,
        failed=jnp.zeros((), bool),
        k=jnp.asarray(0),
        nfev=jnp.asarray(1),
        x=x0,
        f=f0,
        g=g0,
        h=jnp.eye(n, dtype=x0.dtype),
        old_f=f0 + _norm(g0, 2) / 2,
        status=jnp.asarray(0),
        ls_status=jnp.asarray(0),
    )

    def body(s: _State) -> _State:
        p = -(s.h @ s.g)

        def evaluate(a: Array) -> tuple[Array, Array, Array]:
            f, g = value_grad(s.x + a * p)
            return f, jnp.dot(g, p), g

        ls = line_search(evaluate, s.f, jnp.dot(s.g, p), s.g, s.old_f, line_search_maxiter)
        step = ls.a_k * p
        x = s.x + step
        y = ls.g_k - s.g
        rho = 1 / jnp.dot(y, step)
        w = jnp.eye(n, dtype=x0.dtype) - rho * jnp.outer(step, y)
        h_new = w @ s.h @ w.T + rho * jnp.outer(step, step)
        h = jnp.where(jnp.isfinite(rho), h_new, s.h)
        return _State(
            converged=_norm(ls.g_k, norm) <= gtol,
            failed=s.failed | ls.failed,
            k=s.k + 1,
            nfev=s.nfev + ls.nfev,
            x=x,
            f=ls.f_k,
            g=ls.g_k,
            h=h,
            old_f=s.f,
            status=s.status,
            ls_status=ls.status,
        )

    s = lax.while_loop(lambda s: ~s.converged & ~s.failed & (s.k < maxiter), body, init)
    status = jnp.where(
        s.converged, 0, jnp.where(s.k == maxiter, 1, jnp.where(s.failed, 2 + s.ls_status, -1))
    )
    return OptimizeResults(
        x=s.x,
        success=s.converged & ~s.failed,
        status=status,
        fun=s.f,
        jac=s.g,
        hess_inv=s.h,
        nfev=s.nfev,
        njev=s.nfev,
        nit=s.k,
    )


def minimize(
    fun: Callable[..., Any],
    x0: Array,
    args: tuple[Any, ...] = (),
    *,
    method: str,
    tol: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> OptimizeResults:
    """Minimize ``fun(x, *args)`` over the 1-D array ``x`` starting at ``x0``.

    ``method`` is ``"BFGS"`` (any case; ``options`` are ``maxiter``, ``norm``, ``gtol`` and
    ``line_search_maxiter``) or JAX's ``"l-bfgs-experimental-do-not-rely-on-this"`` (options
    ``maxiter``, ``norm``, ``maxcor``, ``ftol``, ``gtol``, ``maxfun``, ``maxgrad``, ``maxls``;
    see ``optimize_lbfgs``). ``tol`` is accepted and ignored, as in JAX.
    """
    if options is None:
        options = {}
    if not isinstance(args, tuple):
        raise TypeError(f"args argument to minimize must be a tuple, got {args}")

    def fun_with_args(x: Array) -> Array:
        return fun(x, *args)  # type: ignore[no-any-return]

    if method.lower() not in ("bfgs", LBFGS):
        raise ValueError(f"Method {method} not recognized")
    x = jnp.asarray(x0)
    if dtypes.kind(x.dtype) not in "fc":
        raise TypeError(
            "grad requires real- or complex-valued inputs (input dtype that is a sub-dtype "
            f"of np.inexact), but got {x.dtype.name}. If you want to use Boolean- or "
            "integer-valued inputs, use vjp or set allow_int to True."
        )
    if x.ndim != 1:
        raise TypeError(f"minimize: x0 must be a 1-D array, got shape {tuple(x.shape)}")
    if method.lower() == "bfgs":
        return minimize_bfgs(fun_with_args, x, **options)
    xk, success, status, f, g, nfev, ngev, nit = minimize_lbfgs(fun_with_args, x, **options)
    return OptimizeResults(
        x=xk,
        success=success,
        status=status,
        fun=f,
        jac=g,
        hess_inv=None,
        nfev=nfev,
        njev=ngev,
        nit=nit,
    )
