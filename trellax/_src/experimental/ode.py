"""``odeint``: adaptive Dormand-Prince integration of ``dy/dt = func(y, t, *args)``
(JAX's ``jax.experimental.ode``), differentiable by the adjoint method.

The method is JAX's, so that a program gets JAX's numbers: the Dormand-Prince 5(4) pair with
its FSAL stage, Hairer-Norsett-Wanner's starting step (Sec. II.4), the step controller
``h * min(10, max(0.9 * err**(-1/5), 0.2 or 1))`` on the RMS of the error scaled by
``atol + rtol * max(|y0|, |y1|)``, and dense output at the requested times from the 4th-order
polynomial through the step's ends, derivatives and Dormand-Prince's midpoint. The state is
raveled to one vector, steps run in a ``while_loop`` per output time inside a ``scan``, all under
``jit``. Reverse mode is a ``custom_vjp``: the adjoint system (the state, its cotangent, the
time cotangent and the cotangents of ``args``) is integrated backwards between output times
with the same tolerances. Forward mode is refused, as in JAX (a ``custom_vjp``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax._src.api.api import jit
from trellax._src.api.autodiff import vjp
from trellax._src.api.vmap import vmap
from trellax._src.control_flow import scan, while_loop
from trellax._src.custom.derivatives import custom_vjp
from trellax._src.custom.gradient import closure_convert
from trellax._src.derived.flatten_util import ravel_pytree
from trellax._src.dtypes import dtypes
from trellax._src.tree.tree_util import tree_leaves, tree_map

# -- the Dormand-Prince 5(4) pair -----------------------------------------------------------------

#: stage times (fractions of the step) of stages 1..6 (stage 0 is the start)
_NODES = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)
#: stage weights: row ``i`` gives stage ``i + 1`` from stages ``0..i`` (zeros elsewhere)
_TABLEAU = (
    (1 / 5, 0, 0, 0, 0, 0, 0),
    (3 / 40, 9 / 40, 0, 0, 0, 0, 0),
    (44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0),
    (35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0),
)
#: the 5th-order solution's weights (the last tableau row: stage 6 is the next step's stage 0)
_SOLUTION = (35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0)
#: 5th-order minus 4th-order weights: the local error estimate
_ERROR = (
    35 / 384 - 1951 / 21600,
    0,
    500 / 1113 - 22642 / 50085,
    125 / 192 - 451 / 720,
    -2187 / 6784 + 12231 / 42400,
    11 / 84 - 649 / 6300,
    -1 / 60,
)
#: weights of the solution at the step's midpoint (for dense output)
_MIDPOINT = (
    6025192743 / 30085553152 / 2,
    0,
    51252292925 / 65400821598 / 2,
    -2691868925 / 45128329728 / 2,
    187940372067 / 1594534317056 / 2,
    -1776094331 / 19743644256 / 2,
    11237099 / 235043384 / 2,
)


def _rk_step(fun: Callable[..., Any], y0: Any, f0: Any, t0: Any, dt: Any) -> tuple[Any, ...]:
    """One Dormand-Prince step: (y1, f(y1), error estimate, the 7 stage derivatives)."""
    d = f0.dtype
    tableau = tnp.asarray(np.array(_TABLEAU), dtype=d)
    h = dt.astype(d)
    k = tnp.zeros((7, f0.shape[0]), d).at[0].set(f0)
    for i in range(1, 7):
        yi = y0 + h * tnp.dot(tableau[i - 1], k)
        k = k.at[i].set(fun(yi, t0 + dt * tnp.asarray(_NODES[i - 1], dt.dtype)))
    y1 = h * tnp.dot(tnp.asarray(np.array(_SOLUTION), dtype=d), k) + y0
    err = h * tnp.dot(tnp.asarray(np.array(_ERROR), dtype=d), k)
    return y1, k[6], err, k


def _dense_coefficients(y0: Any, y1: Any, k: Any, dt: Any) -> Any:
    """The 4th-order polynomial in ``s`` (0 at the step's start, 1 at its end) through
    ``y0``, ``y1``, their derivatives and the midpoint, highest power first."""
    h = dt.astype(y0.dtype)
    y_mid = y0 + h * tnp.dot(tnp.asarray(np.array(_MIDPOINT), dtype=y0.dtype), k)
    k0, k6 = k[0], k[6]
    # each term as (coefficient * h) * derivative, the order JAX evaluates them in
    a = (-2.0 * h) * k0 + (2.0 * h) * k6 - 8.0 * y0 - 8.0 * y1 + 16.0 * y_mid
    b = (5.0 * h) * k0 - (3.0 * h) * k6 + 18.0 * y0 + 14.0 * y1 - 32.0 * y_mid
    c = (-4.0 * h) * k0 + h * k6 - 11.0 * y0 - 5.0 * y1 + 16.0 * y_mid
    return tnp.stack([a, b, c, h * k0, y0])


def _error_ratio(err: Any, rtol: float, atol: float, y0: Any, y1: Any) -> Any:
    """RMS of the error over its tolerance ``atol + rtol * max(|y0|, |y1|)``."""
    tol = atol + rtol * tnp.maximum(tnp.abs(y0), tnp.abs(y1))
    ratio = err / tol.astype(err.dtype)
    sq = ratio.real**2 + ratio.imag**2 if tnp.iscomplexobj(ratio) else ratio**2
    return tnp.sqrt(tnp.mean(sq))


def _next_step(dt: Any, ratio: Any) -> Any:
    """The step controller: grow at most 10x, shrink at most 5x (never on success)."""
    floor = tnp.where(ratio < 1, 1.0, 0.2)
    factor = tnp.minimum(10.0, tnp.maximum(ratio ** (-1.0 / 5.0) * 0.9, floor))
    return tnp.where(ratio == 0, dt * 10.0, dt * factor)


def _first_step(
    fun: Callable[..., Any], t0: Any, y0: Any, rtol: float, atol: float, f0: Any
) -> Any:
    """Hairer-Norsett-Wanner's starting step for a method of order 4 (2-norms)."""
    d = y0.dtype
    scale = (atol + tnp.abs(y0) * rtol).astype(d)
    d0 = tnp.linalg.norm(y0 / scale)
    d1 = tnp.linalg.norm(f0 / scale)
    h0 = tnp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1)
    f1 = fun(y0 + h0.astype(d) * f0, t0 + h0)
    d2 = tnp.linalg.norm((f1 - f0) / scale) / h0
    h1 = tnp.where(
        (d1 <= 1e-15) & (d2 <= 1e-15),
        tnp.maximum(1e-6, h0 * 1e-3),
        (0.01 / tnp.maximum(d1, d2)) ** (1.0 / 5.0),
    )
    return tnp.minimum(100.0 * h0, h1)


# -- the integrator -------------------------------------------------------------------------------


def _integrate(
    fun: Callable[..., Any],
    rtol: float,
    atol: float,
    mxstep: float,
    hmax: float,
    y0: Any,
    ts: Any,
    *args: Any,
) -> Any:
    """The solution (flat state ``y0``) at every time of ``ts``."""

    def f(y: Any, t: Any) -> Any:
        return fun(y, t, *args)

    def to_time(carry: list[Any], target: Any) -> tuple[list[Any], Any]:
        def more(state: list[Any]) -> Any:
            i, _, _, t, dt, _, _ = state
            return (t < target) & (i < mxstep) & (dt > 0)

        def step(state: list[Any]) -> list[Any]:
            i, y, fy, t, dt, last_t, coeff = state
            y1, f1, err, k = _rk_step(f, y, fy, t, dt)
            ratio = _error_ratio(err, rtol, atol, y, y1)
            new_coeff = _dense_coefficients(y, y1, k, dt)
            new_dt = tnp.clip(_next_step(dt, ratio), 0.0, hmax)
            ok = ratio <= 1.0
            accepted = [i + 1, y1, f1, t + dt, new_dt, t, new_coeff]
            rejected = [i + 1, y, fy, t, new_dt, last_t, coeff]
            return [tnp.where(ok, a, r) for a, r in zip(accepted, rejected)]

        _, *carry = while_loop(more, step, [0, *carry])
        _, _, t, _, last_t, coeff = carry
        s = (target - last_t) / (t - last_t)
        return carry, tnp.polyval(coeff, s.astype(coeff.dtype))

    f0 = f(y0, ts[0])
    dt = tnp.clip(_first_step(f, ts[0], y0, rtol, atol, f0), 0.0, hmax)
    coeff = tnp.stack([y0] * 5)
    _, ys = scan(to_time, [y0, f0, ts[0], dt, ts[0], coeff], ts[1:])
    return tnp.concatenate([y0[None], ys])


def _integrate_fwd(
    fun: Callable[..., Any],
    rtol: float,
    atol: float,
    mxstep: float,
    hmax: float,
    y0: Any,
    ts: Any,
    *args: Any,
) -> tuple[Any, Any]:
    # the custom_vjp function itself, not ``_integrate``: differentiating the gradient (second
    # order) differentiates these residuals by this rule again, never through the while_loop
    ys = _integrate_vjp(fun, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _integrate_bwd(
    fun: Callable[..., Any],
    rtol: float,
    atol: float,
    mxstep: float,
    hmax: float,
    res: Any,
    g: Any,
) -> tuple[Any, ...]:
    """The adjoint method: between output times, integrate backwards (in negated time) the state
    with its cotangent, the cotangent of the start time and those of ``args``."""
    ys, ts, args = res

    def adjoint(state: Any, minus_t: Any, *a: Any) -> Any:
        y, y_bar, *_ = state
        y_dot, pullback = vjp(fun, y, -minus_t, *a)
        return (-y_dot, *pullback(y_bar))

    def back(carry: Any, i: Any) -> tuple[Any, Any]:
        y_bar, t0_bar, args_bar = carry
        t_bar = tnp.dot(fun(ys[i], ts[i], *args), g[i]).real  # moving the i-th output time
        t0_bar = t0_bar - t_bar
        _, y_bar, t0_bar, args_bar = odeint(
            adjoint,
            (ys[i], y_bar, t0_bar, args_bar),
            tnp.stack([-ts[i], -ts[i - 1]]),
            *args,
            rtol=rtol,
            atol=atol,
            mxstep=mxstep,
            hmax=hmax,
        )
        y_bar, t0_bar, args_bar = tree_map(lambda x: x[1], (y_bar, t0_bar, args_bar))
        return (y_bar + g[i - 1], t0_bar, args_bar), t_bar

    init = (g[-1], tnp.asarray(0.0), tree_map(tnp.zeros_like, args))
    (y_bar, t0_bar, args_bar), rev_ts_bar = scan(back, init, tnp.arange(len(ts) - 1, 0, -1))
    ts_bar = tnp.concatenate([tnp.stack([t0_bar]).astype(rev_ts_bar.dtype), rev_ts_bar[::-1]])
    return (y_bar, ts_bar, *args_bar)


_integrate_vjp = custom_vjp(_integrate, nondiff_argnums=(0, 1, 2, 3, 4))
_integrate_vjp.defvjp(_integrate_fwd, _integrate_bwd)


def _flat_fun(fun: Callable[..., Any], unravel: Callable[[Any], Any]) -> Callable[..., Any]:
    def flat(y: Any, t: Any, *args: Any) -> Any:
        return ravel_pytree(fun(unravel(y), t, *args))[0]

    return flat


@functools.partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _odeint_jit(
    fun: Callable[..., Any],
    rtol: float,
    atol: float,
    mxstep: float,
    hmax: float,
    y0: Any,
    ts: Any,
    *args: Any,
) -> Any:
    flat_y0, unravel = ravel_pytree(y0)
    flat = _flat_fun(fun, unravel)
    out = _integrate_vjp(flat, rtol, atol, mxstep, hmax, flat_y0, ts, *args)
    return vmap(unravel)(out)


def odeint(
    func: Callable[..., Any],
    y0: Any,
    t: Any,
    *args: Any,
    rtol: float = 1.4e-8,
    atol: float = 1.4e-8,
    mxstep: float = math.inf,
    hmax: float = math.inf,
) -> Any:
    """The solution of ``dy/dt = func(y, t, *args)``, ``y(t[0]) = y0``, at every time of ``t``
    (strictly increasing floats): a pytree like ``y0`` with a leading axis of ``len(t)``.

    ``rtol``/``atol`` bound the local error of each step, ``mxstep`` the number of steps per
    output time (the solution stops where it is reached), ``hmax`` the step size.

    >>> import trellax.numpy as tnp
    >>> ys = odeint(lambda y, t: -y, 1.0, tnp.array([0.0, 1.0]))
    >>> round(float(ys[1]), 5)
    0.36788
    """
    for a in tree_leaves(args):
        if not (hasattr(a, "dtype") or isinstance(a, (int, float, complex, bool))):
            raise TypeError(f"The contents of odeint *args must be arrays or scalars, but got {a}.")
    t = tnp.asarray(t)
    if not dtypes.issubdtype(t.dtype, np.floating):
        raise TypeError(f"t must be an array of floats, but got {t}.")
    converted, consts = closure_convert(func, y0, t[0], *args)
    return _odeint_jit(converted, rtol, atol, mxstep, hmax, y0, t, *args, *consts)
