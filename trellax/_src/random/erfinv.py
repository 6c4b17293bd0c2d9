"""The inverse error function behind ``normal``: XLA's float32 polynomial, bit for bit (its
float64 one is :func:`trellax._src.backend.xla_f64.erfinv_f64`, re-exported here).

XLA lowers float32 ``erf_inv`` (and f16/bf16, computed in f32) to Giles' approximation: with
``w = -log1p(-x * x)``, ``x * P(w - 2.5)`` where ``w < 5`` (``|x| < 0.9966``) and
``x * Q(sqrt(w) - 3)`` otherwise (``x * inf`` at ``|x| == 1``), ``P`` and ``Q`` of degree 8
evaluated by Horner's rule in which every step is a fused multiply-add, rounded once to float32.
The product of two float32 values is exact in float64, so a step is a float64 multiply, a float64
add of the coefficient and one rounding to float32. ``log1p`` is XLA's own float32 function
(:mod:`trellax._src.backend.xla_log`), not NumPy's: with NumPy's, ~0.7 % of normals differed from
JAX's by up to 3 ulp. Two evaluations compute exactly that:

* :func:`erfinv_f32_into`, on NumPy arrays in preallocated chunk buffers (large arrays and the
  fused ``normal`` kernel), three NumPy calls per Horner step;
* :func:`erfinv_f32_small`, on Python floats (``array('f')`` rounds to float32), for a few
  values, where one NumPy call per step would cost more than the arithmetic.
"""

from __future__ import annotations

import array
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import fp_errors, xla_log
from trellax._src.backend.xla_f64 import erfinv_f64 as erfinv_f64
from trellax._src.random import chunks, compiled_kernels

F32 = np.ndarray[Any, np.dtype[np.float32]]
F64 = np.ndarray[Any, np.dtype[np.float64]]

_P = [2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
      -0.00125372503, -0.00417768164, 0.246640727, 1.50140941]  # fmt: skip
_Q = [-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
      -0.0076224613, 0.00943887047, 1.00167406, 2.83297682]  # fmt: skip
#: The coefficients as float32 values (held in float64, where the Horner steps compute).
P32 = [float(np.float32(c)) for c in _P]
Q32 = [float(np.float32(c)) for c in _Q]
_MINUS_FIVE = np.float32(-5)
_HALF_FIVE = np.float32(2.5)
_THREE = np.float32(3)
_INF = np.float32(np.inf)
_ZERO = np.float32(0)


class Scratch:
    """The buffers :func:`erfinv_f32_into` needs for up to ``n`` values."""

    __slots__ = ("acc", "log", "t", "w")

    def __init__(self, n: int) -> None:
        self.w: F32 = np.empty(n, np.float32)
        self.t: F64 = np.empty(n, np.float64)
        self.acc: F64 = np.empty(n, np.float64)
        self.log = xla_log.Scratch(min(n, xla_log.BLOCK))


def horner_into(coeffs: list[float], t: F64, acc: F64, p: F32) -> None:
    """``p = P(t)`` by Horner's rule, each step one fused multiply-add rounded to float32: ``t``
    holds float32 values in float64, ``acc`` is float64 scratch, ``p`` the float32 result."""
    np.multiply(t, coeffs[0], out=acc)  # exact: c0 and t are float32 values
    acc += coeffs[1]
    np.copyto(p, acc, casting="unsafe")  # the step's one rounding
    for c in coeffs[2:]:
        np.multiply(p, t, out=acc)  # exact in float64
        acc += c
        np.copyto(p, acc, casting="unsafe")


#: ``P``'s coefficients with every other sign flipped: Horner's rule on ``-t`` with these gives
#: ``P(t)`` exactly, because rounding to nearest is symmetric (``round(-a) == -round(a)``).
P32_FLIPPED = [c if k % 2 == 0 else -c for k, c in enumerate(P32)]


def tail_values(big_w: F32, x: F32) -> F32:
    """erfinv where ``w >= 5`` (or NaN): ``x * Q(sqrt(w) - 3)``, and ``x * inf`` at ``|x| == 1``."""
    t = (np.sqrt(big_w) - _THREE).astype(np.float64)
    q = np.empty(x.shape, np.float32)
    horner_into(Q32, t, np.empty_like(t), q)
    q *= x
    np.copyto(q, x + _ZERO, where=x != x)  # XLA returns a NaN x itself (quieted)
    out: F32 = np.where(np.abs(x) == 1, x * _INF, q)
    return out


#: Elements of a chunk on the tail branch: (indices, their ``w``, their ``x``).
Tail = tuple[np.ndarray[Any, np.dtype[np.intp]], F32, F32]


def erfinv_f32_into(x: F32, out: F32, s: Scratch, *, defer_tail: bool = False) -> Tail | None:
    """``out = erfinv(x)`` for a 1-D float32 ``x`` (``out`` must not overlap ``x``), in ``s``'s
    buffers. Call with NumPy's floating-point errors silenced (``|x| >= 1`` and NaN are valid).

    The few elements on the tail branch (``|x| > 0.9966``: about 3 in 1000) cost a dozen NumPy
    calls per chunk; with ``defer_tail`` they are left in ``out`` with the central branch's
    value and returned instead (indices relative to ``x``), for one :func:`tail_values` call
    over all chunks."""
    m = x.size
    if not m:
        return None
    w, t = s.w[:m], s.t[:m]
    np.multiply(x, x, out=w)
    np.negative(w, out=w)
    log1p = compiled_kernels.get("log1p32", m)  # the same bits as xla_log's NumPy steps
    if log1p is not None:  # into out (free until the Horner steps): in place runs ~4x slower
        log1p(w, out)
        w = out
    else:
        xla_log.log1p_into(w, w, s.log)  # -w: the algorithm's w, whose negation is exact
    low = w.min()
    tail: Tail | None = None
    if not low > _MINUS_FIVE:  # some w >= 5 (|x| > 0.9966), or a NaN
        on_tail = w <= _MINUS_FIVE if low == low else ~(w > _MINUS_FIVE)
        idx = np.flatnonzero(on_tail)
        tail = (idx, np.negative(w[idx]), x[idx])
    np.add(w, _HALF_FIVE, out=t, dtype=np.float32)  # -(w - 2.5), exactly, in float64
    horner_into(P32_FLIPPED, t, s.acc[:m], out)  # P(w - 2.5)
    out *= x
    if tail is not None and not defer_tail:
        out[tail[0]] = tail_values(tail[1], tail[2])
        return None
    return tail


def join_tails(tails: list[tuple[int, Tail]]) -> Tail:
    """The tails of several chunks, each with its chunk's start, as one."""
    idx = np.concatenate([t[0] + start for start, t in tails])
    return idx, np.concatenate([t[1] for _, t in tails]), np.concatenate([t[2] for _, t in tails])


SMALL_SIZE = 32  # up to this many values, erfinv_f32 runs on Python floats


def erfinv_f32(x: Any) -> F32:
    """XLA's float32 erfinv of an array (any shape): Python floats for a few values, otherwise
    :func:`erfinv_f32_into` in chunks (on the thread pool for large arrays)."""
    x = np.asarray(x, np.float32)
    flat = x.reshape(-1)
    if flat.size <= SMALL_SIZE:
        small: F32 = erfinv_f32_small(flat).reshape(x.shape)
        return small
    out: F32 = np.empty_like(flat)
    tails: list[tuple[int, Tail]] = []
    compiled_kernels.wanted(flat.size)  # large arrays start compiling the log1p kernel

    def work(i0: int, i1: int, s: Scratch) -> None:
        tail = erfinv_f32_into(flat[i0:i1], out[i0:i1], s, defer_tail=True)
        if tail is not None:
            tails.append((i0, tail))

    token = fp_errors.enter()
    try:
        chunks.run_chunks(flat.size, work, lambda: Scratch(min(flat.size, chunks.CHUNK)))
        if tails:
            idx, big_w, xt = join_tails(tails)
            out[idx] = tail_values(big_w, xt)
    finally:
        fp_errors.leave(token)
    result: F32 = out.reshape(x.shape)
    return result


def erfinv_f32_small(x: F32) -> F32:
    """The arithmetic of :func:`erfinv_f32_into` on Python floats, bit for bit: a sum or
    product of two float32 values is exact in float64 (or rounded once, for the fused steps),
    ``array('f')`` rounds to float32, and sqrt rounded twice is still correctly rounded. No NumPy
    call per Horner step, so small draws are cheap."""
    token = fp_errors.enter()
    try:
        w = np.multiply(x, x)
        np.negative(w, out=w)
        w = xla_log.log1p_f32(w)
        np.negative(w, out=w)
    finally:
        fp_errors.leave(token)
    return np.array(erfinv_values(x.tolist(), w.tolist()), np.float32)


def _erfinv_values_source() -> str:
    """The source of :func:`erfinv_values`, with both Horner evaluations written out (their
    coefficients as literals: ~30% less Python per value than a loop over them)."""

    def horner(coeffs: list[float]) -> list[str]:
        steps = [f"            r[0] = {coeffs[0]!r} * t + {coeffs[1]!r}"]
        steps += [f"            r[0] = r[0] * t + {c!r}" for c in coeffs[2:]]
        return steps

    lines = [
        "def erfinv_values(xs, ws, scale=1.0):",
        "    out = array.array('f', xs)",
        "    r = array.array('f', [0.0])",
        "    for i, (x, w) in enumerate(zip(xs, ws)):",
        "        if w < 5:",
        "            r[0] = w - 2.5",
        "            t = r[0]",
        *horner(P32),
        "        elif abs(x) == 1:",
        "            out[i] = x * math.inf",
        "            continue",
        "        elif x != x:  # NaN: XLA returns it (x * NaN keeps x's bits)",
        "            out[i] = x",
        "            continue",
        "        else:  # |x| > 0.9966, |x| > 1, inf",
        "            r[0] = math.sqrt(w)",
        "            r[0] = r[0] - 3.0",
        "            t = r[0]",
        *horner(Q32),
        "        r[0] = r[0] * x",
        "        out[i] = r[0] * scale if scale != 1.0 else r[0]",
        "    return out",
    ]
    return "\n".join(lines) + "\n"


def _make_erfinv_values() -> Callable[..., array.array[float]]:
    namespace: dict[str, Any] = {"array": array, "math": math}
    exec(compile(_erfinv_values_source(), "<erfinv.erfinv_values>", "exec"), namespace)
    fn: Callable[..., array.array[float]] = namespace["erfinv_values"]
    fn.__doc__ = """erfinv of the float32 values ``xs`` given their ``w = -log1p(-x * x)``
    (float32, from XLA's ``log1p``: :mod:`.xla_log`), times the float32 ``scale`` (a second rounding, unless
    ``scale`` is 1; infinities at ``|x| == 1`` are not scaled, ``scale`` being positive), as
    float32 values: each rounding to float32 is a store into an ``array('f')`` element (no
    NumPy call, no list per Horner step), each Horner step one fused multiply-add rounded
    once (the product and sum of float32 values in float64)."""
    return fn


erfinv_values = _make_erfinv_values()
