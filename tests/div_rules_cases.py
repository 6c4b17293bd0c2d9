"""The divisions whose bits ``tests/test_div_rules.py`` compares with JAX 0.10.2's
(``tools/gen_golden_div_rules.py`` records them): each form is written once against the shared
API of ``jax`` and ``trellax`` (``J.numpy``, ``J.lax``, ``J.jit``, ``J.vmap``, ``J.grad``), so the
generator and the test run the same program. ``x`` is a vector, ``m`` a (50, 40) matrix, ``row``
a (40,) vector of divisors, ``y`` divisors of ``x``'s shape, ``s`` a 0-d divisor; all of one
dtype. The comments say what XLA computes (docs/semantics.md, "Division by a constant")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

#: name -> (operand names, function of the module and the operands)
FORMS: dict[str, tuple[tuple[str, ...], Callable[..., Any]]] = {
    # eager: one compiled program per jnp function; a broadcast divisor -> reciprocal product
    "x/7.0": (("x",), lambda J, x: J.numpy.asarray(x) / 7.0),
    "x/dtype(3.3)": (("x", "s"), lambda J, x, s: J.numpy.asarray(x) / s.dtype.type(3.3)),
    "x/s": (("x", "s"), lambda J, x, s: J.numpy.asarray(x) / J.numpy.asarray(s)),
    "m/row": (("m", "row"), lambda J, m, r: J.numpy.asarray(m) / J.numpy.asarray(r)),
    "m.T/col": (("m", "row"), lambda J, m, r: J.numpy.asarray(m.T) / J.numpy.asarray(r[:, None])),
    "m[:1]/row (a reshape)": (("m", "row"), lambda J, m, r: J.numpy.asarray(m[:1]) / r),
    "x/y (same shape)": (("x", "y"), lambda J, x, y: J.numpy.asarray(x) / J.numpy.asarray(y)),
    "true_divide(x,7.0)": (("x",), lambda J, x: J.numpy.true_divide(x, 7.0)),
    "divide(m,row)": (("m", "row"), lambda J, m, r: J.numpy.divide(m, r)),
    "lax.div(x,y)": (("x", "y"), lambda J, x, y: J.lax.div(J.numpy.asarray(x), J.numpy.asarray(y))),
    "lax.div(x,s)": (("x", "s"), lambda J, x, s: J.lax.div(J.numpy.asarray(x), J.numpy.asarray(s))),
    "x/2.0": (("x",), lambda J, x: J.numpy.asarray(x) / 2.0),
    "7.0/x": (("x",), lambda J, x: 7.0 / J.numpy.asarray(x)),
    "floor_divide(x,0.7)": (("x",), lambda J, x: J.numpy.floor_divide(x, 0.7)),
    "remainder(x,0.7)": (("x",), lambda J, x: J.numpy.remainder(x, 0.7)),
    "mean(m,axis=1)": (("m",), lambda J, m: J.numpy.mean(m[:, :7], axis=1)),
    # the derivative of a remainder by a scalar: JAX's remainder/fmod are one compiled program
    # that reads the divisor again (the tangent's x / s is a quotient); lax.rem's rule divides
    # alone (a reciprocal product)
    "jvp(remainder(k*s,s)) per s": (("y",), lambda J, y: _rem_tangents(J, J.numpy.remainder, y)),
    "jvp(fmod(k*s,s)) per s": (("y",), lambda J, y: _rem_tangents(J, J.numpy.fmod, y)),
    "jvp(lax.rem(k*s,s)) per s": (
        ("y",),
        lambda J, y: _rem_tangents(
            J, lambda a, b: J.lax.rem(a, J.numpy.broadcast_to(b, a.shape)), y
        ),
    ),
    "grad(sum(k*s % s)) per s": (
        ("y",),
        lambda J, y: J.numpy.stack(
            [J.grad(lambda t, k=k: J.numpy.sum(k % t))(t) for k, t in _multiples(J, y)]
        ),
    ),
    "vmap(x/s per example)": (
        ("m", "row"),
        lambda J, m, r: J.vmap(lambda a, t: a / t)(m.T, r),
    ),
    "vmap(a/b same shape)": (
        ("m", "row"),
        lambda J, m, r: J.vmap(lambda a, b: a / b, in_axes=(0, None))(m, r),
    ),
    # jit: constants always, rows always, a scalar only when nothing else reads it
    "jit(x/7.0)": (("x",), lambda J, x: J.jit(lambda a: a / 7.0)(x)),
    "jit(x/s), s an argument": (("x", "s"), lambda J, x, s: J.jit(lambda a, t: a / t)(x, s)),
    "jit(m/row), row an argument": (
        ("m", "row"),
        lambda J, m, r: J.jit(lambda a, b: a / b)(m, r),
    ),
    "jit(x/y), y closed over": (("x", "y"), lambda J, x, y: J.jit(lambda a: a / y)(x)),
    "jit(m/row), row closed over": (("m", "row"), lambda J, m, r: J.jit(lambda a: a / r)(m)),
    "jit(x/s), s closed over": (("x", "s"), lambda J, x, s: J.jit(lambda a: a / s)(x)),
    "jit(x/y) arguments": (("x", "y"), lambda J, x, y: J.jit(lambda a, b: a / b)(x, y)),
    "jit(x/broadcast(s*s))": (
        ("x", "s"),
        lambda J, x, s: J.jit(lambda a, t: a / J.numpy.broadcast_to(t * t, a.shape))(x, s),
    ),
    "jit(m/broadcast(row*row))": (
        ("m", "row"),
        lambda J, m, r: J.jit(lambda a, b: a / J.numpy.broadcast_to(b * b, a.shape))(m, r),
    ),
    "jit(x/s, y/s)": (
        ("x", "y", "s"),
        lambda J, x, y, s: J.jit(lambda a, b, t: (a / t, b / t))(x, y, s),
    ),
    "jit(x/s, s*2)": (("x", "s"), lambda J, x, s: J.jit(lambda a, t: (a / t, t * 2))(x, s)),
    "jit(x/s, s)": (("x", "s"), lambda J, x, s: J.jit(lambda a, t: (a / t, t))(x, s)),
    "jit(m/row, m+row)": (
        ("m", "row"),
        lambda J, m, r: J.jit(lambda a, b: (a / b, a + b))(m, r),
    ),
    "jit(x/7.0, y/7.0)": (("x", "y"), lambda J, x, y: J.jit(lambda a, b: (a / 7.0, b / 7.0))(x, y)),
    "jit(x*x/7.0)": (("x",), lambda J, x: J.jit(lambda a: a * a / 7.0)(x)),
    "scan(carry s divides)": (
        ("m", "s"),
        lambda J, m, s: J.lax.scan(lambda c, a: (c, a / c), s, m)[1],
    ),
    "scan(s closed over)": (
        ("m", "s"),
        lambda J, m, s: J.lax.scan(lambda c, a: (c + 1, a / s), s, m)[1],
    ),
    "jit(fori(x/s))": (
        ("x", "s"),
        lambda J, x, s: J.jit(lambda a, t: J.lax.fori_loop(0, 2, lambda i, c: c / t, a))(x, s),
    ),
    "grad(sum(x/s))": (
        ("x", "s"),
        lambda J, x, s: J.grad(lambda a, t: J.numpy.sum(a / t), argnums=(0, 1))(x, s),
    ),
    "jit(grad(sum(x/s)))": (
        ("x", "s"),
        lambda J, x, s: J.jit(J.grad(lambda a, t: J.numpy.sum(a / t), argnums=(0, 1)))(x, s),
    ),
    "grad(sum(x/y))": (
        ("x", "y"),
        lambda J, x, y: J.grad(lambda a, b: J.numpy.sum(a / b), argnums=(0, 1))(x, y),
    ),
    "jit(grad(sum(m/row)))": (  # the row's gradient sums columns: XLA's order, not checked
        ("m", "row"),
        lambda J, m, r: J.jit(J.grad(lambda a, b: J.numpy.sum(a / b)))(m, r),
    ),
}


def _multiples(J: Any, y: np.ndarray) -> list[tuple[Any, Any]]:
    """``(k * s, s)`` for the first 40 divisors ``s`` of ``y``, ``k`` from -4 to 4 (the
    product rounded to the dtype): quotients at or next to integers."""
    k = np.arange(-4, 5).astype(y.dtype)
    return [(J.numpy.asarray(k * s), J.numpy.asarray(s)) for s in y[:40]]


def _rem_tangents(J: Any, rem: Callable[[Any, Any], Any], y: np.ndarray) -> Any:
    """The tangents of ``rem(k * s, s)`` along ``s`` (one row per divisor), eagerly."""
    rows = []
    for x, s in _multiples(J, y):
        rows.append(J.jvp(lambda t, x=x: rem(x, t), (s,), (J.numpy.ones_like(s),))[1])
    return J.numpy.stack(rows)


#: dtypes recorded (complex divisions are XLA's own algorithm, not NumPy's: not compared)
DTYPES = ("float16", "bfloat16", "float32", "float64")


def specials(dtype: np.dtype[Any]) -> np.ndarray:
    """Zeros, infinities, NaN, subnormals, the extremes, and values whose reciprocal is
    subnormal (flushed to zero by XLA in float32 and float64)."""
    info = ml_dtypes.finfo(dtype)
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, 3.0, 7.0]
    tiny, big = float(info.tiny), float(info.max)
    for v in (tiny, tiny / 4, big, big / 2, big / 3, 3 / tiny):
        vals += [v, -v]
    return np.asarray(vals, np.float64).astype(dtype)


def operands(rng: np.random.Generator, dtype: np.dtype[Any]) -> dict[str, np.ndarray]:
    """``x``, ``y`` (2,000 each), ``m`` (50, 40), ``row`` (40,), ``s``: log-uniform magnitudes
    of both signs, the special values among them."""
    sp = specials(dtype)

    def values(n: int, spread: float) -> np.ndarray:
        mag = 10.0 ** rng.uniform(-spread, spread, n)
        return (mag * rng.choice([-1.0, 1.0], n)).astype(dtype)

    x = values(2000, 3.0)
    x[: sp.size] = sp
    y = values(2000, 2.0)
    y[-sp.size :] = sp
    row = values(40, 1.0)
    row[5 : 5 + sp.size] = sp
    m = values(2000, 3.0).reshape(50, 40)
    return {"x": x, "y": y, "m": m, "row": row, "s": np.asarray(3.3, dtype)}


#: forms run once more with each special value as the 0-d divisor ``s``, on ``x[:EDGE_X]``
#: (the special values and the first random ones)
EDGE_X = 200
EDGE_FORMS = ("x/s", "jit(x/s), s an argument", "jit(x/s), s closed over")
