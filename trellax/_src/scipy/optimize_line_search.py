"""The inexact line search of ``trellax.scipy.optimize.minimize(method="BFGS")``: a step ``a``
along ``p`` from ``x`` satisfying the strong Wolfe conditions (Nocedal & Wright, Numerical
Optimization, algorithms 3.5 and 3.6), with JAX's choices so that iterates agree with JAX's.

* The first trial step is ``min(1, 1.01 * 2 * (f(x) - f_previous) / slope)`` (``1`` without a
  previous value); later trials double it. A trial that breaks sufficient decrease
  (``c1 = 1e-4``), or that does not decrease after the first, brackets a minimum below it; one
  with a positive slope brackets one above it; one with a small slope (``c2 = 0.9``) is taken.
* ``zoom`` narrows a bracket ``(lo, hi)``: a cubic through ``lo``, ``hi`` and the previously
  dropped end (on the first pass the midpoint of the bracket and of its values stands in for
  it), else a quadratic, else bisection, each kept only well inside the bracket. As in JAX, the
  zoom fails as soon as ``hi - lo`` (signed) is at most ``1e-5`` (``1e-10`` in 64-bit), which
  also stops a zoom whose bracket runs backwards after its current pass; a failed zoom still
  reports the point found in that pass when it satisfies both conditions, otherwise step ``1``
  with the starting value and gradient.
* Results: step, value and gradient there, counts of evaluations, and a status (``0`` success,
  ``1`` the zoom failed, ``3`` no acceptable step within ``maxiter`` trials, step ``0``). In
  less than 64-bit precision a step smaller than ``1e-8`` in magnitude is raised to ``1e-8``.

Every evaluation is one ``value_and_grad`` of the objective; the loops are ``lax.while_loop``
so the search runs under ``jit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes

Evaluate = Callable[[Array], tuple[Array, Array, Array]]  # step -> (value, slope, gradient)
_C1, _C2 = 1e-4, 0.9


class LineSearchResults(NamedTuple):
    failed: Array
    nit: Array
    nfev: Array
    ngev: Array
    k: Array
    a_k: Array
    f_k: Array
    g_k: Array
    status: Array


class _Point(NamedTuple):
    a: Array
    phi: Array
    dphi: Array


class _Star(NamedTuple):
    a: Array
    phi: Array
    dphi: Array
    g: Array


class _Zoom(NamedTuple):
    run: Array  # still narrowing
    failed: Array
    j: Array
    lo: _Point
    hi: _Point
    rec_a: Array
    rec_phi: Array
    star: _Star
    nfev: Array


def _cubic_min(lo: _Point, hi: _Point, c: Array, fc: Array) -> Array:
    """The minimizer of the cubic through ``lo`` (value and slope), ``hi`` and ``(c, fc)``."""
    db, dc = hi.a - lo.a, c - lo.a
    denom = (db * dc) ** 2 * (db - dc)
    rb = hi.phi - lo.phi - lo.dphi * db
    rc = fc - lo.phi - lo.dphi * dc
    big_a = (dc * dc * rb - db * db * rc) / denom
    big_b = (-(dc**3) * rb + db**3 * rc) / denom
    radical = big_b * big_b - 3 * big_a * lo.dphi
    return lo.a + (-big_b + jnp.sqrt(radical)) / (3 * big_a)


def _quad_min(lo: _Point, hi: _Point) -> Array:
    db = hi.a - lo.a
    curvature = (hi.phi - lo.phi - lo.dphi * db) / (db * db)
    return lo.a - lo.dphi / (2 * curvature)


def _pick(cond: Array, new: Any, old: Any) -> Any:
    """``new`` where ``cond`` holds, else ``old``, leaf by leaf."""
    return type(old)(*(jnp.where(cond, n, o) for n, o in zip(new, old)))


def _zoom(
    evaluate: Evaluate,
    start: _Zoom,
    phi0: Array,
    dphi0: Array,
    maxiter: int,
) -> _Zoom:
    tiny = 1e-5 if dtypes.finfo(phi0.dtype).bits < 64 else 1e-10

    def body(z: _Zoom) -> _Zoom:
        width = z.hi.a - z.lo.a
        left, right = jnp.minimum(z.lo.a, z.hi.a), jnp.maximum(z.lo.a, z.hi.a)
        failed = z.failed | (width <= tiny)
        cubic = _cubic_min(z.lo, z.hi, z.rec_a, z.rec_phi)
        cubic_ok = (z.j > 0) & (cubic > left + 0.2 * width) & (cubic < right - 0.2 * width)
        quad = _quad_min(z.lo, z.hi)
        quad_ok = (quad > left + 0.1 * width) & (quad < right - 0.1 * width)
        a_j = jnp.where(cubic_ok, cubic, jnp.where(quad_ok, quad, (z.lo.a + z.hi.a) / 2))
        phi_j, dphi_j, g_j = evaluate(a_j)
        point = _Point(a_j, phi_j, dphi_j)
        hi_to_j = (phi_j > phi0 + _C1 * a_j * dphi0) | (phi_j >= z.lo.phi)
        star_to_j = (jnp.abs(dphi_j) <= -_C2 * dphi0) & ~hi_to_j
        flip = (dphi_j * (z.hi.a - z.lo.a) >= 0) & ~hi_to_j & ~star_to_j
        lo_to_j = ~hi_to_j & ~star_to_j
        rec_from_hi = hi_to_j | flip
        rec_a = jnp.where(rec_from_hi, z.hi.a, jnp.where(lo_to_j, z.lo.a, z.rec_a))
        rec_phi = jnp.where(rec_from_hi, z.hi.phi, jnp.where(lo_to_j, z.lo.phi, z.rec_phi))
        hi = _pick(hi_to_j, point, _pick(flip, z.lo, z.hi))
        lo = _pick(lo_to_j, point, z.lo)
        star = _pick(star_to_j, _Star(a_j, phi_j, dphi_j, g_j), z.star)
        j = z.j + 1
        failed = failed | (~star_to_j & (j >= maxiter))
        return _Zoom(z.run & ~star_to_j, failed, j, lo, hi, rec_a, rec_phi, star, z.nfev + 1)

    return lax.while_loop(lambda z: z.run & ~z.failed, body, start)  # type: ignore[no-any-return]


class _Search(NamedTuple):
    done: Array
    failed: Array
    i: Array
    prev: _Point
    star: _Star
    nfev: Array


def line_search(
    evaluate: Evaluate,
    phi0: Array,
    dphi0: Array,
    g0: Array,
    old_phi0: Array | None,
    maxiter: int,
) -> LineSearchResults:
    """A strong-Wolfe step for ``phi(a) = f(x + a p)`` (see the module docstring);
    ``evaluate(a)`` gives ``(phi(a), phi'(a), grad f(x + a p))``."""
    if old_phi0 is None:
        first = jnp.ones_like(phi0)
    else:
        first = jnp.minimum(1.01 * 2 * (phi0 - old_phi0) / dphi0, 1.0)
    zero = jnp.zeros_like(phi0)
    one = jnp.ones_like(phi0)

    def body(s: _Search) -> _Search:
        a_i = jnp.where(s.i == 1, first, 2 * s.prev.a)
        phi_i, dphi_i, g_i = evaluate(a_i)
        point = _Point(a_i, phi_i, dphi_i)
        below = (phi_i > phi0 + _C1 * a_i * dphi0) | ((phi_i >= s.prev.phi) & (s.i > 1))
        accept = (jnp.abs(dphi_i) <= -_C2 * dphi0) & ~below
        above = (dphi_i >= 0) & ~below & ~accept
        lo = _pick(below, s.prev, point)
        hi = _pick(below, point, s.prev)
        start = _Zoom(
            run=below | above,
            failed=jnp.zeros((), bool),
            j=jnp.asarray(0),
            lo=lo,
            hi=hi,
            rec_a=(lo.a + hi.a) / 2,
            rec_phi=(lo.phi + hi.phi) / 2,
            star=_Star(one, lo.phi, lo.dphi, g0),
            nfev=jnp.asarray(0),
        )
        z = _zoom(evaluate, start, phi0, dphi0, maxiter)
        zoomed = below | above
        star = _pick(zoomed, z.star, _pick(accept, _Star(a_i, phi_i, dphi_i, g_i), s.star))
        return _Search(
            done=s.done | zoomed | accept,
            failed=s.failed | (zoomed & z.failed),
            i=s.i + 1,
            prev=point,
            star=star,
            nfev=s.nfev + 1 + z.nfev,
        )

    init = _Search(
        done=jnp.zeros((), bool),
        failed=jnp.zeros((), bool),
        i=jnp.asarray(1),
        prev=_Point(zero, phi0, dphi0),
        star=_Star(zero, phi0, dphi0, g0),
        nfev=jnp.asarray(0),
    )
    s = lax.while_loop(lambda s: ~s.done & (s.i <= maxiter) & ~s.failed, body, init)
    status = jnp.where(s.failed, 1, jnp.where(s.i > maxiter, 3, 0))
    a_k = s.star.a
    if dtypes.finfo(a_k.dtype).bits < 64:
        a_k = jnp.where(jnp.abs(a_k) < 1e-8, jnp.sign(a_k) * 1e-8, a_k)
    return LineSearchResults(
        failed=s.failed | ~s.done,
        nit=s.i - 1,
        nfev=s.nfev,
        ngev=s.nfev,
        k=s.i,
        a_k=a_k,
        f_k=s.star.phi,
        g_k=s.star.g,
        status=status,
    )
