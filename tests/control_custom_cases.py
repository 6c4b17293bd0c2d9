"""Cases whose values trellax must share with JAX: implicit derivatives (``custom_root``,
``custom_linear_solve``) and custom rules inside control flow.

Each case is ``name -> build(ns) -> (function, args)`` where ``ns`` is the library (``jax`` or
``trellax``); ``tools/gen_golden_control_custom.py`` evaluates every case's value, first
derivatives and some second derivatives under JAX into ``tests/golden/control_custom.json``,
and ``tests/test_control_custom.py`` compares trellax's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

Case = Callable[[Any], tuple[Callable[..., Any], tuple[Any, ...]]]


def _rng_args(*shapes: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    rng = np.random.RandomState(0)
    return tuple(rng.randn(*s).astype(np.float32) for s in shapes)


def _dot(ns: Any, a: Any, b: Any) -> Any:
    return ns.lax.dot(a, b, precision=ns.lax.Precision.HIGHEST)


def _explicit_solve(ns: Any) -> Callable[..., Any]:
    def solve(matvec: Any, b: Any) -> Any:
        return ns.lax.stop_gradient(ns.numpy.linalg.solve(ns.jacobian(matvec)(b), b))

    return solve


def linear_solve_nonsymmetric(ns: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """A general matrix with an explicit transpose solve: reverse mode must solve with A^T."""
    s = _explicit_solve(ns)

    def f(a: Any, b: Any) -> Any:
        return ns.lax.custom_linear_solve(partial(_dot, ns, a), b, s, s)

    return f, _rng_args((3, 3), (3,))


def linear_solve_nonlinear(ns: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """The operator and right-hand side are nonlinear in the arguments."""
    s = _explicit_solve(ns)

    def f(a: Any, b: Any) -> Any:
        m = partial(_dot, ns, ns.numpy.exp(a))
        return ns.lax.custom_linear_solve(m, ns.numpy.cos(b), s, s)

    return f, _rng_args((2, 2), (2,))


def linear_solve_aux(ns: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """``has_aux``: the auxiliary outputs have zero derivatives."""

    def solve(matvec: Any, b: Any) -> Any:
        x = ns.lax.stop_gradient(ns.numpy.linalg.solve(ns.jacobian(matvec)(b), b))
        return x, {"n": ns.numpy.float32(3.0)}

    def f(a: Any, b: Any) -> Any:
        a = a + a.T
        x, aux = ns.lax.custom_linear_solve(
            partial(_dot, ns, a), b, solve, solve, symmetric=True, has_aux=True
        )
        return x * aux["n"]

    return f, _rng_args((3, 3), (3,))


def linear_solve_vmapped(ns: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """``vmap`` over a batch of problems, differentiated afterwards (the solve stays implicit:
    the explicit solve stops gradients, so differentiating through it would give zero)."""
    s = _explicit_solve(ns)

    def one(a: Any, b: Any) -> Any:
        return ns.lax.custom_linear_solve(partial(_dot, ns, a), b, s, s)

    def f(a: Any, b: Any) -> Any:
        return ns.vmap(one)(a, b)

    return f, _rng_args((2, 3, 3), (2, 3))


def linear_solve_vmapped_b(ns: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """Only ``b`` batched: the operator's values stay unbatched inside the primitive."""
    s = _explicit_solve(ns)

    def one(a: Any, b: Any) -> Any:
        return ns.lax.custom_linear_solve(partial(_dot, ns, a), b, s, s)

    def f(a: Any, b: Any) -> Any:
        return ns.vmap(one, (None, 1), 1)(a, b)

    return f, _rng_args((3, 3), (3, 2))


def root_solve_closure(ns: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """A nonsymmetric Jacobian and a ``solve`` closing over differentiated values (whose own
    derivative must be ignored)."""

    def tangent_solve(g: Any, y: Any) -> Any:
        return ns.numpy.linalg.solve(ns.jacobian(g)(y), y)

    def f(a: Any, b: Any) -> Any:
        fun = lambda y: _dot(ns, a, y) - b  # noqa: E731
        solution = ns.numpy.linalg.solve(a, b)
        return ns.lax.custom_root(
            fun, ns.numpy.zeros_like(b), lambda _, x0: solution, tangent_solve
        )

    return f, _rng_args((2, 2), (2,))


def root_nonlinear(ns: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """A nonlinear system solved by Newton's method in a ``while_loop``."""

    def newton(fun: Any, x0: Any) -> Any:
        def body(carry: Any) -> Any:
            i, x = carry
            j = ns.jacobian(fun)(x)
            return i + 1, x - ns.numpy.linalg.solve(j, fun(x))

        return ns.lax.while_loop(lambda c: c[0] < 20, body, (0, x0))[1]

    def tangent_solve(g: Any, y: Any) -> Any:
        return ns.numpy.linalg.solve(ns.jacobian(g)(y), y)

    def f(a: Any, b: Any) -> Any:
        fun = lambda y: _dot(ns, a, y) + 0.1 * ns.numpy.sin(y) - b  # noqa: E731
        return ns.lax.custom_root(fun, ns.numpy.zeros_like(b), newton, tangent_solve)

    a, b = _rng_args((2, 2), (2,))
    return f, (a + 3 * np.eye(2, dtype=np.float32), b)


CASES: dict[str, Case] = {
    "linear_solve_nonsymmetric": linear_solve_nonsymmetric,
    "linear_solve_nonlinear": linear_solve_nonlinear,
    "linear_solve_aux": linear_solve_aux,
    "linear_solve_vmapped": linear_solve_vmapped,
    "linear_solve_vmapped_b": linear_solve_vmapped_b,
    "root_solve_closure": root_solve_closure,
    "root_nonlinear": root_nonlinear,
}


def _tangents(args: tuple[Any, ...]) -> tuple[np.ndarray, ...]:
    rng = np.random.RandomState(1)
    return tuple(rng.randn(*np.shape(a)).astype(np.float32) for a in args)


def measure(ns: Any, name: str) -> dict[str, Any]:
    """The case's value, JVP, gradient of a random projection (reverse mode), and the JVPs of
    the JVP (forward over forward) and of that gradient (forward over reverse)."""
    f, args = CASES[name](ns)
    ts = _tangents(args)
    w = np.random.RandomState(2).randn(*np.shape(f(*args))).astype(np.float32)

    def loss(*a: Any) -> Any:
        return ns.numpy.sum(f(*a) * w)

    def jvp_out(*a: Any) -> Any:
        return ns.jvp(f, a, ts)[1]

    grad = ns.grad(loss, argnums=tuple(range(len(args))))

    def flat(x: Any) -> list[Any]:
        return [np.asarray(v, np.float64).ravel().tolist() for v in ns.tree_util.tree_leaves(x)]

    return {
        "value": flat(f(*args)),
        "jvp": flat(jvp_out(*args)),
        "grad": flat(grad(*args)),
        "jvp_of_jvp": flat(ns.jvp(jvp_out, args, ts)[1]),
        "jvp_of_grad": flat(ns.jvp(grad, args, ts)[1]),
        "grad_of_jit": flat(ns.jit(grad)(*args)),
    }
