"""Limited-memory BFGS for ``trellax.scipy.optimize.minimize(method=
"l-bfgs-experimental-do-not-rely-on-this")``, the method JAX offers under that name.

Nocedal & Wright, Numerical Optimization, algorithms 7.4 and 7.5: the search direction is
``-H g`` with ``H`` applied by the two-loop recursion over the last ``maxcor`` pairs
``s = x_{k+1} - x_k``, ``y = g_{k+1} - g_k`` (a ring buffer; pairs not yet filled have
``rho = 0`` and drop out), the initial matrix ``gamma I`` with ``gamma = (s . y) / (y . y)`` of
the newest pair (1 at the start). The step comes from the strong-Wolfe line search BFGS uses
(``optimize_line_search``, at most ``maxls`` trials). Complex ``x`` is minimized over its real
and imaginary parts: the gradient used is the conjugate of ``grad`` (the direction of steepest
ascent) and inner products are ``Re(conj(a) . b)``.

As JAX's: at least one step is made; after each step it stops (``status``) when the
``norm``-norm of the new gradient is below ``gtol`` (0), else when the line search failed (5;
its step is still taken), when ``maxiter`` iterations had been made before the step (1: so
``maxiter=1`` makes two; no limit by default), ``maxfun`` function or ``maxgrad`` gradient
evaluations (2, 3) had been reached, or when the value decreased by less than ``ftol``
(absolute, 4). ``success`` is status 0. Where ``s . y`` is 0 the pair is kept with
``rho = 0`` and ``gamma`` unchanged (JAX divides by it). The loop is a ``lax.while_loop``:
``minimize`` runs under ``jit``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.autodiff import value_and_grad
from trellax._src.core.basearray import Array
from trellax._src.scipy.optimize_line_search import line_search


class _State(NamedTuple):
    k: Array
    nfev: Array
    ngev: Array
    x: Array
    f: Array
    g: Array
    s_hist: Array
    y_hist: Array
    rho_hist: Array
    gamma: Array
    status: Array


def _rdot(a: Array, b: Array) -> Array:
    """``Re(conj(a) . b)``: the real inner product of the real and imaginary parts."""
    return jnp.real(jnp.sum(jnp.conj(a) * b, axis=-1))


def _scale(c: Array, v: Array) -> Array:
    """The real scalar ``c`` times ``v`` (cast first: complex ``v`` under strict promotion)."""
    return c.astype(v.dtype) * v


def _direction(g: Array, s_hist: Array, y_hist: Array, rho_hist: Array, gamma: Array) -> Array:
    """``-H g`` by the two-loop recursion; the histories' newest pair is last."""
    m = s_hist.shape[0]

    def back(i: Any, carry: tuple[Array, Array]) -> tuple[Array, Array]:
        q, alphas = carry
        j = m - 1 - i
        a = rho_hist[j] * _rdot(s_hist[j], q)
        return q - _scale(a, y_hist[j]), alphas.at[j].set(a)

    q, alphas = lax.fori_loop(0, m, back, (g, jnp.zeros(m, rho_hist.dtype)))
    r = _scale(gamma, q)

    def forward(j: Any, r: Array) -> Array:
        b = rho_hist[j] * _rdot(y_hist[j], r)
        return r + _scale(alphas[j] - b, s_hist[j])

    out: Array = lax.fori_loop(0, m, forward, r)
    return -out


def minimize_lbfgs(
    fun: Callable[[Array], Array],
    x0: Array,
    maxiter: float | None = None,
    norm: Any = math.inf,
    maxcor: int = 10,
    ftol: float = 2.220446049250313e-09,
    gtol: float = 1e-05,
    maxfun: float | None = None,
    maxgrad: float | None = None,
    maxls: int = 20,
) -> Any:
    """Minimize ``fun`` from the 1-D ``x0`` with L-BFGS (see the module docstring); returns
    ``OptimizeResults``' fields as a tuple for ``minimize`` to wrap."""
    n = x0.shape[0]
    limits = [math.inf if v is None else v for v in (maxiter, maxfun, maxgrad)]
    value_grad = value_and_grad(fun)

    def evaluate_at(x: Array) -> tuple[Array, Array]:
        f, g = value_grad(x)
        return f, jnp.conj(g)

    real = jnp.real(jnp.zeros((), x0.dtype)).dtype
    f0, g0 = evaluate_at(x0)
    init = _State(
        k=jnp.asarray(0),
        nfev=jnp.asarray(1),
        ngev=jnp.asarray(1),
        x=x0,
        f=f0,
        g=g0,
        s_hist=jnp.zeros((maxcor, n), x0.dtype),
        y_hist=jnp.zeros((maxcor, n), x0.dtype),
        rho_hist=jnp.zeros(maxcor, real),
        gamma=jnp.ones((), real),
        status=jnp.asarray(-1),
    )

    def body(st: _State) -> _State:
        p = _direction(st.g, st.s_hist, st.y_hist, st.rho_hist, st.gamma)

        def evaluate(a: Array) -> tuple[Array, Array, Array]:
            f, g = evaluate_at(st.x + _scale(a, p))
            return f, _rdot(g, p), g

        ls = line_search(evaluate, st.f, _rdot(st.g, p), st.g, None, maxls)
        s = _scale(ls.a_k, p)  # taken even when the search failed, as in JAX
        y = ls.g_k - st.g
        sy = _rdot(s, y)
        safe = sy != 0
        rho = jnp.where(safe, 1 / jnp.where(safe, sy, 1), 0)
        gamma = jnp.where(safe, sy / jnp.where(safe, _rdot(y, y), 1), st.gamma)
        status = jnp.where(st.f - ls.f_k < ftol, 4, -1)
        status = jnp.where(st.ngev >= limits[2], 3, status)
        status = jnp.where(st.nfev >= limits[1], 2, status)
        status = jnp.where(st.k >= limits[0], 1, status)
        status = jnp.where(ls.failed, 5, status)
        status = jnp.where(jnp.linalg.norm(ls.g_k, ord=norm) < gtol, 0, status)
        return _State(
            k=st.k + 1,
            nfev=st.nfev + ls.nfev,
            ngev=st.ngev + ls.ngev,
            x=st.x + s,
            f=ls.f_k.astype(st.f.dtype),
            g=ls.g_k,
            s_hist=jnp.roll(st.s_hist, -1, axis=0).at[-1].set(s),
            y_hist=jnp.roll(st.y_hist, -1, axis=0).at[-1].set(y),
            rho_hist=jnp.roll(st.rho_hist, -1, axis=0).at[-1].set(rho),
            gamma=gamma,
            status=status,
        )

    out = lax.while_loop(lambda st: st.status == -1, body, init)
    return out.x, out.status == 0, out.status, out.f, jnp.conj(out.g), out.nfev, out.ngev, out.k
