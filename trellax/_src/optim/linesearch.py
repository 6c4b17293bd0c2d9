"""Linesearches: ``scale_by_backtracking_linesearch`` (Armijo's sufficient decrease, by
shrinking the step) and ``scale_by_zoom_linesearch`` (sufficient decrease and small curvature:
an interval search, then a zoom by cubic, quadratic or bisection steps, Nocedal and Wright's
Algorithms 3.5 and 3.6 with Hager and Zhang's approximate decrease), and
``value_and_grad_from_state``, which reuses the value and gradient a linesearch stored.

The states are optax 0.2.8's (``ScaleByBacktrackingLinesearchState``,
``ScaleByZoomLinesearchState`` and their info tuples). The search loops are ``lax.while_loop``
and ``lax.cond``, so an update may be traced; every round's carry is cast back to the dtypes
it started with, as optax does, and starts without weak types (what JAX's loop does to a
carry whose body returns strong types).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.autodiff import value_and_grad, vjp
from trellax._src.optim import tree_math as tm
from trellax._src.optim.base import GradientTransformationExtraArgs, Params, Updates, safe_increment
from trellax._src.optim.fma import fma
from trellax.tree_util import tree_leaves, tree_map


class BacktrackingLinesearchInfo(NamedTuple):
    """The number of trial steps of the last round and its final decrease error (0 when a
    step with sufficient decrease was found)."""

    num_linesearch_steps: Any
    decrease_error: Any


class ScaleByBacktrackingLinesearchState(NamedTuple):
    """The step size, value and (with ``store_grad``, else ``None``) gradient at the end of
    the last round, and its :class:`BacktrackingLinesearchInfo`."""

    learning_rate: Any
    value: Any
    grad: Any
    info: BacktrackingLinesearchInfo


class ZoomLinesearchInfo(NamedTuple):
    """The number of trial steps of the last round and the final decrease and curvature
    errors (both 0 when the step satisfies the two criteria)."""

    num_linesearch_steps: Any
    decrease_error: Any
    curvature_error: Any


class ScaleByZoomLinesearchState(NamedTuple):
    """The step size, value and gradient at the end of the last round, and its
    :class:`ZoomLinesearchInfo`."""

    learning_rate: Any
    value: Any
    grad: Any
    info: ZoomLinesearchInfo


def _value_dtype(params: Params) -> Any:
    return jnp.real(jnp.empty((), jnp.result_type(tree_leaves(params)[0]))).dtype


def _strong(tree: Any) -> Any:
    """``tree`` with every leaf an array of its own dtype, without weak types."""
    return tm.cast_like(tree, tree)


def _split_kwargs(value_fn: Callable[..., Any], extra: dict[str, Any], name: str) -> dict[str, Any]:
    """The extra keywords ``value_fn`` names; any other is an error."""
    names = list(inspect.signature(value_fn).parameters)
    unused = sorted(k for k in extra if k not in names)
    if unused:
        raise TypeError(
            f"Unexpected keyword arguments passed to `{name}.update`. These arguments were not "
            f"consumed by `value_fn`: {unused}. Ensure that all extra keyword arguments are "
            "accepted by `value_fn`."
        )
    return {k: v for k, v in extra.items() if k in names}


def fused_add_scale(tree_x: Any, scalar: Any, tree_y: Any) -> Any:
    """``x + scalar * y`` leaf by leaf as optax's compiled loops compute it: XLA contracts the
    float32 and float64 product and sum into one fused multiply-add (half-precision leaves
    are rounded after each operation there, so they are not fused)."""
    s = jnp.asarray(scalar)

    def one(x: Any, y: Any) -> Any:
        if jnp.result_type(x, s, y) in (jnp.float32, jnp.float64):
            return fma(s, y, x)
        return x + s * y

    return tree_map(one, tree_x, tree_y)


def _nan_to_inf(x: Any) -> Any:
    return jnp.where(jnp.isnan(x), jnp.inf, x)


class _Trial(NamedTuple):
    """A backtracking round's carry."""

    learning_rate: Any
    value: Any
    grad: Any
    error: Any
    steps: Any


def scale_by_backtracking_linesearch(
    max_backtracking_steps: Any,
    slope_rtol: Any = 0.0001,
    decrease_factor: Any = 0.8,
    increase_factor: Any = 1.5,
    max_learning_rate: Any = 1.0,
    atol: Any = 0.0,
    rtol: Any = 0.0,
    store_grad: bool = False,
    verbose: bool = False,
) -> GradientTransformationExtraArgs:
    """Scales the updates ``u`` by a step ``eta`` with sufficient decrease,
    ``f(w + eta u) <= (1 + rtol) f(w) + eta slope_rtol <u, grad f(w)> + atol``: the first trial
    is the last round's step times ``increase_factor`` (at most ``max_learning_rate``), each
    next one ``decrease_factor`` times smaller, for at most ``max_backtracking_steps`` more
    trials. A step whose value is not finite becomes 0. ``update`` takes ``value``, ``grad`` and
    ``value_fn`` keywords, and any keyword ``value_fn`` takes. ``verbose`` is accepted and
    prints nothing."""
    del verbose

    def init_fn(params: Params) -> ScaleByBacktrackingLinesearchState:
        kind = _value_dtype(params)
        return ScaleByBacktrackingLinesearchState(
            learning_rate=jnp.array(1.0, dtype=kind),
            value=jnp.array(jnp.inf, dtype=kind),
            grad=tm.zeros_like(params) if store_grad else None,
            info=BacktrackingLinesearchInfo(
                num_linesearch_steps=jnp.asarray(0),
                decrease_error=jnp.array(jnp.inf, dtype=kind),
            ),
        )

    def update_fn(
        updates: Updates,
        state: ScaleByBacktrackingLinesearchState,
        params: Params,
        *,
        value: Any,
        grad: Updates,
        value_fn: Callable[..., Any],
        **extra_args: Any,
    ) -> tuple[Updates, ScaleByBacktrackingLinesearchState]:
        kwargs = _split_kwargs(value_fn, extra_args, "scale_by_backtracking_linesearch")
        slope = tm.real(tm.vdot(updates, tm.conj(grad)))

        def objective(p: Params) -> Any:
            return value_fn(p, **kwargs)

        def shortfall(eta: Any, new_value: Any) -> Any:
            excess = new_value - (1.0 + rtol) * value - eta * slope_rtol * slope
            return jnp.maximum(_nan_to_inf(excess), 0.0)

        def keep_going(trial: _Trial) -> Any:
            return (~(trial.error <= atol)) & (trial.steps <= max_backtracking_steps)

        def one_trial(trial: _Trial) -> _Trial:
            eta = jnp.where(
                trial.steps > 0, decrease_factor * trial.learning_rate, trial.learning_rate
            )
            candidate = fused_add_scale(params, eta, updates)
            new_grad = trial.grad
            if store_grad:
                new_value, pullback = vjp(objective, candidate)
                error = shortfall(eta, new_value)
                new_grad = lax.cond(
                    (error <= atol) | (trial.steps == max_backtracking_steps),
                    lambda: pullback(jnp.ones_like(new_value))[0],
                    lambda: trial.grad,
                )
            else:
                new_value = objective(candidate)
                error = shortfall(eta, new_value)
            out = _Trial(eta, new_value, new_grad, error, trial.steps + 1)
            cast: _Trial = tm.cast_like(out, trial)
            return cast

        start = _Trial(
            learning_rate=jnp.minimum(increase_factor * state.learning_rate, max_learning_rate),
            value=value,
            grad=tm.zeros_like(params),
            error=jnp.array(jnp.inf),
            steps=0,
        )
        last = lax.while_loop(keep_going, one_trial, _strong(start))
        eta = jnp.where(jnp.isinf(last.error), 0.0, last.learning_rate)
        new_state = ScaleByBacktrackingLinesearchState(
            learning_rate=eta,
            value=last.value,
            grad=last.grad if store_grad else None,
            info=BacktrackingLinesearchInfo(last.steps, last.error),
        )
        return tm.scale(eta, updates), tm.cast_like(new_state, state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


class _Zoom(NamedTuple):
    """A zoom round's carry: the trial count, the last trial (step, value, gradient, slope)
    and its errors, the flags, the bracket ``[low, high]`` with values and slopes, the third
    point of the cubic fit, and the best step with sufficient decrease seen (``safe``)."""

    count: Any
    guess: Any
    step: Any
    value: Any
    grad: Any
    slope: Any
    decrease_error: Any
    curvature_error: Any
    bracketed: Any
    done: Any
    failed: Any
    low: Any
    value_low: Any
    slope_low: Any
    high: Any
    value_high: Any
    slope_high: Any
    ref: Any
    value_ref: Any
    safe: Any
    value_safe: Any
    grad_safe: Any


def _cubic_minimizer(a: Any, fa: Any, da: Any, b: Any, fb: Any, c: Any, fc: Any) -> Any:
    """The critical point (right of the inflection) of the cubic through ``(a, fa)``,
    ``(b, fb)`` and ``(c, fc)`` with slope ``da`` at ``a``; NaN when it has none."""
    db, dc = b - a, c - a
    rb, rc = fb - fa - da * db, fc - fa - da * dc
    denom = (db * dc) ** 2 * (db - dc)
    matrix = jnp.array([[dc**2, -(db**2)], [-(dc**3), db**3]])
    cubic, quad = jnp.dot(matrix, jnp.array([rb, rc]), precision="highest") / denom
    disc = quad * quad - 3.0 * cubic * da
    return a + (-quad + jnp.sqrt(disc)) / (3.0 * cubic)


def _quadratic_minimizer(a: Any, fa: Any, da: Any, b: Any, fb: Any) -> Any:
    """The critical point of the parabola through ``(a, fa)`` and ``(b, fb)`` with slope
    ``da`` at ``a``."""
    db = b - a
    curvature = (fb - fa - da * db) / (db**2)
    return a - da / (2.0 * curvature)


def scale_by_zoom_linesearch(
    max_linesearch_steps: Any,
    max_learning_rate: Any = None,
    tol: Any = 0.0,
    increase_factor: Any = 2.0,
    slope_rtol: Any = 0.0001,
    curv_rtol: Any = 0.9,
    approx_dec_rtol: Any = 1e-06,
    stepsize_precision: Any = 1e-05,
    initial_guess_strategy: str = "keep",
    verbose: bool = False,
) -> GradientTransformationExtraArgs:
    """Scales the updates ``u`` by a step ``eta`` that satisfies the sufficient decrease
    ``f(w + eta u) <= f(w) + slope_rtol eta <u, grad f(w)>`` (or, with ``approx_dec_rtol``,
    Hager and Zhang's approximate version) and the small curvature
    ``|<u, grad f(w + eta u)>| <= curv_rtol |<u, grad f(w)>|``, both up to ``tol``. The first
    trial is 1 (``initial_guess_strategy='one'``) or the last round's step (``'keep'``), grown
    by ``increase_factor`` (capped at ``max_learning_rate``) until an interval holding such a
    step is found, which is then narrowed by cubic or quadratic interpolation or bisection.
    After ``max_linesearch_steps`` trials, or once the interval is shorter than
    ``stepsize_precision``, it takes the best step with sufficient decrease seen (the last
    trial when there is none). The state keeps the value and
    gradient at the chosen step for :func:`value_and_grad_from_state`. ``update`` takes
    ``value``, ``grad`` and ``value_fn`` keywords, and any keyword ``value_fn`` takes.
    ``verbose`` is accepted and prints nothing."""
    del verbose
    if initial_guess_strategy not in ("one", "keep"):
        raise ValueError(f"Unknown initial guess strategy: {initial_guess_strategy}")

    def decrease_error(step: Any, value: Any, slope: Any, value0: Any, slope0: Any) -> Any:
        error = value - value0 - slope_rtol * step * slope0
        if approx_dec_rtol is not None:
            approx = jnp.maximum(
                slope - (2 * slope_rtol - 1.0) * slope0,
                value - value0 - approx_dec_rtol * jnp.abs(value0),
            )
            error = jnp.minimum(approx, error)
        return _nan_to_inf(jnp.maximum(error, 0.0))

    def curvature_error(slope: Any, slope0: Any) -> Any:
        return _nan_to_inf(jnp.maximum(jnp.abs(slope) - curv_rtol * jnp.abs(slope0), 0.0))

    def run(
        updates: Updates,
        params: Params,
        value0: Any,
        grad0: Updates,
        guess: Any,
        vg: Callable[..., Any],
        kwargs: dict[str, Any],
    ) -> _Zoom:
        slope0 = tm.real(tm.vdot(updates, grad0))
        kind = _value_dtype(params)
        zero = jnp.asarray(0.0)
        inf = jnp.asarray(jnp.inf)
        no = jnp.asarray(False)

        def trial(step: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
            value, grad = vg(fused_add_scale(params, step, updates), **kwargs)
            slope = tm.real(tm.vdot(tm.conj(grad), updates))
            dec = decrease_error(step, value, slope, value0, slope0)
            return (
                value,
                grad,
                slope,
                dec,
                curvature_error(slope, slope0),
                jnp.maximum(dec, curvature_error(slope, slope0)),
            )

        def search(z: _Zoom) -> _Zoom:
            step = jnp.where(z.count == 0, z.guess, increase_factor * z.step)
            at_cap: Any = jnp.asarray(False)
            if max_learning_rate is not None:
                at_cap = step >= max_learning_rate
                step = jnp.minimum(step, max_learning_rate)
            value, grad, slope, dec, curv, error = trial(step)
            safe, value_safe, grad_safe = tm.where(
                dec <= tol, [step, value, grad], [z.safe, z.value_safe, z.grad_safe]
            )
            too_far = (dec > 0.0) | ((value >= z.value) & (z.count > 0))
            uphill = (slope >= 0.0) & ~too_far
            old, new = [z.step, z.value, z.slope], [step, value, slope]
            low, value_low, slope_low, high, value_high, slope_high = tm.where(
                uphill, new + old, old + new
            )
            bracketed = too_far | uphill | (error <= tol)
            done = (error <= tol) | (at_cap & ~bracketed)
            out = _Zoom(
                safe_increment(z.count), z.guess, step, value, grad, slope, dec, curv,
                jnp.asarray(bracketed), jnp.asarray(done),
                jnp.asarray((z.count + 1 >= max_linesearch_steps) & ~done),
                low, value_low, slope_low, high, value_high, slope_high, low, value_low,
                safe, value_safe, grad_safe,
            )  # fmt: skip
            cast: _Zoom = tm.cast_like(out, z)
            return cast

        def zoom(z: _Zoom) -> _Zoom:
            width = jnp.abs(z.high - z.low)
            left, right = jnp.minimum(z.high, z.low), jnp.maximum(z.high, z.low)
            cubic = _cubic_minimizer(
                z.low, z.value_low, z.slope_low, z.high, z.value_high, z.ref, z.value_ref
            )
            use_cubic = (cubic > left + 0.2 * width) & (cubic < right - 0.2 * width)
            quad = _quadratic_minimizer(z.low, z.value_low, z.slope_low, z.high, z.value_high)
            use_quad = ~use_cubic & (quad > left + 0.1 * width) & (quad < right - 0.1 * width)
            step = jnp.where(use_cubic, cubic, z.ref)
            step = jnp.where(use_quad, quad, step)
            step = jnp.where(~use_cubic & ~use_quad, (z.low + z.high) / 2.0, step)
            value, grad, slope, dec, curv, error = trial(step)
            better = (dec <= tol) & (value < z.value_safe)
            safe, value_safe, grad_safe = tm.where(
                better, [step, value, grad], [z.safe, z.value_safe, z.grad_safe]
            )
            done = error <= tol
            to_high = (dec > 0.0) | (value >= z.value_low)
            flip = (slope * (z.high - z.low) >= 0.0) & ~to_high
            new, low_pt = [step, value, slope], [z.low, z.value_low, z.slope_low]
            high_pt = tm.where(to_high, new, [z.high, z.value_high, z.slope_high])
            high, value_high, slope_high = tm.where(flip, low_pt, high_pt)
            low, value_low, slope_low = tm.where(~to_high, new, low_pt)
            ref, value_ref = tm.where(to_high | flip, [z.high, z.value_high], [z.low, z.value_low])
            give_up = ((z.count + 1) >= max_linesearch_steps) | (
                (width <= stepsize_precision) & (safe > 0.0)
            )
            out = _Zoom(
                safe_increment(z.count), z.guess, step, value, grad, slope, dec, curv,
                z.bracketed, done, give_up & ~done,
                low, value_low, slope_low, high, value_high, slope_high, ref, value_ref,
                safe, value_safe, grad_safe,
            )  # fmt: skip
            cast: _Zoom = tm.cast_like(out, z)
            return cast

        def fall_back(z: _Zoom) -> _Zoom:
            use_safe = (z.safe > 0.0) | jnp.isinf(z.decrease_error)
            step, value, grad = tm.where(
                use_safe, [z.safe, z.value_safe, z.grad_safe], [z.step, z.value, z.grad]
            )
            cast: _Zoom = tm.cast_like(z._replace(step=step, value=value, grad=grad), z)
            return cast

        def one_round(z: _Zoom) -> _Zoom:
            z = tm.cast_like(lax.cond(z.bracketed, zoom, search, z), z)
            cast: _Zoom = tm.cast_like(lax.cond(z.failed, fall_back, lambda s: s, z), z)
            return cast

        start = _Zoom(
            jnp.asarray(0), guess, jnp.asarray(0.0, dtype=kind), jnp.array(value0, dtype=kind),
            grad0, slope0, inf, inf, no, no, no, zero, value0, slope0, zero, value0, slope0,
            zero, value0, zero, value0, grad0,
        )  # fmt: skip
        last: _Zoom = lax.while_loop(lambda z: ~(z.done | z.failed), one_round, _strong(start))
        return last

    def init_fn(params: Params) -> ScaleByZoomLinesearchState:
        kind = _value_dtype(params)
        return ScaleByZoomLinesearchState(
            learning_rate=jnp.asarray(1.0, dtype=kind),
            value=jnp.asarray(jnp.inf, dtype=kind),
            grad=tm.zeros_like(params),
            info=ZoomLinesearchInfo(
                num_linesearch_steps=jnp.asarray(0),
                decrease_error=jnp.asarray(jnp.inf),
                curvature_error=jnp.asarray(jnp.inf),
            ),
        )

    def update_fn(
        updates: Updates,
        state: ScaleByZoomLinesearchState,
        params: Params,
        *,
        value: Any,
        grad: Updates,
        value_fn: Callable[..., Any],
        **extra_args: Any,
    ) -> tuple[Updates, ScaleByZoomLinesearchState]:
        kwargs = _split_kwargs(value_fn, extra_args, "scale_by_zoom_linesearch")
        guess = jnp.asarray(1.0) if initial_guess_strategy == "one" else state.learning_rate
        last = run(updates, params, value, grad, guess, value_and_grad(value_fn), kwargs)
        new_state = ScaleByZoomLinesearchState(
            learning_rate=last.step,
            value=last.value,
            grad=last.grad,
            info=ZoomLinesearchInfo(last.count, last.decrease_error, last.curvature_error),
        )
        return tm.scale(last.step, updates), tm.cast_like(new_state, state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


def _find(tree: Any, name: str) -> list[Any]:
    """Every field ``name`` of a NamedTuple inside ``tree`` (states nest tuples, lists, dicts
    and NamedTuples)."""
    found: list[Any] = []
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        if name in tree._fields:
            found.append(getattr(tree, name))
        for child in tree:
            found += _find(child, name)
    elif isinstance(tree, (tuple, list)):
        for child in tree:
            found += _find(child, name)
    elif isinstance(tree, dict):
        for child in tree.values():
            found += _find(child, name)
    return found


def value_and_grad_from_state(
    value_fn: Callable[..., Any],
) -> Callable[..., tuple[Any, Any]]:
    """Like ``trellax.value_and_grad(value_fn)``, but the returned function takes the
    optimizer's state as the keyword ``state`` and returns the ``value`` and ``grad`` a
    linesearch stored there, unless the value is infinite or NaN (as before the first step),
    when it evaluates ``value_fn``. The state must hold exactly one ``value`` and one ``grad``
    field (a ``ValueError`` otherwise, e.g. for a backtracking linesearch without
    ``store_grad``)."""

    def _value_and_grad(
        params: Params, *fn_args: Any, state: Any, **fn_kwargs: Any
    ) -> tuple[Any, Any]:
        values, grads = _find(state, "value"), _find(state, "grad")
        if len(values) > 1 or len(grads) > 1:
            raise KeyError("Found multiple values or gradients in the state.")
        if not values or not grads or grads[0] is None:
            raise ValueError(
                "Value or gradient not found in the state. Make sure that these values are "
                "stored in the state by the optimizer."
            )
        value, grad = values[0], grads[0]
        stored: tuple[Any, Any] = lax.cond(
            jnp.isfinite(value),
            lambda *_: (value, grad),
            lambda p, a, kw: value_and_grad(value_fn)(p, *a, **kw),
            params,
            fn_args,
            fn_kwargs,
        )
        return stored

    return _value_and_grad
