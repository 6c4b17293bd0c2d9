"""``lax.custom_root``: a root finder differentiated implicitly.

``custom_root(f, initial_guess, solve, tangent_solve)`` returns ``solve(f, initial_guess)``, a
root ``x`` of ``f``. ``solve`` is never differentiated (its result has no derivative through the
iterations, nor through ``initial_guess``); instead, at ``f(x, theta) = 0`` the implicit
function theorem gives ``x_dot = -(df/dx)^-1 (df/dtheta theta_dot)``, computed with
``tangent_solve(g, y)``, which solves ``g(v) = y`` for the linear map ``g = df/dx`` at the
root. The linear solve is :func:`custom_linear_solve` with ``symmetric=True`` (as JAX), so
reverse mode transposes it with ``tangent_solve`` too.

The correction is added as ``c - stop_gradient(c)``, exactly zero, so the returned primal is
``solve``'s output bit for bit; it is computed only when a derivative is being taken, once per
enclosing differentiation (so higher derivatives are implicit ones too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.api.autodiff import jvp
from trellax._src.core import core
from trellax._src.custom.linear_solve import custom_linear_solve, trace_closure
from trellax._src.interpreters import tracing
from trellax._src.interpreters.ad import JVPTrace
from trellax._src.lax import elementwise as ew
from trellax._src.lax._base import asarray
from trellax._src.lax.stop_gradient import stop_gradient
from trellax._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten


def _derivative_order() -> int:
    """How many differentiations enclose the call (nested JVP traces)."""
    n = 0
    trace: Any = core.current_trace()
    while trace is not None:
        n += isinstance(trace, JVPTrace)
        trace = trace.parent
    return n


def custom_root(
    f: Callable[[Any], Any],
    initial_guess: Any,
    solve: Callable[[Callable[[Any], Any], Any], Any],
    tangent_solve: Callable[[Callable[[Any], Any], Any], Any],
    has_aux: bool = False,
) -> Any:
    """A root of ``f`` found by ``solve(f, initial_guess)``, differentiable with respect to the
    values ``f`` closes over (implicit differentiation). With ``has_aux``, ``solve`` returns
    ``(root, aux)`` and so does ``custom_root``.

    >>> import trellax, trellax.numpy as tnp
    >>> def sqrt(a):
    ...     newton = lambda f, x: x - f(x) / (2 * x)   # one step is enough for the example
    ...     solve = lambda f, x: newton(f, newton(f, newton(f, newton(f, x))))
    ...     return trellax.lax.custom_root(lambda x: x * x - a, a, solve, lambda g, y: y / g(1.0))
    >>> trellax.grad(sqrt)(4.0)
    Array(0.25, dtype=float32, weak_type=True)
    """
    g_leaves, g_tree = tree_flatten(initial_guess)
    guess = [asarray(x) for x in g_leaves]
    avals = [core.get_aval(x) for x in guess]
    f_jaxpr, consts, out_tree = trace_closure(f, avals, g_tree, "f")
    if out_tree != g_tree:
        raise TypeError(
            f"f() output pytree structure must match initial_guess, got {out_tree} and {g_tree}."
        )

    def f_at(cs: list[Any]) -> Callable[[Any], Any]:
        def fun(x: Any) -> Any:
            leaves, _ = tree_flatten(x)
            out = tracing.eval_jaxpr(f_jaxpr, *cs, *[asarray(v) for v in leaves])
            return tree_unflatten(g_tree, out)

        return fun

    stopped = [stop_gradient(c) for c in consts]
    result = solve(f_at(stopped), tree_unflatten(g_tree, [stop_gradient(x) for x in guess]))
    root, aux = result if has_aux else (result, None)
    root = tree_map(stop_gradient, root)
    order = _derivative_order() if consts else 0
    if not order:  # JAX traces tangent_solve in any case: its errors show without derivatives
        tracing.trace_to_jaxpr(
            lambda *xs: tree_flatten(
                _newton_tangents(f, tree_unflatten(g_tree, list(xs)), tangent_solve)
            )[0],
            avals,
            "tangent_solve",
        )
    for _ in range(order):
        root = _newton_tangents(f_at(consts), root, tangent_solve)
    return (root, aux) if has_aux else root


def _newton_tangents(
    f: Callable[[Any], Any], x: Any, tangent_solve: Callable[[Callable[[Any], Any], Any], Any]
) -> Any:
    """``x - (s - stop_gradient(s))`` with ``s`` the Newton step ``(df/dx)^-1 f(x)``: the value
    of ``x`` exactly, with derivatives one order more accurate (the first application turns
    ``x``'s zero derivative into the implicit one; each further one fixes the next order)."""

    def as_tangent(v: Any, p: Any) -> Any:
        v = asarray(v)
        if v.shape != p.shape or v.dtype != p.dtype:
            raise ValueError(
                "linearized function called on tangent values inconsistent with the original "
                f"primal values: got tangent {core.get_aval(v).str_short()} for primal "
                f"{core.get_aval(p).str_short()}"
            )
        return v

    residual = f(x)  # ~0 at the root; its tangent is f_x x_dot + f_theta theta_dot
    step = custom_linear_solve(
        lambda v: jvp(f, (x,), (tree_map(as_tangent, v, x),))[1],
        residual,
        tangent_solve,
        symmetric=True,
    )
    return tree_map(lambda r, s: ew.sub(r, ew.sub(s, stop_gradient(s))), x, step)
