"""Scatters that promise unique indices, measured against JAX (``tools/gen_golden_scatter_unique.py``
writes ``tests/golden/scatter_unique.json``; ``tests/test_scatter_unique.py`` compares).

Each case is the source of ``f(x, y)`` (``x`` of shape (5,), ``y`` of shape (3,)), written
against a module ``jax`` (JAX's or trellax's) with ``jnp``, ``lax`` and ``np`` in scope. At every
point (finite values, then zeros of both signs, infinities and NaN in the operand and in the
updates) both sides record: the value, a JVP, the gradient of a weighted sum with respect to both
arguments (eagerly, under ``jit``, and under ``vmap`` over a batch of updates), and two second
derivatives (forward-over-reverse and reverse-over-reverse). ``FLAGS`` are index expressions
whose ``.at[...].multiply`` scatter is recorded with its ``unique_indices``/``indices_are_sorted``
parameters; ``ERRORS`` are programs both must refuse with the same error class and text.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# ``name: source of f(x, y)``
CASES: dict[str, str] = {
    "mul_slice": "lambda x, y: x.at[1:4].multiply(y)",
    "mul_stride": "lambda x, y: x.at[::2].multiply(y)",
    "mul_reversed": "lambda x, y: x.at[::-2].multiply(y)",
    "mul_int": "lambda x, y: x.at[2].multiply(y[1])",
    "mul_negative_int": "lambda x, y: x.at[-1].multiply(y[0])",
    "mul_int_out_of_bounds": "lambda x, y: x.at[7].multiply(y[0])",
    "mul_tuple_2d": "lambda x, y: x[:4].reshape(2, 2).at[1, 0].multiply(y[2]).ravel()",
    "mul_column_2d": "lambda x, y: x[:4].reshape(2, 2).at[:, 1].multiply(y[:2]).ravel()",
    "mul_ellipsis_new": "lambda x, y: x[:3].at[..., None].multiply(y[:, None])",
    "mul_promised": "lambda x, y: x.at[jnp.array([3, 0, 1])].multiply(y, unique_indices=True)",
    "mul_promised_dropped": (
        "lambda x, y: x.at[jnp.array([3, 9, 1])].multiply(y, unique_indices=True)"
    ),
    "mul_updates_of_x": "lambda x, y: x.at[1:4].multiply(y * x[:3])",
    "mul_twice": "lambda x, y: x.at[1:4].multiply(y).at[0:3].multiply(y)",
    "mul_then_sin": "lambda x, y: jnp.sin(x.at[0:3].multiply(y))",
    "mul_by_sin": "lambda x, y: x.at[2:].multiply(jnp.sin(y))",
    "divide_slice": "lambda x, y: x.at[1:4].divide(y)",
    "lax_scatter_mul": (
        "lambda x, y: lax.scatter_mul(x, jnp.array([[4], [0], [2]]), y, "
        "lax.ScatterDimensionNumbers((), (0,), (0,)), unique_indices=True)"
    ),
    "segment_prod_promised": (
        "lambda x, y: x * jax.ops.segment_prod(y, jnp.array([3, 0, 1]), 5, unique_indices=True)"
    ),
    "set_slice": "lambda x, y: x.at[1:4].set(y)",
    "set_int": "lambda x, y: x.at[0].set(y[2])",
    "set_promised": "lambda x, y: x.at[jnp.array([3, 0, 1])].set(y, unique_indices=True)",
    "set_promised_dropped": "lambda x, y: x.at[jnp.array([3, 0, 8])].set(y, unique_indices=True)",
    "set_repeated": "lambda x, y: x.at[jnp.array([3, 0, 3])].set(y)",
    "set_then_mul": "lambda x, y: x.at[1:4].set(y * y).at[2:].multiply(y)",
    "lax_scatter_set": (
        "lambda x, y: lax.scatter(x, jnp.array([[4], [0], [2]]), y, "
        "lax.ScatterDimensionNumbers((), (0,), (0,)), unique_indices=True)"
    ),
    "add_slice": "lambda x, y: x.at[1:4].add(y * y)",
}

#: float32 ulps allowed where a not exactly rounded operation (``sin``, a quotient's tangent
#: formula) is part of the case; every other case is compared bit for bit
ULPS: dict[str, int] = {"mul_then_sin": 4, "mul_by_sin": 4, "divide_slice": 2}

_NAN, _INF = float("nan"), float("inf")
#: ``(x, y)`` points; the tangents and weights are fixed finite values.
POINTS: list[tuple[list[float], list[float]]] = [
    ([1.5, -2.0, 0.5, 3.0, -1.25], [2.0, -3.0, 0.25]),
    ([0.0, -0.0, _INF, _NAN, 2.0], [_INF, 0.0, -0.0]),
    ([-_INF, 1.0, _NAN, -0.0, 4.0], [_NAN, -_INF, 2.0]),
    ([2.0, 0.0, -3.0, -0.0, 0.5], [0.0, _NAN, -_INF]),
]
TX = [0.5, -1.0, 2.0, 0.25, 1.5]
TY = [-0.5, 1.25, 3.0]
W = [1.0, 2.0, -1.0, 0.5, 3.0]
YS = [[0.5, -2.0, 4.0], [-0.0, _INF, 1.0]]

#: index expressions for ``x.at[IDX].multiply(y)`` on ``x`` of shape (3, 4) (``i``: a traced
#: int32 scalar, ``k``: a traced int32 vector of 2)
FLAGS: list[str] = [
    "1",
    "-1",
    "7",
    "np.int32(1)",
    "np.array(1)",
    "jnp.int32(2)",
    "i",
    "(i, 2)",
    "(i, k)",
    "1:3",
    "::2",
    "::-1",
    "(1, 2)",
    "(1, slice(1, 3))",
    "(slice(0, 2), slice(1, 3))",
    "...",
    "None",
    "(None, 1)",
    "(..., 1)",
    "()",
    "True",
    "np.array([True, False, True])",
    "np.array([0, 2])",
    "jnp.array([0, 2])",
    "k",
    "np.array([1])",
    "(1, np.array([0, 2]))",
]

#: ``name: (source of a program of x (5,) and y (3,), run eagerly)``: both raise
ERRORS: dict[str, str] = {
    "grad_mul_repeated": ("jax.grad(lambda y: x.at[jnp.array([1, 1, 2])].multiply(y).sum())(y)"),
    "jvp_mul_array": ("jax.jvp(lambda y: x.at[jnp.array([0, 1, 2])].multiply(y), (y,), (y,))"),
    "grad_mul_mask": (
        "jax.grad(lambda y: x.at[np.array([True, False, True, False, True])].multiply(y).sum())(y)"
    ),
    "grad_lax_scatter_mul": (
        "jax.grad(lambda y: lax.scatter_mul(x, jnp.array([[4], [0], [2]]), y, "
        "lax.ScatterDimensionNumbers((), (0,), (0,))).sum())(y)"
    ),
    "grad_segment_prod": (
        "jax.grad(lambda y: jax.ops.segment_prod(y, jnp.array([3, 0, 1]), 5).sum())(y)"
    ),
    "transpose_set_repeated": (
        "jax.linear_transpose(lambda y: jnp.zeros(5).at[jnp.array([3, 0, 3])].set(y), y)(x)"
    ),
}


def build(source: str, jax: Any) -> Any:
    """The function of ``source`` with ``jax``'s ``numpy`` and ``lax``."""
    return eval(source, {"jax": jax, "jnp": jax.numpy, "lax": jax.lax, "np": np})


def _enc(a: Any) -> list[str]:
    """Values as ``repr`` strings (NaN, infinities and -0.0 kept; ``float`` reads them)."""
    return [repr(float(v)) for v in np.asarray(a, dtype=np.float64).ravel()]


def measure(f: Any, x_: list[float], y_: list[float], jax: Any) -> dict[str, Any]:
    """Value and derivatives of ``f`` at one point (float32)."""
    jnp = jax.numpy
    x, y = jnp.asarray(x_, jnp.float32), jnp.asarray(y_, jnp.float32)
    tx, ty = jnp.asarray(TX, jnp.float32)[: x.shape[0]], jnp.asarray(TY, jnp.float32)
    w = jnp.asarray(W, jnp.float32)

    def loss(a: Any, b: Any) -> Any:
        out = f(a, b)
        return (out * w[: out.shape[-1]]).sum()

    grad = jax.grad(loss, argnums=(0, 1))
    out: dict[str, Any] = {"value": _enc(f(x, y))}
    out["jvp"] = _enc(jax.jvp(f, (x, y), (tx, ty))[1])
    out["grad"] = [_enc(g) for g in grad(x, y)]
    out["grad_jit"] = [_enc(g) for g in jax.jit(grad)(x, y)]
    ys = jnp.asarray(YS, jnp.float32)
    out["grad_vmap"] = [_enc(g) for g in jax.vmap(grad, in_axes=(None, 0))(x, ys)]
    out["hvp"] = [_enc(g) for g in jax.jvp(grad, (x, y), (tx, ty))[1]]
    out["grad_grad"] = [
        _enc(g) for g in jax.grad(lambda a, b: (grad(a, b)[1] * ty).sum(), argnums=(0, 1))(x, y)
    ]
    return out


def scatter_flags(jaxpr: Any) -> list[list[Any]]:
    """``[name, unique_indices, indices_are_sorted]`` of every scatter equation, nested
    jaxprs included."""
    found: list[list[Any]] = []

    def walk(j: Any) -> None:
        for e in j.eqns:
            if e.primitive.name.startswith("scatter"):
                found.append(
                    [
                        e.primitive.name,
                        bool(e.params["unique_indices"]),
                        bool(e.params["indices_are_sorted"]),
                    ]
                )
            for p in e.params.values():
                for sub in p if isinstance(p, (tuple, list)) else (p,):
                    inner = getattr(sub, "jaxpr", sub)
                    if hasattr(inner, "eqns"):
                        walk(inner)

    walk(getattr(jaxpr, "jaxpr", jaxpr))
    return found


class _Key:
    """``_Key()[index]`` is ``index`` (the text of an index expression evaluated as one)."""

    def __getitem__(self, index: Any) -> Any:
        return index


def flags_of(index: str, jax: Any, vmapped: bool = False) -> list[list[Any]]:
    """The scatters of ``x.at[index].multiply(y)`` (under ``vmap`` over ``x`` and ``y`` if
    ``vmapped``)."""
    jnp = jax.numpy

    def f(x: Any, y: Any, i: Any, k: Any) -> Any:
        idx = eval(f"K[{index}]", {"jnp": jnp, "np": np, "i": i, "k": k, "K": _Key()})
        return x.at[idx].multiply(y)

    x = jnp.ones((3, 4), jnp.float32)
    y = jnp.float32(2.0)
    i, k = jnp.int32(1), jnp.asarray([0, 2], jnp.int32)
    if vmapped:
        g = jax.vmap(f, in_axes=(0, 0, None, None))
        return scatter_flags(jax.make_jaxpr(g)(jnp.stack([x, x]), jnp.stack([y, y]), i, k))
    return scatter_flags(jax.make_jaxpr(f)(x, y, i, k))


def error_of(source: str, jax: Any) -> list[str]:
    """``[class name, message]`` of the error ``source`` raises (``["none", ""]`` if none)."""
    jnp = jax.numpy
    x = jnp.asarray(POINTS[0][0], jnp.float32)
    y = jnp.asarray(POINTS[0][1], jnp.float32)
    try:
        eval(source, {"jax": jax, "jnp": jnp, "lax": jax.lax, "np": np, "x": x, "y": y})
    except Exception as e:  # the error is the measurement
        return [type(e).__name__, str(e).split("\n")[0]]
    return ["none", ""]
