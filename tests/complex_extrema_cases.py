"""Complex ``max``/``min`` reductions compared with JAX 0.10.2, written once against ``jax`` and
``trellax``: ``tools/gen_golden_complex_extrema.py`` records JAX's results
(``tests/golden/complex_extrema.json``) and ``tests/test_complex_extrema.py`` trellax's. The
operands mix NaN in either part, infinities, signed zeros and ties, so which element a fold
keeps shows (``trellax/_src/backend/complex_order.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

INF, NAN = float("inf"), float("nan")
#: the values operands are drawn from
POOL = (
    complex(NAN, 0), complex(0, NAN), complex(NAN, NAN), complex(NAN, 1), complex(2, NAN),
    1 + 1j, 2 + 0j, 2 + 1j, 2 - 1j, complex(INF, 0), complex(INF, -1), complex(-INF, 1),
    complex(-INF, -1), complex(-INF, 0), complex(0, INF), -1 - 1j, 0j, complex(-0.0, 0),
    complex(0, -0.0), complex(-0.0, -0.0), 1 + 2j, 3 + 0j,
)  # fmt: skip

#: (shape, axis) of the reductions: lengths around XLA's window of 32, several axes, None
SHAPES: tuple[tuple[tuple[int, ...], Any], ...] = (
    *(((n,), 0) for n in (1, 2, 3, 5, 16, 31, 32, 33, 34, 40, 63, 64, 65, 100, 129, 1025, 5000)),
    ((4, 5), 0), ((4, 5), 1), ((4, 5), None), ((8, 8), None), ((7, 9), (0, 1)),
    ((40, 3), 0), ((40, 3), None), ((3, 40), (0, 1)), ((100, 50), 0), ((100, 50), 1),
    ((100, 50), None), ((3, 4, 5), (0, 2)), ((12, 12, 12), (0, 2)), ((70, 3, 40), (0, 2)),
    ((2, 35, 3), None), ((34, 34), -1), ((1, 5), 0), ((5, 1), None),
)  # fmt: skip

DTYPES = ("complex64", "complex128")


def operand(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Values of :data:`POOL`, a quarter of them NaN-free ones in long runs less often."""
    return rng.choice(np.asarray(POOL, np.complex128), shape).astype(dtype)


def forms(jax: Any) -> dict[str, Callable[[np.ndarray, Any], Any]]:
    """name -> f(operand, axis) for each way of reducing."""
    import importlib

    jnp = importlib.import_module(f"{jax.__name__}.numpy")
    lax = importlib.import_module(f"{jax.__name__}.lax")

    def axes_of(x: Any, axis: Any) -> tuple[int, ...]:
        if axis is None:
            return tuple(range(x.ndim))
        return tuple(a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis))

    def grad_of(fn: Callable[[Any], Any]) -> Callable[[np.ndarray, Any], Any]:
        # the real part's gradient where the result is a number (a NaN result has none)
        def f(x: np.ndarray, axis: Any) -> Any:
            return jax.grad(lambda a: jnp.sum(jnp.real(fn(a, axis))))(jnp.asarray(x))

        return f

    return {
        "max": lambda x, axis: jnp.max(x, axis=axis),
        "min": lambda x, axis: jnp.min(x, axis=axis),
        "max keepdims": lambda x, axis: jnp.max(x, axis=axis, keepdims=True),
        "jit(min)": lambda x, axis: jax.jit(lambda a: jnp.min(a, axis=axis))(x),
        "lax.reduce_max": lambda x, axis: lax.reduce_max(jnp.asarray(x), axes_of(x, axis)),
        "lax.reduce_min": lambda x, axis: lax.reduce_min(jnp.asarray(x), axes_of(x, axis)),
        "x.max()": lambda x, axis: jnp.asarray(x).max(axis=axis),
        "amin": lambda x, axis: jnp.amin(x, axis=axis),
        "vmap(max)": lambda x, axis: jax.vmap(lambda a: jnp.max(a, axis=None))(x[None]),
        "max initial=1+0j": lambda x, axis: jnp.max(x, axis=axis, initial=1 + 0j),
        "min initial=nan": lambda x, axis: jnp.min(x, axis=axis, initial=complex(NAN, 0)),
        "max where": lambda x, axis: jnp.max(
            x, axis=axis, where=np.arange(x.size).reshape(x.shape) % 3 != 1, initial=-5 + 0j
        ),
        "ptp": lambda x, axis: jnp.ptp(x, axis=axis),
        "grad max": grad_of(lambda a, axis: jnp.max(a, axis=axis)),
    }
