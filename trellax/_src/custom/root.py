"""``lax.custom_root``: a root finder differentiated implicitly.

``custom_root(f, initial_guess, solve, tangent_solve)`` returns ``solve(f, initial_guess)``, a
root ``x`` of ``f``. ``solve`` is never differentiated (its result has no derivative through the
iterations, nor through ``initial_guess`` or the values ``solve`` closes over); instead, at
``f(x, theta) = 0`` the implicit function theorem gives
``x_dot = -(df/dx)^-1 (df/dtheta theta_dot)``, computed with ``tangent_solve(g, y)``, which
solves ``g(v) = y`` for the linear map ``g = df/dx`` at the root.

As in JAX, the three functions are traced once, at the call, to jaxprs (``f``, ``solve(f, .)``
and ``(x, y) -> tangent_solve(linearize(f, x), y)``); their closed-over values are the
differentiable operands of a ``custom_jvp`` function whose rule is the implicit derivative. The
rule itself is written with those jaxprs, so its derivatives (higher orders, and reverse mode,
which transposes ``tangent_solve``'s jaxpr in its second argument) are taken as for any code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.api.autodiff import jvp, linearize
from trellax._src.core import core
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.custom.linear_solve import check_tree, trace_closure
from trellax._src.custom.staged import _Static
from trellax._src.interpreters import tracing
from trellax._src.lax import elementwise as ew
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import tangent_aval, zeros
from trellax._src.tree.tree_util import tree_flatten, tree_structure, tree_unflatten


class _Root:
    """The traced problem: the three jaxprs and how many closed-over values each takes."""

    __slots__ = ("counts", "f", "n", "solve", "tangent_solve")

    def __init__(self, f: Any, solve: Any, tangent_solve: Any, counts: tuple[int, int, int]):
        self.f, self.solve, self.tangent_solve, self.counts = f, solve, tangent_solve, counts
        self.n = len(f.out_avals)

    def split(self, args: Sequence[Any]) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
        a, b, c = self.counts
        return (
            list(args[:a]),
            list(args[a : a + b]),
            list(args[a + b : a + b + c]),
            list(args[a + b + c :]),
        )


def _solve(info: _Static, *args: Any) -> tuple[Any, ...]:
    root: _Root = info.value
    _, s_c, _, guess = root.split(args)
    return tuple(tracing.eval_jaxpr(root.solve, *s_c, *guess))


_custom_root = custom_jvp(_solve, nondiff_argnums=(0,))


@_custom_root.defjvp
def _root_jvp(
    info: _Static, primals: tuple[Any, ...], tangents: tuple[Any, ...]
) -> tuple[Any, Any]:
    """``f(x, theta) = 0`` gives ``f_x x_dot = -f_theta theta_dot``, solved by ``tangent_solve``
    (the tangents of ``solve``'s own closed-over values and of the guess are ignored)."""
    root: _Root = info.value
    f_c, _, ls_c, _ = root.split(primals)
    f_dot = root.split(tangents)[0]
    out = _custom_root(info, *primals)
    solution, aux = list(out[: root.n]), list(out[root.n :])
    _, rhs = jvp(lambda *c: tracing.eval_jaxpr(root.f, *c, *solution), tuple(f_c), tuple(f_dot))
    step = tracing.eval_jaxpr(root.tangent_solve, *ls_c, *solution, *rhs)
    x_dot = [ew.neg(s) for s in step]
    return out, (*x_dot, *[zeros(tangent_aval(core.get_aval(a))) for a in aux])


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
    f_jaxpr, f_c, f_tree = trace_closure(f, avals, g_tree, "f")
    check_tree("f", "initial_guess", f_tree, g_tree)
    s_jaxpr, s_c, s_tree = trace_closure(lambda x: solve(f, x), avals, g_tree, "solve")
    check_tree("solve", "initial_guess", s_tree, g_tree, has_aux)

    def linearize_and_solve(xb: tuple[Any, Any]) -> Any:
        _, f_jvp = linearize(f, xb[0])
        return tangent_solve(f_jvp, xb[1])

    pair = tree_structure((initial_guess, initial_guess))
    ls_jaxpr, ls_c, ls_tree = trace_closure(
        linearize_and_solve, [*avals, *avals], pair, "tangent_solve"
    )
    check_tree("tangent_solve", "x", ls_tree, g_tree)
    info = _Static(_Root(f_jaxpr, s_jaxpr, ls_jaxpr, (len(f_c), len(s_c), len(ls_c))), "root")
    out = _custom_root(info, *f_c, *s_c, *ls_c, *guess)
    return tree_unflatten(s_tree, list(out))
