"""Structured control flow: a jitted loop against the same loop in plain Python over NumPy.

Target (issue 7): a ``trellax.jit`` loop within 2x of the plain NumPy loop -- the traced body
runs without per-op dispatch (``scan``/``while`` are generated into the compiled program as Python
loops over the body's NumPy calls). Cases:

* ``fori_loop``: 1,000 small steps ``x = x * 0.999 + 0.001`` on a float32[8];
* ``while_loop``: the same 1,000 steps with the counter in the carry and the test in ``cond_fun``;
* ``scan``: over 10,000 float32 elements, ``c = 0.9 * c + x`` with every ``c`` stacked;
* ``cond``: one ``cond`` on a float32[8] (the cost of a call, not of a loop).

Columns: ``numpy`` (the loop in Python over NumPy, the baseline), ``trellax`` (``trellax.jit``),
``trellax-eager`` (the ``lax`` call without ``jit``: traced and compiled at the first call, then
the cached program runs), ``jax``
(``jax.jit``, results blocked on; absent when JAX is not installed -- run with a JAX venv's
Python and ``PYTHONPATH`` at the repository to include it). Run alone with
``python benchmarks/run.py control``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax
import trellax.lax as tlax
import trellax.numpy as tnp

STEPS = 1_000
LENGTH = 10_000


def _time(fn: Callable[[], object] | None) -> float | None:
    if fn is None:
        return None
    fn()  # warm caches (and compile), and fail loudly here rather than inside timeit
    return best_time(fn, repeat=3)


# -- the loops, written once per library -----------------------------------------------------------


def numpy_fori(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    a, b = np.float32(0.999), np.float32(0.001)
    for _ in range(STEPS):
        x = x * a + b
    return x


def numpy_while(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    a, b, i = np.float32(0.999), np.float32(0.001), 0
    while i < STEPS:
        i, x = i + 1, x * a + b
    return x


def numpy_scan(xs: np.ndarray[Any, Any]) -> tuple[Any, np.ndarray[Any, Any]]:
    c, a = np.float32(0), np.float32(0.9)
    ys = np.empty_like(xs)
    for t in range(len(xs)):
        c = a * c + xs[t]
        ys[t] = c
    return c, ys


def lax_fori(lax: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return lax.fori_loop(0, STEPS, lambda i, x: x * 0.999 + 0.001, x)

    return f


def lax_while(lax: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        def body(c: Any) -> Any:
            return c[0] + 1, c[1] * 0.999 + 0.001

        return lax.while_loop(lambda c: c[0] < STEPS, body, (0, x))[1]

    return f


def lax_scan(lax: Any) -> Callable[[Any], Any]:
    def step(c: Any, x: Any) -> tuple[Any, Any]:
        c = 0.9 * c + x
        return c, c

    def f(xs: Any) -> Any:
        return lax.scan(step, xs[0] * 0, xs)

    return f


def numpy_cond(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return x + np.float32(1) if x[0] < 1 else x - np.float32(1)


def _up(x: Any) -> Any:
    return x + 1.0


def _down(x: Any) -> Any:
    return x - 1.0


def lax_cond(lax: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return lax.cond(x[0] < 1, _up, _down, x)

    return f


def main() -> None:
    jax = optional_import("jax")
    x_np = np.linspace(0, 1, 8, dtype=np.float32)
    xs_np = np.random.default_rng(0).standard_normal(LENGTH).astype(np.float32)
    x_t, xs_t = tnp.asarray(x_np), tnp.asarray(xs_np)

    t_fori, t_scan = trellax.jit(lax_fori(tlax)), trellax.jit(lax_scan(tlax))
    t_cond, t_while = trellax.jit(lax_cond(tlax)), trellax.jit(lax_while(tlax))
    np.testing.assert_allclose(np.asarray(t_fori(x_t)), numpy_fori(x_np), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(t_while(x_t)), numpy_while(x_np), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(t_scan(xs_t)[1]), numpy_scan(xs_np)[1], rtol=1e-5)

    j_fori: Callable[[], object] | None = None
    j_scan: Callable[[], object] | None = None
    j_cond: Callable[[], object] | None = None
    j_while: Callable[[], object] | None = None
    if jax is not None:
        jf, js = jax.jit(lax_fori(jax.lax)), jax.jit(lax_scan(jax.lax))
        jc, jw = jax.jit(lax_cond(jax.lax)), jax.jit(lax_while(jax.lax))
        x_j, xs_j = jax.numpy.asarray(x_np), jax.numpy.asarray(xs_np)

        def j_fori() -> object:
            return jf(x_j).block_until_ready()

        def j_scan() -> object:
            return js(xs_j)[1].block_until_ready()

        def j_cond() -> object:
            return jc(x_j).block_until_ready()

        def j_while() -> object:
            return jw(x_j).block_until_ready()

    rows = [
        Row(
            f"fori_loop, {STEPS} steps on f32[8]",
            {
                "numpy": _time(lambda: numpy_fori(x_np)),
                "trellax": _time(lambda: t_fori(x_t)),
                "trellax-eager": _time(lambda: lax_fori(tlax)(x_t)),
                "jax": _time(j_fori),
            },
        ),
        Row(
            f"while_loop, {STEPS} steps on f32[8]",
            {
                "numpy": _time(lambda: numpy_while(x_np)),
                "trellax": _time(lambda: t_while(x_t)),
                "trellax-eager": _time(lambda: lax_while(tlax)(x_t)),
                "jax": _time(j_while),
            },
        ),
        Row(
            f"scan over {LENGTH} f32 elements",
            {
                "numpy": _time(lambda: numpy_scan(xs_np)),
                "trellax": _time(lambda: t_scan(xs_t)),
                "trellax-eager": _time(lambda: lax_scan(tlax)(xs_t)),
                "jax": _time(j_scan),
            },
        ),
        Row(
            "cond on f32[8]",
            {
                "numpy": _time(lambda: numpy_cond(x_np)),
                "trellax": _time(lambda: t_cond(x_t)),
                "trellax-eager": _time(lambda: lax_cond(tlax)(x_t)),
                "jax": _time(j_cond),
            },
        ),
    ]
    print_table("control flow: jitted loops vs the loop in Python over NumPy", rows)


if __name__ == "__main__":
    main()
