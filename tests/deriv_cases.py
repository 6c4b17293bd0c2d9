"""First, second and third derivatives of every differentiable primitive (issue 24, section 4).

``tools/gen_golden_derivs.py`` evaluates the functions of ``derivatives`` with JAX 0.10.2 and
writes ``tests/golden/derivs.json``; ``tests/test_derivs.py`` evaluates them with trellax and
compares (dtype, weak flag, values within ``ulps``, NaN/inf positions exactly), and checks the
float64 values at ordinary points against central finite differences.

A case is a function of one to three float arguments, written once for both libraries: its
source is evaluated with ``jax`` (the top-level module), ``jnp``, ``lax``, ``jsp``
(``scipy.special``), ``jsl`` (``scipy.linalg``), ``ckpt`` (``ad_checkpoint``) and ``custom`` (``custom_functions(jax)``) bound
to JAX's or trellax's. ``prim`` names the trellax primitive the case exercises (the coverage
test checks that it appears in the traced second derivative).

Each case is differentiated in every argument, for float32 and float64 inputs (strong arrays):

- ``g1.i``: the gradient of ``s = sum(w * f(x...))`` in argument ``i`` (``w`` fixed weights,
  all ones for an ``elementwise`` case, where each component is then ``f'(x_i)``);
- ``g2.i.j``: the gradient in argument ``j`` of ``<g1.i, v_i>`` (grad-of-grad; mixed partials
  when ``i != j``); ``g3.i.j.k`` the gradient in ``k`` of ``<g2.i.j, v_j>``;
- ``jvp1``/``jvp2``/``jvp3``: forward mode nested once, twice, three times, along ``v``;
- ``hess.i.j``: ``jacfwd(jacrev(s))``'s blocks;
- ``weak1..3``: ``grad`` taken 1-3 times of a unary elementwise case at its first point given
  as a Python float (weakly typed).

Points may be symbols resolved per dtype (``"max"``, ``"tiny"``, ``"denorm"``, ``"eps"``,
``"inf"``, ``"nan"``, with an optional ``-``); ``"pi/2"`` is ``pi / 2`` rounded to the dtype.
"""

from __future__ import annotations

import functools
import importlib
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

Point = float | str
Arg = Sequence[Point] | Sequence[Sequence[Point]] | Sequence[Sequence[Sequence[Point]]]

#: default tolerance in units in the last place of the golden value (see ``tests/test_derivs.py``)
ULPS = 8.0


@dataclass(frozen=True)
class Case:
    """One function of float arguments and the points where its derivatives are recorded."""

    name: str
    prim: str
    fn: str
    args: tuple[Any, ...]
    elementwise: bool = True
    fd: bool = True  # ordinary points: float64 derivatives checked by finite differences
    ulps: float = ULPS  # worst distance to JAX allowed, in ulps of the magnitude of the result
    orders: int = 3
    hess: bool = True
    only: tuple[str, ...] = field(default=())  # restrict to these quantities (when costly)
    #: point indices (elementwise cases) where JAX's value is wrong and trellax keeps its own:
    #: not compared; each is listed with the measurement in docs/semantics.md
    differs: tuple[int, ...] = field(default=())


def _pts(*p: Point) -> tuple[Point, ...]:
    return tuple(p)


def e1(
    prim: str,
    fn: str,
    ordinary: Sequence[Point],
    special: Sequence[Point],
    name: str = "",
    **kw: Any,
) -> list[Case]:
    """A unary elementwise function at ordinary points (with finite differences) and special ones."""
    name = name or prim
    fd = kw.pop("fd", True)
    out = [Case(f"{name}/ordinary", prim, fn, (tuple(ordinary),), fd=fd, **kw)] if ordinary else []
    if special:
        out.append(Case(f"{name}/special", prim, fn, (tuple(special),), fd=False, **kw))
    return out


def e2(
    prim: str,
    fn: str,
    ordinary: tuple[Sequence[Point], Sequence[Point]],
    special: tuple[Sequence[Point], Sequence[Point]] | None,
    **kw: Any,
) -> list[Case]:
    """A binary elementwise function (equal-length point lists)."""
    out = [Case(f"{prim}/ordinary", prim, fn, (tuple(ordinary[0]), tuple(ordinary[1])), **kw)]
    if special is not None:
        out.append(
            Case(
                f"{prim}/special", prim, fn, (tuple(special[0]), tuple(special[1])), fd=False, **kw
            )
        )
    return out


def g(name: str, prim: str, fn: str, *args: Any, **kw: Any) -> Case:
    """A function that is not elementwise: its outputs are weighted before the sum."""
    return Case(name, prim, fn, tuple(args), elementwise=False, **kw)


EXTREMES = ("max", "-max", "inf", "-inf", "nan", "denorm", "tiny")
_ORD = (-2.5, -0.7, 0.3, 1.4)
_POS = (0.2, 0.9, 2.5, 7.0)
_UNIT = (-0.8, -0.3, 0.2, 0.7)
_M2 = ((1.3, 0.4), (-0.2, 0.9))
_M3 = ((1.5, 0.2, -0.4), (0.3, 1.1, 0.5), (-0.6, 0.1, 2.0))
_SPD3 = "(lambda m: m @ m.T + 2 * jnp.eye(3, dtype=m.dtype))"
_V6 = (0.4, -1.2, 0.9, 2.1, -0.3, 1.6)

UNARY: list[Case] = [
    *e1("abs", "jnp.abs", _ORD, (0.0, "-0", *EXTREMES)),
    *e1("neg", "lambda x: -x * x * x", _ORD, (0.0, "max", "inf", "nan")),
    *e1("sin", "jnp.sin", _ORD, (0.0, "-0", "pi/2", 1e6, "max", "inf", "nan", "denorm")),
    *e1("cos", "jnp.cos", _ORD, (0.0, "-0", "pi/2", 1e6, "max", "inf", "nan")),
    *e1("tan", "jnp.tan", _ORD, (0.0, "-0", "pi/2", 1.5, 1e6, "inf", "nan")),
    *e1("asin", "jnp.arcsin", _UNIT, (0.0, 1.0, -1.0, 1.5, "nan", "denorm")),
    *e1("acos", "jnp.arccos", _UNIT, (0.0, 1.0, -1.0, 1.5, "nan")),
    *e1("atan", "jnp.arctan", _ORD, (0.0, "-0", *EXTREMES)),
    *e1("sinh", "jnp.sinh", _ORD, (0.0, 89.0, 710.0, *EXTREMES)),
    *e1("cosh", "jnp.cosh", _ORD, (0.0, 89.0, 710.0, *EXTREMES)),
    *e1("tanh", "jnp.tanh", _ORD, (0.0, 20.0, -400.0, *EXTREMES)),
    *e1("asinh", "jnp.arcsinh", _ORD, (0.0, 1e20, *EXTREMES)),
    *e1("acosh", "jnp.arccosh", (1.2, 2.0, 5.0, 30.0), (1.0, 0.5, 1e20, "max", "inf", "nan")),
    *e1("atanh", "jnp.arctanh", _UNIT, (0.0, 1.0, -1.0, 1.5, "denorm", "nan")),
    *e1("exp", "jnp.exp", _ORD, (0.0, 88.8, 709.9, -104.0, *EXTREMES)),
    *e1("exp2", "jnp.exp2", _ORD, (0.0, 128.5, 1024.5, *EXTREMES)),
    *e1("expm1", "jnp.expm1", _ORD, (0.0, "-0", 1e-10, 89.0, *EXTREMES)),
    *e1("log", "jnp.log", _POS, (0.0, "-0", -1.0, *EXTREMES)),
    *e1("log1p", "jnp.log1p", (-0.7, -0.2, 0.4, 3.0), (0.0, -1.0, -2.0, 1e-10, *EXTREMES)),
    *e1("sqrt", "jnp.sqrt", _POS, (0.0, "-0", -1.0, *EXTREMES)),
    *e1("rsqrt", "lax.rsqrt", _POS, (0.0, "-0", -1.0, *EXTREMES)),
    *e1("cbrt", "jnp.cbrt", (-8.0, -0.3, 0.5, 27.0), (0.0, "-0", *EXTREMES)),
    *e1("logistic", "jax.nn.sigmoid", _ORD, (0.0, 40.0, -100.0, *EXTREMES)),
    *e1("integer_pow", "lambda x: x ** 3", _ORD, (0.0, "-0", 1e13, *EXTREMES)),
    *e1(
        "integer_pow",
        "lambda x: lax.integer_pow(x, -2)",
        _ORD,
        (0.0, "-0", *EXTREMES),
        "integer_pow-2",
    ),
    Case("integer_pow/square", "integer_pow", "jnp.square", (_ORD,)),
    Case(
        "integer_pow/zero",
        "integer_pow",
        "lambda x: lax.integer_pow(x, 0) * x",
        ((0.0, 2.0, "inf"),),
        fd=False,
    ),
    *e1("erf", "lax.erf", (-1.5, -0.3, 0.2, 1.0), (0.0, 5.0, 30.0, -30.0, *EXTREMES)),
    *e1("erfc", "lax.erfc", (-1.5, -0.3, 0.2, 1.0), (0.0, 5.0, 30.0, -30.0, *EXTREMES)),
    *e1("erfcx", "jsp.erfcx", (-1.0, -0.2, 0.5, 3.0), (0.0, 30.0, -30.0, 1e10, *EXTREMES)),
    *e1("lgamma", "lax.lgamma", _POS, (0.0, -1.0, -2.5, 1.0, 2.0, *EXTREMES)),
    *e1("digamma", "lax.digamma", _POS, (0.0, -1.0, -2.5, 1.0, *EXTREMES)),
    *e1("bessel_i0e", "lax.bessel_i0e", _ORD, (0.0, "-0", 1e4, *EXTREMES)),
    *e1("bessel_i1e", "lax.bessel_i1e", _ORD, (0.0, "-0", 1e4, *EXTREMES)),
    *e1("i0", "jsp.i0", _ORD, (0.0, 100.0, *EXTREMES)),
    *e1("expi", "jsp.expi", (-2.0, -0.5, 0.3, 1.5), (0.0, "-0", 50.0, -50.0, "inf", "-inf", "nan")),
    *e1("exp1", "jsp.exp1", _POS, (0.0, 50.0, "inf", "nan")),
    *e1("dawsn", "jsp.dawsn", _ORD, (0.0, 1e4, *EXTREMES)),
    *e1("fresnel_s", "lambda x: jsp.fresnel(x)[0]", _ORD, (0.0, 1e4, "inf", "-inf", "nan")),
    *e1("fresnel_c", "lambda x: jsp.fresnel(x)[1]", _ORD, (0.0, 1e4, "inf", "-inf", "nan")),
    *e1("sici_si", "lambda x: jsp.sici(x)[0]", _ORD, (0.0, 1e4, "inf", "-inf", "nan")),
    *e1("sici_ci", "lambda x: jsp.sici(x)[1]", _POS, (0.0, 1e4, "inf", "nan")),
    *e1("spence", "jsp.spence", _POS, (0.0, 1.0, "inf", "nan")),
    *e1(
        "frexp", "lambda x: jnp.frexp(x)[0] * x", (-3.0, -0.3, 0.7, 5.0), (0.0, 1.0, 0.5, *EXTREMES)
    ),
    # (no finite differences: the function rounds, or its derivative is not its slope)
    *e1(
        "reduce_precision",
        "lambda x: lax.reduce_precision(x, exponent_bits=8, mantissa_bits=23) ** 3",
        _ORD,
        (0.0, "inf", "nan"),
        fd=False,
    ),
    *e1(
        "stop_gradient", "lambda x: x * lax.stop_gradient(x) ** 2 + jnp.sin(x)", _ORD, (), fd=False
    ),
    *e1(
        "convert_element_type",
        "lambda x: jnp.real(x.astype(jnp.result_type(x.dtype, jnp.complex64)) ** 3)",
        _ORD,
        (),
    ),
    *e1("add_any", "lambda x: jnp.sin(x) * x * jnp.exp(x)", _ORD, ()),
    # extras: functions JAX has as primitives and trellax composes (or the reverse)
    *e1("erf_inv", "lax.erf_inv", _UNIT, (0.0, 1.0, -1.0, 0.9999, 1.5, "nan")),
    *e1("ndtri", "jsp.ndtri", (0.05, 0.3, 0.6, 0.97), (0.5, 0.0, 1.0, 1e-30, "nan")),
    *e1("log_ndtr", "jsp.log_ndtr", _ORD, (0.0, -40.0, 10.0, "inf", "-inf", "nan")),
    *e1("sinc", "jnp.sinc", _ORD, (0.0, 1.0, "inf", "nan")),
    *e1("logaddexp", "lambda x: jnp.logaddexp(x, 0.5 * x)", _ORD, (0.0, "inf", "-inf", "nan")),
    *e1("softplus", "jax.nn.softplus", _ORD, (0.0, 100.0, -100.0, "inf", "-inf")),
    *e1("relu", "lambda x: jax.nn.relu(x) * x", _ORD, (0.0, "-0")),
    *e1("gelu", "jax.nn.gelu", _ORD, (0.0, 10.0, -10.0)),
    *e1("xlogy", "lambda x: jsp.xlogy(x, x)", _POS, (0.0,)),
    *e1("entr", "jsp.entr", _POS, (0.0, -1.0, "inf")),
]

BINARY: list[Case] = [
    *e2(
        "add",
        "lambda x, y: jnp.sin(x + y) * x",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        (("inf", "inf", "nan"), ("-inf", 1.0, 0.0)),
    ),
    *e2(
        "sub",
        "lambda x, y: jnp.sin(x - y) * y",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        (("inf", "max"), ("inf", "-max")),
    ),
    *e2(
        "mul",
        "lambda x, y: x * y * y",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        ((0.0, "inf", "max", "nan"), ("inf", 0.0, "max", 1.0)),
    ),
    *e2(
        "div",
        "lambda x, y: x / y",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        ((1.0, 0.0, 0.0, "inf", 1.0, "max"), (0.0, 0.0, "-0", "inf", "denorm", "tiny")),
    ),
    *e2(
        "pow",
        "lambda x, y: x ** y",
        ((0.5, 1.5, 3.0), (0.3, -1.2, 2.5)),
        (
            (0.0, 0.0, 0.0, 0.0, -2.0, -2.0, 1.0, "inf", 2.0),
            (0.0, 1.0, 2.0, -1.0, 2.0, 0.5, "inf", 0.0, "nan"),
        ),
    ),
    *e2(
        "atan2",
        "jnp.arctan2",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        ((0.0, 0.0, "-0", 1.0, "inf", "inf"), (0.0, "-0", 0.0, 0.0, "inf", 1.0)),
    ),
    *e2(
        "rem",
        "lambda x, y: lax.rem(x, y) * x",
        ((-3.7, 2.5, 5.2), (1.5, -0.7, 2.0)),
        ((3.0, -3.0, 0.0, 1.0, "inf"), (1.5, 1.5, 1.0, 0.0, 1.0)),
    ),
    *e2(
        "max",
        "lambda x, y: jnp.maximum(x, y) ** 3",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        ((1.0, 0.0, "-0", "nan", "inf"), (1.0, "-0", 0.0, 1.0, "inf")),
    ),
    *e2(
        "min",
        "lambda x, y: jnp.minimum(x, y) ** 3",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        ((1.0, 0.0, "-0", "nan", "-inf"), (1.0, "-0", 0.0, 1.0, "-inf")),
    ),
    *e2(
        "complex",
        "lambda x, y: jnp.real(lax.complex(x, y) ** 3)",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        None,
    ),
    *e2(
        "imag",
        "lambda x, y: jnp.imag(lax.complex(x, y) ** 3) + jnp.abs(lax.complex(x, y))",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        ((0.0, 1.0), (0.0, 0.0)),
    ),
    *e2(
        "real",
        "lambda x, y: jnp.real(jnp.exp(lax.complex(x, y)))",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        None,
    ),
    *e2(
        "conj",
        "lambda x, y: jnp.imag(jnp.conj(lax.complex(x, y)) * lax.complex(y, x) ** 2)",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        None,
    ),
    *e2(
        "wofz",
        "lambda x, y: jnp.real(jsp.wofz(lax.complex(x, y))) + jnp.imag(jsp.wofz(lax.complex(x, y)))",
        ((-1.0, 0.5, 2.0), (0.3, 0.4, 1.1)),
        ((0.0, 0.0), (0.0, 30.0)),
        ulps=64,
    ),
    *e2(
        "igamma",
        "lax.igamma",
        ((0.5, 1.5, 3.0), (0.3, 1.2, 2.5)),
        ((1.0, 2.0, 0.5, "inf"), (0.0, "inf", 1e-30, 1.0)),
        orders=2,
    ),
    *e2(
        "igammac",
        "lax.igammac",
        ((0.5, 1.5, 3.0), (0.3, 1.2, 2.5)),
        ((1.0, 2.0), (0.0, "inf")),
        orders=2,
    ),
    *e2("owens_t", "jsp.owens_t", ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)), ((0.0, 1.0), (0.0, 0.0))),
    *e2(
        "select_n",
        "lambda x, y: jnp.where(x > y, x ** 2, jnp.sin(y) * x)",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)),
        ((0.0, 1.0), (0.0, 1.0)),
    ),
    *e2(
        "clamp",
        "lambda x, y: lax.clamp(-1.0 * jnp.abs(y), x, jnp.abs(y)) ** 3",
        ((-0.3, 0.5, 2.0), (0.6, -0.4, 1.1)),
        ((1.0, -1.0, 0.0), (1.0, 1.0, 0.0)),
    ),
    *e2("xlog1py", "jsp.xlog1py", ((-1.0, 0.5, 2.0), (0.3, -0.4, 1.1)), ((0.0, 0.0), (-1.0, 0.0))),
    *e2(
        "polygamma",
        "lambda x, y: lax.polygamma(jnp.ones_like(x), x) * y",
        ((0.5, 1.5, 3.0), (0.3, 1.2, 2.5)),
        ((0.0, -1.0), (1.0, 1.0)),
    ),
    *e2(
        "expn",
        "lambda x, y: jsp.expn(2, x) * y",
        ((0.5, 1.5, 3.0), (0.3, 1.2, 2.5)),
        ((0.0, "inf"), (1.0, 1.0)),
    ),
    *e2(
        "hyp1f1",
        "lambda x, y: jsp.hyp1f1(0.5, 1.5, x) * y",
        ((-1.0, 0.5, 2.0), (0.3, 1.2, 2.5)),
        None,
        ulps=64,
    ),
    *e2(
        "hyp2f1",
        "lambda x, y: jsp.hyp2f1(0.5, 1.5, 2.5, x) * y",
        ((-0.5, 0.2, 0.6), (0.3, 1.2, 2.5)),
        None,
        ulps=64,
    ),
    *e2(
        "regularized_incomplete_beta",
        "lambda x, y: jsp.betainc(1.5, 2.5, x) * y",
        ((0.1, 0.4, 0.8), (0.3, 1.2, 2.5)),
        ((0.0, 1.0), (1.0, 1.0)),
        ulps=64,
    ),
    *e2(
        "bessel_j",
        "lambda x, y: jsp.bessel_jn(x, v=2)[2] * y",
        ((0.5, 1.5, 3.0), (0.3, 1.2, 2.5)),
        ((0.0, 1e-3), (1.0, 1.0)),
        ulps=64,
    ),
    *e2(
        "sph_harm_y",
        "lambda x, y: jnp.real(jsp.sph_harm_y(jnp.array([2, 2, 2]), jnp.array([1, 1, 1]), x, y, n_max=2))",
        ((0.5, 1.5, 3.0), (0.3, 1.2, 2.5)),
        None,
        ulps=64,
    ),
    *e2(
        "logaddexp2",
        "jnp.logaddexp",
        ((-1.0, 0.5, 2.0), (0.3, -0.4, 2.0)),
        ((0.0, "inf", "-inf"), (0.0, "inf", "-inf")),
    ),
]

_W = "jnp.array([0.5, -1.0, 2.0, 0.25], dtype=x.dtype)"
GENERAL: list[Case] = [
    g(
        "broadcast_in_dim",
        "broadcast_in_dim",
        "lambda x: jnp.sin(jnp.broadcast_to(x, (2, 3)))",
        (0.3, -1.2, 2.0),
    ),
    g("reshape", "reshape", "lambda x: jnp.sin(x.reshape(2, 3)) ** 2", _V6),
    g("squeeze", "squeeze", "lambda x: jnp.squeeze(x.reshape(1, 6), 0) ** 3", _V6),
    g("expand_dims", "expand_dims", "lambda x: jnp.expand_dims(x, 0) ** 3", _V6),
    g("transpose", "transpose", "lambda x: jnp.sin(x.reshape(2, 3).T) * x.reshape(3, 2)", _V6),
    g("rev", "rev", "lambda x: jnp.flip(x) * x ** 2", _V6),
    g("slice", "slice", "lambda x: x[1:5:2] ** 3 * x[:2]", _V6),
    g("concatenate", "concatenate", "lambda x: jnp.sin(jnp.concatenate([x, x ** 2, x[:2]]))", _V6),
    g(
        "pad",
        "pad",
        "lambda x: jnp.sin(lax.pad(x, 0.5, [(1, -1, 1)])) * lax.pad(x, 0.0, [(1, -1, 1)])",
        _V6,
    ),
    g("dynamic_slice", "dynamic_slice", "lambda x: lax.dynamic_slice(x, (2,), (3,)) ** 3", _V6),
    g(
        "dynamic_update_slice",
        "dynamic_update_slice",
        "lambda x: jnp.sin(lax.dynamic_update_slice(x, x[:2] ** 2, (3,))) * x",
        _V6,
    ),
    g("gather", "gather", "lambda x: x[jnp.array([0, 2, 2, 5])] ** 3", _V6),
    g(
        "gather/clip",
        "gather",
        "lambda x: jnp.sin(x.at[jnp.array([7, -1, 2])].get(mode='clip')) * x[:3]",
        _V6,
    ),
    g("scatter", "scatter", "lambda x: jnp.sin(x.at[jnp.array([1, 4])].set(x[:2] ** 2)) * x", _V6),
    g(
        "scatter-add",
        "scatter-add",
        "lambda x: jnp.sin(x.at[jnp.array([1, 1, 4])].add(x[:3] ** 2)) * x",
        _V6,
    ),
    g(
        "scatter-mul",
        "scatter-mul",
        "lambda x: jnp.sin(x.at[jnp.array([1, 4])].multiply(2.0)) * x",
        _V6,
    ),
    g(
        "scatter-max",
        "scatter-max",
        "lambda x: x.at[jnp.array([1, 4, 0])].max(x[3:] ** 2) ** 3",
        _V6,
    ),
    g(
        "scatter-max/ties",
        "scatter-max",
        "lambda x: x.at[jnp.array([0, 0, 1])].max(x[3:]) ** 3",
        (1.0, 2.0, 0.5, 1.0, 1.0, 2.0),
        fd=False,
    ),
    g(
        "scatter-min",
        "scatter-min",
        "lambda x: x.at[jnp.array([1, 4, 0])].min(x[3:] ** 2) ** 3",
        _V6,
    ),
    g("reduce_sum", "reduce_sum", "lambda x: jnp.sin(x.reshape(2, 3).sum(0)) * x.sum()", _V6),
    g("reduce_prod", "reduce_prod", "lambda x: jnp.prod(x.reshape(2, 3), axis=1) ** 2", _V6),
    g(
        "reduce_prod/zeros",
        "reduce_prod",
        "lambda x: jnp.prod(x.reshape(2, 3), axis=1) ** 2",
        (0.0, 2.0, 3.0, 0.0, 0.0, 1.5),
        fd=False,
    ),
    g("reduce_max", "reduce_max", "lambda x: jnp.max(x.reshape(2, 3), axis=1) ** 3", _V6),
    g(
        "reduce_max/ties",
        "reduce_max",
        "lambda x: jnp.max(x.reshape(2, 3), axis=1) ** 3",
        (1.0, 2.0, 2.0, -1.0, -1.0, -1.0),
        fd=False,
    ),
    g("reduce_min", "reduce_min", "lambda x: jnp.min(x.reshape(2, 3), axis=1) ** 3", _V6),
    g(
        "reduce_min/ties",
        "reduce_min",
        "lambda x: jnp.min(x.reshape(2, 3), axis=1) ** 3",
        (1.0, 0.5, 0.5, "nan", 1.0, 2.0),
        fd=False,
    ),
    g("cumsum", "cumsum", "lambda x: jnp.sin(jnp.cumsum(x))", _V6),
    g("cumprod", "cumprod", "lambda x: jnp.cumprod(x)", _V6),
    g(
        "cumprod/zeros",
        "cumprod",
        "lambda x: jnp.cumprod(x)",
        (2.0, 0.0, 3.0, 0.0, 1.5, -1.0),
        fd=False,
    ),
    g("cummax", "cummax", "lambda x: lax.cummax(x) ** 3", _V6),
    g(
        "cummax/ties",
        "cummax",
        "lambda x: lax.cummax(x) ** 3",
        (1.0, 1.0, 0.0, 2.0, 2.0, 2.0),
        fd=False,
    ),
    g("cummin", "cummin", "lambda x: lax.cummin(x) ** 3", _V6),
    g("cumlogsumexp", "exp", "lambda x: lax.cumlogsumexp(x)", _V6),
    g(
        "sort",
        "sort",
        "lambda x: jnp.sort(x) * jnp.array([1., 2., 3., 4., 5., 6.], x.dtype) + jnp.sort(x) ** 3",
        _V6,
    ),
    g(
        "sort/ties",
        "sort",
        "lambda x: jnp.sort(x) ** 3 * jnp.arange(1., 7., dtype=x.dtype)",
        (1.0, 1.0, 0.0, 2.0, 1.0, 0.0),
        fd=False,
    ),
    g(
        "sort/keyval",
        "sort",
        "lambda x, y: lax.sort((x, y), num_keys=1)[1] ** 3 * x",
        (0.4, -1.2, 0.9),
        (1.0, 2.0, 3.0),
    ),
    g(
        "reduce_window/max",
        "reduce_window",
        "lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (3,), (1,), 'VALID') ** 3",
        _V6,
    ),
    g(
        "reduce_window/ties",
        "reduce_window",
        "lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (3,), (1,), 'VALID') ** 3",
        (1.0, 1.0, 0.0, 2.0, 2.0, 0.0),
        fd=False,
    ),
    g(
        "reduce_window/sum",
        "reduce_window",
        "lambda x: jnp.sin(lax.reduce_window(x, 0.0, lax.add, (2,), (2,), 'SAME'))",
        _V6,
    ),
    g("top_k", "sort", "lambda x: lax.top_k(x, 3)[0] ** 3", _V6),
    g("dot_general", "dot_general", "lambda a, b: jnp.sin(a @ b)", _M2, ((0.3, -1.0), (2.0, 0.5))),
    g(
        "conv_general_dilated",
        "conv_general_dilated",
        "lambda x, w: jnp.sin(lax.conv(x.reshape(1, 1, 6), w.reshape(1, 1, 3), (1,), 'SAME'))",
        _V6,
        (0.5, -1.0, 0.3),
    ),
    g(
        "conv_lhs_transpose",
        "conv_lhs_transpose",
        "lambda x, w: jnp.sin(lax.conv(x.reshape(1, 1, 6), w.reshape(1, 1, 3), (2,), 'VALID')) * x[0]",
        _V6,
        (0.5, -1.0, 0.3),
    ),
    g(
        "conv_rhs_transpose",
        "conv_rhs_transpose",
        "lambda x, w: jnp.sin(lax.conv_general_dilated(x.reshape(1, 1, 6), w.reshape(1, 1, 3), (1,), [(1, 1)], rhs_dilation=(2,)))",
        _V6,
        (0.5, -1.0, 0.3),
    ),
    g(
        "fft",
        "fft",
        "lambda x: jnp.sin(jnp.real(jnp.fft.fft(x)) + jnp.fft.irfft(jnp.fft.rfft(x ** 2), 6))",
        _V6,
    ),
    g("fft/imag", "fft", "lambda x: jnp.imag(jnp.fft.ifft(x * jnp.sin(x))) ** 2", _V6),
    g("cholesky", "cholesky", f"lambda m: jnp.linalg.cholesky({_SPD3}(m))", _M3),
    g(
        "triangular_solve",
        "triangular_solve",
        "lambda a, b: jsl.solve_triangular(jnp.tril(a) + 3 * jnp.eye(3, dtype=a.dtype), b, lower=True)",
        _M3,
        (0.5, -1.0, 2.0),
    ),
    g("solve", "solve", "lambda a, b: jnp.linalg.solve(a, b)", _M3, (0.5, -1.0, 2.0)),
    g("inv", "inv", "jnp.linalg.inv", _M3),
    g("det", "det", "lambda m: jnp.linalg.det(m) * m", _M3),
    g("det/singular", "det", "lambda m: jnp.linalg.det(m) * m", ((1.0, 2.0), (2.0, 4.0)), fd=False),
    g("slogdet", "slogdet", "lambda m: jnp.linalg.slogdet(m)[1] * m", _M3),
    g("eigh", "eigh", f"lambda m: jnp.linalg.eigh({_SPD3}(m))[0]", _M3),
    # LAPACK's eigenvectors differ in the last bits between hosts' BLAS kernels (27 float64
    # ulps of the third derivative on an AVX-512 host, under 16 on AVX2)
    g("eigh/vectors", "eigh", f"lambda m: jnp.linalg.eigh({_SPD3}(m))[1] ** 2", _M3, ulps=64),
    g(
        "eigh/degenerate",
        "eigh",
        "lambda m: jnp.linalg.eigh(m + m.T)[0]",
        ((1.0, 0.0), (0.0, 1.0)),
        fd=False,
    ),
    g(
        "eig",
        "eig",
        "lambda m: jnp.real(jnp.linalg.eigvals(m) ** 2).sum() + jnp.real(jnp.prod(jnp.linalg.eigvals(m)))",
        _M3,
    ),
    g("qr", "qr", "lambda m: jnp.linalg.qr(m)[1] ** 2", _M3),
    g("svd", "svd", "lambda m: jnp.linalg.svd(m, compute_uv=False)", _M3),
    g("svd/vectors", "svd", "lambda m: jnp.linalg.svd(m)[0] ** 2", _M3),
    g(
        "svd/repeated",
        "svd",
        "lambda m: jnp.linalg.svd(m, compute_uv=False)",
        ((2.0, 0.0), (0.0, 2.0)),
        fd=False,
    ),
    g("schur", "schur", "lambda m: jsl.schur(m)[0]", _M3, fd=False, orders=1),
    g("hessenberg", "hessenberg", "lambda m: jsl.hessenberg(m)", _M3, fd=False, orders=1),
    g(
        "cond",
        "cond",
        "lambda x: lax.cond(x.sum() > 0, lambda y: jnp.sin(y) * y, lambda y: y ** 3, x)",
        (0.4, -1.2, 0.9),
    ),
    g(
        "cond/false",
        "cond",
        "lambda x: lax.cond(x.sum() > 0, lambda y: jnp.sin(y) * y, lambda y: y ** 3, x)",
        (-0.4, -1.2, 0.9),
    ),
    g(
        "switch",
        "cond",
        "lambda x: lax.switch(1, [jnp.sin, jnp.cos, jnp.tanh], x) * x",
        (0.4, -1.2, 0.9),
    ),
    g(
        "scan",
        "scan",
        "lambda x: lax.scan(lambda c, a: (jnp.sin(c) * a + c, c * a), x[0], x[1:])[1]",
        (0.4, -1.2, 0.9, 0.5),
    ),
    g(
        "scan/fori",
        "scan",
        "lambda x: lax.fori_loop(0, 3, lambda i, c: jnp.sin(c) * c + x, x)",
        (0.4, -1.2, 0.9),
    ),
    g(
        "while",
        "while",
        "lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, jnp.sin(c[1]) * 1.5), (0, x))[1]",
        (0.4, -1.2, 0.9),
        hess=False,
    ),
    g("jit", "jit", "lambda x: jax.jit(lambda y: jnp.sin(y) * y ** 2)(x)", (0.4, -1.2, 0.9)),
    g(
        "remat2",
        "remat2",
        "lambda x: jax.checkpoint(lambda y: jnp.sin(jnp.sin(y)) * y)(x)",
        (0.4, -1.2, 0.9),
    ),
    # the linear part of a checkpointed function, differentiated again (linearize's function)
    g(
        "remat_lin",
        "remat2",
        "lambda x: jax.linearize(jax.checkpoint(lambda y: jnp.sin(y) * jnp.exp(y)), x)[1](jnp.cos(x)) * x",
        (0.4, -1.2, 0.9),
    ),
    g("name", "name", "lambda x: jnp.sin(ckpt.checkpoint_name(x ** 2, 'a')) * x", (0.4, -1.2, 0.9)),
    # a policy that saves a named value: the backward pass reads it as a residual
    g(
        "name/policy",
        "remat2",
        "lambda x: jax.checkpoint(lambda y: jnp.sin(ckpt.checkpoint_name(jnp.sin(y), 'a')) * y, policy=jax.checkpoint_policies.save_only_these_names('a'))(x)",
        (0.4, -1.2, 0.9),
    ),
    # eagerly a custom function is handled by its trace; traced (jit) it is one equation
    g("custom_jvp", "custom_jvp", "lambda x: custom['jvp_sin'](x) * x", (0.4, -1.2, 0.9)),
    g("custom_vjp", "custom_vjp", "lambda x: custom['vjp_sin'](x) * x", (0.4, -1.2, 0.9)),
    g(
        "custom_jvp_call",
        "custom_jvp_call",
        "jax.jit(lambda x: custom['jvp_sin'](x) * x)",
        (0.4, -1.2, 0.9),
    ),
    g(
        "custom_vjp_call",
        "custom_vjp_call",
        "jax.jit(lambda x: custom['vjp_sin'](x) * x)",
        (0.4, -1.2, 0.9),
    ),
    g(
        "remat_opt",
        "remat_opt",
        "jax.jit(lambda x: jax.checkpoint(custom['remat_sin'])(x) * x)",
        (0.4, -1.2, 0.9),
    ),
    g(
        "custom_linear_solve",
        "custom_linear_solve",
        "lambda x: jnp.sin(custom['diag_solve'](jnp.sin(x)))",
        (0.4, -1.2, 0.9),
    ),
    g(
        "custom_vmap_call",
        "custom_vmap_call",
        "lambda x: custom['vmap_sin'](x) * x",
        (0.4, -1.2, 0.9),
    ),
    g("debug_callback", "debug_callback", "lambda x: custom['debug_sin'](x)", (0.4, -1.2, 0.9)),
    g(
        "pure_callback",
        "pure_callback",
        "lambda x: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x) * x",
        (0.4, -1.2, 0.9),
        fd=False,
        orders=1,
    ),
    # a collective's rules run when the differentiation happens inside the named axis
    g(
        "psum",
        "psum",
        "lambda x: jax.vmap(lambda y: jax.grad(lambda z: jnp.sin(lax.psum(z, 'i')) * z ** 2)(y), axis_name='i')(x)",
        (0.4, -1.2, 0.9),
    ),
    g(
        "all_gather",
        "all_gather",
        "lambda x: jax.vmap(lambda y: jax.grad(lambda z: (jnp.sin(lax.all_gather(z, 'i')) * z).sum())(y), axis_name='i')(x)",
        (0.4, -1.2, 0.9),
    ),
    g(
        "random_gamma",
        "random_gamma",
        "lambda a: jax.random.gamma(jax.random.key(0), a)",
        (0.5, 1.5, 4.0),
        fd=False,
        orders=1,
        ulps=64,
    ),
    g(
        "random_uniform",
        "random_uniform",
        "lambda x: jnp.sin(jax.random.uniform(jax.random.key(1), (3,), x.dtype, minval=x - 2.0, maxval=x ** 2 + 1.0))",
        (0.4, -1.2, 0.9),
    ),
    g(
        "random_erf_inv",
        "random_erf_inv",
        "lambda x: jax.random.truncated_normal(jax.random.key(2), x - 1.0, x + 1.0, (3,), x.dtype) ** 3",
        (0.4, -1.2, 0.9),
        ulps=64,
    ),
    g("logsumexp", "reduce_max", "lambda x: jsp.logsumexp(x.reshape(2, 3), axis=1)", _V6),
    g("softmax", "reduce_max", "lambda x: jax.nn.softmax(x)", _V6),
    g("norm", "sqrt", "lambda x: jnp.linalg.norm(x)", _V6),
    g("norm/zero", "sqrt", "lambda x: jnp.linalg.norm(x)", (0.0, 0.0, 0.0), fd=False),
]


# -- measured divergences from JAX (docs/semantics.md, "Derivatives at special points") ------------

#: case -> (tolerance in ulps, point indices where JAX's value is wrong and trellax keeps its own),
#: from ``tools``' golden data. Tolerances are the measured worst distance rounded up to a power
#: of two; they come from functions whose derivative formulas cancel (``1 - 2x D(x)``,
#: ``2x erfcx(x) - 2/sqrt(pi)``, ``1 - tanh**2``, ...) and from special functions that JAX
#: evaluates in float32 with its own polynomials where trellax evaluates in float64 and rounds
#: once. The points: subnormal inputs are never compared (XLA flushes them to zero); the others
#: are where JAX's formula gives NaN, a wrong infinity or cancellation noise (erfcx/dawsn at
#: 1e4 and beyond, bessel_i0e/i1e at the largest floats and the smallest normal one, i0 at 0
#: (JAX differentiates |x|'s kink: 1 instead of 0), exp1 and digamma at infinity (JAX NaN,
#: the limit 0), sinc/fresnel where JAX's 0 is exact only by cancellation, ...).
MEASURED: dict[str, tuple[float, tuple[int, ...]]] = {
    "igamma/special": (16, ()),  # measured
    "softmax": (256, ()),  # measured
    "logsumexp": (64, ()),  # measured
    "svd/vectors": (32, ()),  # measured
    "svd": (32, ()),  # measured
    "eigh/vectors": (16, ()),  # measured
    "eigh": (64, ()),  # measured
    # measured: 79.6 ulps at jvp3 (a third derivative of -1e-5 among terms of 0.05) since the
    # JVP is JAX's scan of logaddexp's rule
    "cumlogsumexp": (96, ()),
    "reduce_min/ties": (8, (3, 4, 5)),  # measured
    "bessel_j/ordinary": (64, (0, 1, 2)),  # measured
    "xlog1py/ordinary": (64, ()),  # measured
    "sph_harm_y/ordinary": (1024, ()),  # measured
    "sinh/special": (256, ()),  # 247 ulps measured
    "cosh/special": (256, ()),  # 247 ulps measured
    "tanh/ordinary": (64, ()),  # 48 ulps measured
    "asinh/ordinary": (128, ()),  # 67 ulps measured
    "exp2/special": (16, ()),  # 9 ulps measured
    "integer_pow/zero": (8, (2,)),  # 0 ulps measured
    "erfcx/ordinary": (2048, ()),  # 1563 ulps measured
    "erfcx/special": (1024, (1, 3, 4, 5, 6, 7)),  # 599 ulps measured
    "lgamma/ordinary": (16, ()),  # 9 ulps measured
    "lgamma/special": (16, (7,)),  # 12 ulps measured
    "digamma/ordinary": (16, ()),  # 9 ulps measured
    "digamma/special": (16, (6,)),  # 12 ulps measured
    "bessel_i0e/ordinary": (64, ()),  # 44 ulps measured
    "bessel_i0e/special": (8, (2, 3, 4, 9)),  # 0 ulps measured
    "bessel_i1e/ordinary": (512, ()),  # 333 ulps measured
    "bessel_i1e/special": (8, (2, 3, 4, 7, 9)),  # 0 ulps measured
    "i0/ordinary": (128, ()),  # 97 ulps measured
    "i0/special": (8, (0, 2, 3, 8)),  # 0 ulps measured
    "exp1/special": (8, (2,)),  # 0 ulps measured
    "dawsn/ordinary": (128, ()),  # 104 ulps measured
    "dawsn/special": (8, (1, 2, 3, 4, 5)),  # 0 ulps measured
    "fresnel_s/ordinary": (32, ()),  # 26 ulps measured
    "fresnel_c/ordinary": (32, ()),  # 22 ulps measured
    "fresnel_c/special": (8, (0, 1)),  # 0 ulps measured
    "sici_si/ordinary": (64, ()),  # 37 ulps measured
    "sici_si/special": (8, (0,)),  # 0 ulps measured
    "spence/ordinary": (512, ()),  # 405 ulps measured
    "spence/special": (8, (0, 1)),  # 0 ulps measured
    "frexp/special": (128, (3, 4)),  # 124 ulps measured
    "erf_inv/ordinary": (128, ()),  # measured
    "erf_inv/special": (4096, ()),  # 2550 ulps measured (at 0.9999, whose value differs)
    "ndtri/ordinary": (16, ()),  # 10 ulps measured
    "ndtri/special": (128, (1, 2, 3)),  # 110 ulps measured
    "log_ndtr/ordinary": (8192, ()),  # measured
    "log_ndtr/special": (128, (1, 4)),  # 90 ulps measured
    "sinc/ordinary": (32, ()),  # 24 ulps measured
    "logaddexp/ordinary": (256, ()),  # 201 ulps measured
    "gelu/ordinary": (128, ()),  # 90 ulps measured
    "gelu/special": (8, (2,)),  # 0 ulps measured
    "sub/ordinary": (16, ()),  # 12 ulps measured
    "wofz/ordinary": (512, ()),  # 283 ulps measured
    "wofz/special": (2048, (1,)),  # 1598 ulps measured
    "igamma/ordinary": (512, ()),  # 374 ulps measured
    "igammac/ordinary": (512, ()),  # 374 ulps measured
    "owens_t/ordinary": (32, ()),  # 30 ulps measured
    "owens_t/special": (8, (1,)),  # 0 ulps measured
    "polygamma/ordinary": (1024, ()),  # 585 ulps measured
    "expn/ordinary": (32, ()),  # 27 ulps measured
    "expn/special": (8, (0, 1)),  # 0 ulps measured
    "bessel_j/special": (64, (0, 1)),  # 0 ulps measured
    # the same function as log_ndtr (and its mirror image)
    "norm_logcdf/ordinary": (8192, ()),
    "norm_logcdf/special": (128, (1, 4)),
    "norm_logsf/ordinary": (8192, ()),
    "norm_logsf/special": (128, (1, 3)),
    "composed/nondiff": (32, ()),  # 19 ulps measured
    "composed/scan_jvp": (64, ()),  # 25 ulps measured
    "zeta/special": (512, ()),  # 470 ulps measured (JAX's float32 series in q)
    # 75.7 ulps measured (third-order jvp) since pinv has the pseudo-inverse's own rule; against
    # the float64 value JAX's float32 is 153.5 ulps off, trellax's 58.5 (7 through the SVD before,
    # then 59 ulps from JAX's)
    "pinv": (96, ()),
}

#: cases whose weakly typed gradients are strong in JAX: JAX's versions return strong results
#: for Python scalars and keep the cotangent strong along its custom_jvp rule; trellax's
#: strong result comes from a cast whose transpose restores the input's weak flag
WEAK_DIFFERS = frozenset(
    {
        "expi/ordinary",
        "expi/special",
        "exp1/ordinary",
        "exp1/special",
        "fresnel_s/ordinary",
        "fresnel_s/special",
        "fresnel_c/ordinary",
        "fresnel_c/special",
        "sici_si/ordinary",
        "sici_si/special",
        "sici_ci/ordinary",
        "sici_ci/special",
        "log_ndtr/ordinary",
        "log_ndtr/special",
        "dawsn/ordinary",
        "dawsn/special",
        "erfcx/ordinary",
        "erfcx/special",
        "spence/ordinary",
        "spence/special",
        "ndtri/ordinary",
        "ndtri/special",
        "norm_logcdf/ordinary",
        "norm_logcdf/special",
        "norm_logsf/ordinary",
        "norm_logsf/special",
    }
)

#: cases where JAX raises and trellax differentiates: a TypeError inside JAX's custom_jvp rules
#: of exp1 and expn at second order; a ValueError for reverse mode through custom_vmap (trellax
#: differentiates its function). trellax's values are checked by finite differences.
JAX_RAISES: dict[str, str] = {
    "exp1/ordinary": "TypeError",
    "exp1/special": "TypeError",
    "expn/ordinary": "TypeError",
    "expn/special": "TypeError",
    "custom_vmap_call": "ValueError",
    # JAX's sph_harm_y takes len() of its 0-d (Python float) argument: TypeError
    "sp_sph_harm_y/ordinary": "TypeError",
    "sp_sph_harm_y/special": "TypeError",
}

#: forward mode through a custom_vjp function: JAX raises TypeError eagerly (trellax's class and
#: text) and NotImplementedError under jit, where the golden values were taken
JIT_ERROR = {"NotImplementedError": "TypeError"}


def _measured(c: Case) -> Case:
    if c.name not in MEASURED:
        return c
    tol, differs = MEASURED[c.name]
    return replace(c, ulps=max(c.ulps, tol), differs=differs)


CASES: tuple[Case, ...] = tuple(_measured(c) for c in (*UNARY, *BINARY, *GENERAL))

#: the cases that are not elementwise whose jacfwd(jacrev) is recorded too
HESSIANS = frozenset(
    {
        "reshape",
        "gather",
        "scatter-add",
        "reduce_prod/zeros",
        "reduce_max/ties",
        "cumprod",
        "sort/ties",
        "dot_general",
        "cholesky",
        "inv",
        "det/singular",
        "eigh",
        "svd",
        "cond",
        "scan",
        "jit",
        "remat2",
        "custom_jvp_call",
        "custom_vjp_call",
        "norm/zero",
    }
)

#: differentiable primitives without a case here, and why. Empty: every primitive with a JVP rule
#: has a case. Not counted as differentiable: those of ``ad_util.ZERO_TANGENT`` (comparisons,
#: integer and bit operations, rounding: their derivative is zero by definition, each with its
#: reason there) and those without a JVP rule (``interpreters/ad.NOT_DIFFERENTIABLE_YET``, each
#: with its reason, e.g. ``custom_lin``, transposed but never differentiated).
#: differentiable primitives with no case here, each with the reason
EXCLUDED: dict[str, str] = {
    "libm_pow": (
        "pow computed by the C library inside logspace/geomspace, with pow's JVP rules (the "
        "'pow' cases); first and second derivatives of logspace in start and stop against "
        "the closed form (tests/test_linspace_xla.py::test_logspace_derivatives_are_pows)"
    ),
    "reshard": (
        "an identity on values (a sharding in the type): first and second derivatives, eager, "
        "jit and vmap, equal the function's without it (tests/test_sharding_derivs.py)"
    ),
    "sharding_constraint": (
        "an identity on values: derivatives as without it (tests/test_sharding_derivs.py)"
    ),
    "composite": (
        "no derivative, as in JAX: its JVP rule raises JAX's ValueError pointing to custom_jvp "
        "(tests/test_composite.py::test_no_derivative)"
    ),
    "to_edtype": (
        "the conversion to a user-defined extended dtype (identity on buffers); its tangents "
        "and cotangents follow the dtype's rules, checked in tests/test_extended_dtypes.py"
    ),
    "from_edtype": (
        "the conversion from a user-defined extended dtype (identity on buffers); checked in "
        "tests/test_extended_dtypes.py"
    ),
    "square": (
        "bound for complex operands only (a real square is integer_pow): its tangent t * 2z is "
        "checked against JAX's jvp in tests/test_fuzz_fixes.py::test_complex_square_jvp"
    ),
    "loggamma_complex": (
        "complex operands only (the deriv cases and their goldens are real): its holomorphic "
        "derivative digamma is checked against JAX's jvp in tests/test_complex_special.py"
    ),
    "gamma_complex": (
        "complex operands only: first and second holomorphic derivatives against JAX's "
        "(tests/test_complex_special.py::test_derivatives_as_jax)"
    ),
    "trigamma_complex": (
        "complex operands only, reached as loggamma's third derivative "
        "(tests/test_complex_special.py::test_higher_derivatives_of_loggamma)"
    ),
    "polygamma_complex": (
        "complex operands only, reached as loggamma's fourth and higher derivatives "
        "(tests/test_complex_special.py::test_higher_derivatives_of_loggamma)"
    ),
    "digamma_complex": (
        "complex operands only, reached as loggamma's second derivative "
        "(tests/test_complex_special.py::test_second_derivative_of_loggamma_and_no_third)"
    ),
    "checkify_check": (
        "a checkify check has no results (nothing to differentiate); its JVP keeps the check on "
        "the primals (tests/test_checkify.py)"
    ),
    "fma": (
        "internal to the samplers and trellax.optim (the multiply-adds XLA contracts into one "
        "FMA in compiled code, lax/fma.py): no public function gives it a tangent; its rule is "
        "a * b + c's (tests/test_optim_reduce.py::test_fma_derivatives)"
    ),
    "xla_complex_reciprocal": (
        "written only by the jit pass for a complex constant divisor, after differentiation "
        "(interpreters/xla_rewrites.py); its rule is 1/y's "
        "(tests/test_div_compound.py::test_jvp_rules_of_the_complex_rewrite_primitives)"
    ),
    "xla_complex_product": (
        "written only by the jit pass for a complex constant divisor, after differentiation "
        "(interpreters/xla_rewrites.py); its rule is x*r's "
        "(tests/test_div_compound.py::test_jvp_rules_of_the_complex_rewrite_primitives)"
    ),
    "random_log": (
        "internal to the samplers (XLA's float32 log of their uniform draws, random/logs.py): "
        "no public function gives it a tangent; its rule is log's (tests/test_xla_log.py)"
    ),
    "random_log1p": (
        "internal to the samplers (XLA's float32 log1p of their uniform draws, random/logs.py): "
        "no public function gives it a tangent; its rule is log1p's (tests/test_xla_log.py)"
    ),
    "random_exp": (
        "internal to the samplers (XLA's float32 exp, random/logs.py); its rule is exp's "
        "(tests/test_xla_elementary.py), and samplers' gradients go through it (lognormal)"
    ),
    "random_tan": (
        "internal to the cauchy sampler (the C library's tanf, random/logs.py): no public "
        "function gives it a tangent; its rule is tan's (tests/test_xla_elementary.py)"
    ),
    "random_pow": (
        "internal to the samplers (the C library's powf, random/logs.py); its rules are power's "
        "(tests/test_xla_elementary.py), and samplers' gradients go through it (weibull_min)"
    ),
}


def custom_functions(jax: Any) -> dict[str, Callable[..., Any]]:
    """custom_jvp/custom_vjp/custom_vmap functions and callbacks, built with ``jax`` (JAX's or
    trellax's top-level module); nested ones call each other three deep."""
    jnp = jax.numpy
    lax = jax.lax

    @jax.custom_jvp
    def jvp_sin(x: Any) -> Any:
        return jnp.sin(x)

    @jvp_sin.defjvp
    def _jvp_sin_rule(primals: Any, tangents: Any) -> Any:
        (x,), (t,) = primals, tangents
        return jnp.sin(x), jnp.cos(x) * t

    @jax.custom_vjp
    def vjp_sin(x: Any) -> Any:
        return jnp.sin(x)

    def _vjp_sin_fwd(x: Any) -> Any:
        return jnp.sin(x), jnp.cos(x)

    def _vjp_sin_bwd(c: Any, g: Any) -> Any:
        return (c * g,)

    vjp_sin.defvjp(_vjp_sin_fwd, _vjp_sin_bwd)

    @jax.custom_vjp
    def remat_sin(x: Any) -> Any:
        return jnp.sin(x)

    remat_sin.defvjp(_vjp_sin_fwd, _vjp_sin_bwd, optimize_remat=True)

    def diag_solve(b: Any) -> Any:
        d = jnp.asarray(np.array([2.0, 3.0, 0.5]), b.dtype)
        return lax.custom_linear_solve(lambda v: d * v, b, lambda mv, r: r / d, symmetric=True)

    @jax.custom_batching.custom_vmap
    def vmap_sin(x: Any) -> Any:
        return jnp.sin(x)

    @vmap_sin.def_vmap
    def _vmap_sin_rule(axis_size: int, in_batched: Any, x: Any) -> Any:
        return jnp.sin(x), in_batched[0]

    def debug_sin(x: Any) -> Any:
        jax.debug.callback(lambda *a: None, x)
        return jnp.sin(x) * x

    # three deep: a custom_jvp calling a custom_jvp calling a custom_jvp (each rule in terms of
    # the next function), and the same with custom_vjp
    @jax.custom_jvp
    def jvp1(x: Any) -> Any:
        return jnp.exp(x) * jnp.sin(x)

    @jvp1.defjvp
    def _jvp1(p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        return jvp1(x), (jnp.exp(x) * (jnp.sin(x) + jnp.cos(x))) * dx

    @jax.custom_jvp
    def jvp2(x: Any) -> Any:
        return jvp1(x) * jvp1(0.5 * x)

    @jvp2.defjvp
    def _jvp2(p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        a, da = jax.jvp(jvp1, (x,), (dx,))
        b, db = jax.jvp(jvp1, (0.5 * x,), (0.5 * dx,))
        return jvp2(x), a * db + da * b

    @jax.custom_jvp
    def jvp3(x: Any) -> Any:
        return jvp2(jnp.tanh(x)) + jvp1(x)

    @jvp3.defjvp
    def _jvp3(p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        y, dy = jax.jvp(lambda u: jvp2(jnp.tanh(u)) + jvp1(u), (x,), (dx,))
        return y, dy

    @jax.custom_vjp
    def vjp1(x: Any) -> Any:
        return jnp.exp(x) * jnp.sin(x)

    vjp1.defvjp(
        lambda x: (vjp1(x), x),
        lambda x, ct: (ct * jnp.exp(x) * (jnp.sin(x) + jnp.cos(x)),),
    )

    @jax.custom_vjp
    def vjp2(x: Any) -> Any:
        return vjp1(x) * vjp1(0.5 * x)

    def _vjp2_bwd(x: Any, ct: Any) -> Any:
        _, pull = jax.vjp(lambda u: vjp1(u) * vjp1(0.5 * u), x)
        return pull(ct)

    vjp2.defvjp(lambda x: (vjp2(x), x), _vjp2_bwd)

    @jax.custom_vjp
    def vjp3(x: Any) -> Any:
        return vjp2(jnp.tanh(x)) + vjp1(x)

    def _vjp3_bwd(x: Any, ct: Any) -> Any:
        _, pull = jax.vjp(lambda u: vjp2(jnp.tanh(u)) + vjp1(u), x)
        return pull(ct)

    vjp3.defvjp(lambda x: (vjp3(x), x), _vjp3_bwd)

    @jax.custom_jvp
    def mixed(x: Any) -> Any:  # a custom_jvp whose rule calls custom_vjp functions
        return vjp3(x) * jvp3(x)

    @mixed.defjvp
    def _mixed(p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        a = vjp3(x)
        b, db = jax.jvp(jvp3, (x,), (dx,))
        da = jax.grad(lambda u: vjp3(u).sum())(x) * dx
        return mixed(x), a * db + da * b

    return {
        "jvp_sin": jvp_sin,
        "vjp_sin": vjp_sin,
        "remat_sin": remat_sin,
        "diag_solve": diag_solve,
        "vmap_sin": vmap_sin,
        "debug_sin": debug_sin,
        "jvp3": jvp3,
        "vjp3": vjp3,
        "mixed": mixed,
        **composed_functions(jax),
    }


CUSTOM: tuple[Case, ...] = (
    Case("nested/custom_jvp", "custom_jvp_call", "custom['jvp3']", ((-1.2, 0.3, 0.9, 2.0),)),
    Case("nested/custom_vjp", "custom_vjp_call", "custom['vjp3']", ((-1.2, 0.3, 0.9, 2.0),)),
    # (second derivatives near a zero of the function: 149 float32 ulps measured)
    Case("nested/mixed", "custom_jvp_call", "custom['mixed']", ((-1.2, 0.3, 0.9, 2.0),), ulps=256),
    Case(
        "nested/jit",
        "custom_jvp_call",
        "jax.jit(lambda x: custom['jvp3'](x) * custom['vjp3'](x))",
        ((-1.2, 0.3, 0.9, 2.0),),
        ulps=256,
    ),
)

# -- public functions whose derivative is a custom rule (JAX's custom_jvp), issue 24 ------------------

_AT0 = (0.0, "-0", *EXTREMES)
_PROB = (0.1, 0.3, 0.6, 0.9)

#: the public functions with a custom derivative rule in JAX or trellax, and the cases that take
#: their first to third derivatives; ``tests/test_derivs.py`` checks that every such function
#: (JAX's list in ``tests/golden/custom_public.json``, trellax's found by tracing) is here
PUBLIC_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "lax.erf_inv": ("erf_inv/ordinary", "erf_inv/special"),
    "scipy.special.erfinv": ("erf_inv/ordinary", "erf_inv/special"),  # the same function
    "scipy.special.ndtri": ("ndtri/ordinary", "ndtri/special"),
    "scipy.stats.norm.ppf": ("ndtri/ordinary", "ndtri/special"),  # loc + scale * ndtri(q)
    "scipy.stats.norm.isf": ("ndtri/ordinary", "ndtri/special"),  # loc - scale * ndtri(q)
    "nn.relu": ("relu/ordinary", "relu/special"),
    "nn.relu6": ("relu6/ordinary", "relu6/special"),
    "nn.hard_sigmoid": ("hard_sigmoid/ordinary", "hard_sigmoid/special"),
    "nn.hard_silu": ("hard_silu/ordinary", "hard_silu/special"),
    "nn.hard_swish": ("hard_silu/ordinary", "hard_silu/special"),  # the same function
    "nn.log1mexp": ("log1mexp/ordinary", "log1mexp/special"),
    "nn.log_sigmoid": ("log_sigmoid/ordinary", "log_sigmoid/special"),
    "nn.mish": ("mish/ordinary", "mish/special"),
    "nn.softplus": ("softplus/ordinary", "softplus/special"),
    "scipy.special.dawsn": ("dawsn/ordinary", "dawsn/special"),
    "scipy.special.entr": ("entr/ordinary", "entr/special"),
    "scipy.special.erfcx": ("erfcx/ordinary", "erfcx/special"),
    "scipy.special.exp1": ("exp1/ordinary", "exp1/special"),
    "scipy.special.expi": ("expi/ordinary", "expi/special"),
    "scipy.special.expn": ("expn/ordinary", "expn/special"),
    "scipy.special.fresnel": ("fresnel_s/special", "fresnel_c/special"),
    "scipy.special.hyp1f1": ("hyp1f1/ordinary",),
    "scipy.special.hyp2f1": ("hyp2f1/ordinary",),
    "scipy.special.kl_div": ("kl_div/ordinary", "kl_div/special"),
    "scipy.special.log_ndtr": ("log_ndtr/ordinary", "log_ndtr/special"),
    "scipy.special.logit": ("logit/ordinary", "logit/special"),
    "scipy.special.owens_t": ("owens_t/ordinary", "owens_t/special"),
    "scipy.special.poch": ("poch/ordinary", "poch/special"),
    "scipy.special.rel_entr": ("rel_entr/ordinary", "rel_entr/special"),
    "scipy.special.sici": ("sici_si/special", "sici_ci/special"),
    "scipy.special.wofz": ("wofz/ordinary", "wofz/special"),
    "scipy.special.xlog1py": ("xlog1py/ordinary", "xlog1py/special"),
    "scipy.special.xlogy": ("xlogy2/ordinary", "xlogy2/special"),
    "scipy.special.zeta": ("zeta/ordinary", "zeta/special"),
    # trellax only: a rule exact through lmbda == 0 (trellax/_src/scipy/special_boxcox.py)
    "scipy.special.boxcox": ("sp_boxcox/ordinary", "sp_boxcox/special"),
    "scipy.special.boxcox1p": ("sp_boxcox1p/ordinary", "sp_boxcox1p/special"),
    "numpy.frexp": ("frexp/ordinary", "frexp/special"),
    "numpy.i0": ("i0/ordinary", "i0/special"),
    "lax.cumlogsumexp": ("cumlogsumexp",),  # the JVP of a scan of logaddexp, as JAX's
    "numpy.logaddexp": ("logaddexp2/ordinary", "logaddexp2/special"),  # (named before base 2)
    "numpy.logaddexp2": ("logaddexp_base2/ordinary", "logaddexp_base2/special"),
    "numpy.sinc": ("sinc/ordinary", "sinc/special"),
    "numpy.linalg.pinv": ("pinv",),
    "numpy.linalg.slogdet": ("slogdet",),
    "scipy.stats.norm.logcdf": ("norm_logcdf/ordinary", "norm_logcdf/special"),
    "scipy.stats.norm.logsf": ("norm_logsf/ordinary", "norm_logsf/special"),
}

_C = "custom_jvp"  # a label (eagerly a custom_jvp function runs its rule, not a primitive's)
PUBLIC: tuple[Case, ...] = tuple(
    _measured(c)
    for c in (
        *e1(_C, "jax.nn.relu6", _ORD, (6.0, 7.0, 5.5, *_AT0), "relu6"),
        *e1(
            _C, "jax.nn.hard_sigmoid", _ORD, (3.0, -3.0, 0.0, "inf", "-inf", "nan"), "hard_sigmoid"
        ),
        *e1(_C, "jax.nn.hard_silu", _ORD, (3.0, -3.0, 0.0, "inf", "-inf", "nan"), "hard_silu"),
        *e1(
            _C,
            "jax.nn.log1mexp",
            (0.1, 0.5, 1.0, 3.0),
            (0.6931471805599453, 1e-30, -1.0, *_AT0),
            "log1mexp",
        ),
        *e1(_C, "jax.nn.log_sigmoid", _ORD, (100.0, -100.0, *_AT0), "log_sigmoid"),
        *e1(_C, "jax.nn.mish", _ORD, (100.0, -100.0, *_AT0), "mish"),
        *e1(_C, "jsp.logit", _PROB, (0.5, 0.0, 1.0, -0.5, 1.5, "nan", "tiny"), "logit"),
        *e1(_C, "jst.norm.logcdf", _ORD, (0.0, -40.0, 10.0, "inf", "-inf", "nan"), "norm_logcdf"),
        *e1(_C, "jst.norm.logsf", _ORD, (0.0, 40.0, -10.0, "inf", "-inf", "nan"), "norm_logsf"),
        # binary: every mixed partial; the special points are the edges of the rules' cases
        Case("xlogy2/ordinary", _C, "jsp.xlogy", ((0.5, 2.0, -1.0), (0.3, 1.5, 2.0))),
        Case(
            "xlogy2/special",
            _C,
            "jsp.xlogy",
            ((0.0, 0.0, 0.0, 1.0, "inf", 0.0), (0.0, -1.0, 2.0, 0.0, 1.0, "inf")),
            fd=False,
        ),
        Case("kl_div/ordinary", _C, "jsp.kl_div", ((0.5, 2.0, 1.5), (0.3, 1.5, 2.0))),
        Case(
            "kl_div/special",
            _C,
            "jsp.kl_div",
            ((0.0, 0.0, 1.0, -1.0, 1.0), (0.0, 1.0, 0.0, 1.0, "inf")),
            fd=False,
        ),
        Case("rel_entr/ordinary", _C, "jsp.rel_entr", ((0.5, 2.0, 1.5), (0.3, 1.5, 2.0))),
        Case(
            "rel_entr/special",
            _C,
            "jsp.rel_entr",
            ((0.0, 0.0, 1.0, -1.0, 1.0), (0.0, 1.0, 0.0, 1.0, "inf")),
            fd=False,
        ),
        Case("zeta/ordinary", _C, "jsp.zeta", ((1.5, 2.5, 4.0), (0.5, 2.0, 1.5)), orders=2),
        Case(
            "zeta/special",
            _C,
            "jsp.zeta",
            ((1.0, 0.5, 3.0, 3.0, "inf"), (2.0, 2.0, 0.0, -1.5, 1.0)),
            fd=False,
            orders=2,
        ),
        # JAX's higher derivatives of poch are the further off mpmath (up to 141 ulps in
        # float32, 87 in float64: docs/autodiff.md; test_poch_derivatives_against_mpmath pins
        # trellax's); at (-1.5, 1) poch is z, whose exact zero derivatives both libraries
        # round to noise of different signs: that point is not compared (differs)
        Case("poch/ordinary", _C, "jsp.poch", ((0.5, 2.0, 4.0), (2.5, 1.5, 0.5)), ulps=160.0),
        Case(
            "poch/special",
            _C,
            "jsp.poch",
            ((0.0, -1.0, -1.5, 1.5), (2.5, 2.5, 1.0, 0.0)),
            fd=False,
            ulps=160.0,
            differs=(2,),
        ),
        Case(
            "logaddexp_base2/ordinary",
            _C,
            "jnp.logaddexp2",
            ((-1.0, 0.5, 2.0), (0.3, -0.4, 2.0)),
        ),
        Case(
            "logaddexp_base2/special",
            _C,
            "jnp.logaddexp2",
            ((0.0, "inf", "-inf", 1.0, "max"), (0.0, "inf", "-inf", "-inf", "max")),
            fd=False,
        ),
        g("pinv", _C, "jnp.linalg.pinv", _M3),
    )
)


def composed_functions(jax: Any) -> dict[str, Callable[..., Any]]:
    """Custom rules that call custom functions (themselves included), and custom functions
    under jit/vmap/scan/checkpoint, built with ``jax`` (JAX's or trellax's module)."""
    jnp = jax.numpy
    lax = jax.lax

    @jax.custom_jvp
    def self_exp(x: Any) -> Any:  # the rule calls the function itself (issue 24)
        return jnp.exp(x)

    @self_exp.defjvp
    def _self_exp(p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        return self_exp(x), self_exp(x) * dx * 3

    @jax.custom_jvp
    def sin_exp(x: Any) -> Any:  # a rule that differentiates the custom function it calls
        return jnp.sin(x) * self_exp(x)

    @sin_exp.defjvp
    def _sin_exp(p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        d = jnp.cos(x) * self_exp(x) + jnp.sin(x) * jax.grad(lambda u: self_exp(u).sum())(x)
        return sin_exp(x), d * dx

    @jax.custom_vjp
    def sq_sin(x: Any) -> Any:  # a backward rule that calls a custom_jvp function
        return jnp.sin(x) ** 2

    sq_sin.defvjp(
        lambda x: (sq_sin(x), x),
        lambda x, ct: (ct * 2 * jnp.sin(x) * jnp.cos(x) * self_exp(0.0 * x),),
    )

    @jax.custom_jvp
    def vjp_in_jvp(x: Any) -> Any:  # a custom_vjp function inside a custom_jvp rule
        return sq_sin(x) * x

    @vjp_in_jvp.defjvp
    def _vjp_in_jvp(p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        _, pull = jax.vjp(sq_sin, x)
        return vjp_in_jvp(x), (pull(jnp.ones_like(x))[0] * x + sq_sin(x)) * dx

    @jax.custom_vjp
    def grad_in_vjp(x: Any) -> Any:  # a backward rule that takes grad of custom functions
        return sq_sin(x) + jnp.cos(x)

    grad_in_vjp.defvjp(
        lambda x: (grad_in_vjp(x), x),
        lambda x, ct: (jax.grad(lambda u: (sq_sin(u) + jnp.cos(u)).sum())(x) * ct,),
    )

    @functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
    def tanh_pow(x: Any, k: int) -> Any:  # nondiff_argnums; the rule calls the function
        return jnp.tanh(x) ** k

    @tanh_pow.defjvp
    def _tanh_pow(k: int, p: Any, t: Any) -> Any:
        (x,), (dx,) = p, t
        return tanh_pow(x, k), k * tanh_pow(x, k - 1) * (1 - jnp.tanh(x) ** 2) * dx

    @jax.custom_jvp
    def two(x: Any, y: Any) -> Any:  # defjvps, one rule per argument, using the output
        return jnp.sin(x) * jnp.exp(y)

    two.defjvps(
        lambda dx, ans, x, y: jnp.cos(x) * jnp.exp(y) * dx,
        lambda dy, ans, x, y: ans * dy,
    )

    def scanned(x: Any) -> Any:
        body = lambda c, a: (sin_exp(c) * 0.5 + a, vjp_in_jvp(c) + grad_in_vjp(a))  # noqa: E731
        return lax.scan(body, x, jnp.stack([x, 0.5 * x]))[1].sum(0)

    def scanned_jvp(x: Any) -> Any:
        body = lambda c, a: (sin_exp(c) * 0.5 + a, tanh_pow(c, 2) * a)  # noqa: E731
        return lax.scan(body, x, jnp.stack([x, 0.5 * x]))[1].sum(0)

    return {
        "self_exp": self_exp,
        "sin_exp": sin_exp,
        "vjp_in_jvp": vjp_in_jvp,
        "grad_in_vjp": grad_in_vjp,
        "tanh_pow": tanh_pow,
        "two": two,
        "scanned": scanned,
        "scanned_jvp": scanned_jvp,
        "vmapped": jax.vmap(lambda x: sin_exp(x) * tanh_pow(x, 3)),
        "remat": jax.checkpoint(lambda x: sin_exp(x) * tanh_pow(x, 2) + self_exp(x)),
        "remat_vjp": jax.checkpoint(lambda x: sin_exp(x) * vjp_in_jvp(x) + grad_in_vjp(x)),
        "all": jax.vmap(jax.jit(jax.checkpoint(lambda x: sin_exp(x) * tanh_pow(x, 3)))),
        "all_vjp": jax.vmap(jax.jit(jax.checkpoint(lambda x: sin_exp(x) * grad_in_vjp(x)))),
        "cond": jax.vmap(lambda x: lax.cond(x > 0, sin_exp, lambda u: tanh_pow(u, 3), x)),
    }


_PTS = ((-1.2, -0.3, 0.0, 0.4, 1.1),)
#: forward mode through a custom_vjp function raises (in JAX too): reverse mode only
_REV = ("g1", "g2.0", "g3.0.0", "weak1", "weak2", "weak3")
_NOWEAK = ("g1", "g2.0", "g3.0.0", "jvp1", "jvp2", "jvp3", "hess")  # vmap needs an axis


#: composed cases whose custom rules are the true derivative (the others' rules deliberately
#: differ from the function's slope, e.g. ``self_exp``'s 3 exp: finite differences do not apply)
_TRUE_RULES = frozenset({"composed/vjp_in_jvp", "composed/grad_in_vjp", "composed/nondiff"})
COMPOSED: tuple[Case, ...] = tuple(
    replace(_measured(c), fd=c.fd and c.name in _TRUE_RULES)
    for c in (
        Case("composed/self", "custom_jvp_call", "custom['self_exp']", _PTS),
        Case("composed/rule_grads", "custom_jvp_call", "custom['sin_exp']", _PTS),
        Case("composed/vjp_in_jvp", "custom_jvp_call", "custom['vjp_in_jvp']", _PTS, only=_REV),
        Case("composed/grad_in_vjp", "custom_vjp_call", "custom['grad_in_vjp']", _PTS, only=_REV),
        Case("composed/nondiff", "custom_jvp_call", "lambda x: custom['tanh_pow'](x, 3)", _PTS),
        Case(
            "composed/defjvps",
            "custom_jvp_call",
            "custom['two']",
            ((-1.2, 0.4, 1.1), (0.3, -0.5, 0.8)),
        ),
        Case("composed/scan", "custom_jvp_call", "custom['scanned']", _PTS, only=_REV),
        Case("composed/scan_jvp", "custom_jvp_call", "custom['scanned_jvp']", _PTS),
        Case("composed/vmap", "custom_jvp_call", "custom['vmapped']", _PTS, only=_NOWEAK),
        Case("composed/remat", "custom_jvp_call", "custom['remat']", _PTS),
        Case("composed/remat_vjp", "custom_jvp_call", "custom['remat_vjp']", _PTS, only=_REV),
        Case("composed/vmap_jit_remat", "custom_jvp_call", "custom['all']", _PTS, only=_NOWEAK),
        Case(
            "composed/vmap_jit_remat_vjp",
            "custom_jvp_call",
            "custom['all_vjp']",
            _PTS,
            only=("g1", "g2.0", "g3.0.0"),
        ),
        Case("composed/cond", "custom_jvp_call", "custom['cond']", _PTS, fd=False, only=_NOWEAK),
    )
)

#: divergences from JAX found by these cases and not fixed yet (issue 24): case name (or
#: ``name|dtype``) -> what differs. ``test_matches_jax`` expects them to fail (strictly: an entry
#: that starts matching must be removed); docs/autodiff.md lists them.
#: found on 28 Nov 2026 by the public-surface cases (SURFACE), not analysed yet (which side is
#: closer to the exact value, mpmath, is not measured): the first difference of each, and how
#: many of the case's quantities differ
OPEN: dict[str, str] = {}

#: quantities not compared because JAX's own value is wrong: its reverse mode through a scan of
#: a custom_jvp whose rule calls custom functions disagrees with its forward mode (g2 != jvp2
#: in JAX's golden data; trellax's g2 equals JAX's jvp2). docs/autodiff.md has the numbers.
JAX_WRONG: dict[str, tuple[str, ...]] = {
    "composed/scan": ("g2.0", "g3.0.0", "weak2", "weak3"),
    "composed/scan_jvp": ("g2.0", "g3.0.0", "hess", "weak2", "weak3"),
    # derivs-nn (issue 24): bounded against mpmath in tests/test_deriv_exact_derivs_nn.py
    # instead (docs/autodiff.md has the numbers). JAX is the farther one on every quantity of
    # sp_softmax/sp_log_softmax/nn_standardize special; elsewhere both are off, each the closer
    # on some quantities (matching JAX would mean copying its rounding order under XLA).
    "nn_silu/ordinary": ("weak2",),
    "nn_log_softmax/ordinary": ("g3.0.0", "jvp3"),
    "nn_log_softmax/special": ("g3.0.0", "jvp3"),
    "nn_softmax/special": ("g2.0", "g3.0.0", "jvp3"),
    "nn_logsumexp/special": ("g3.0.0", "jvp3"),
    "nn_logmeanexp/ordinary": ("g3.0.0", "jvp3"),
    "nn_logmeanexp/special": ("g3.0.0", "jvp3"),
    "nn_standardize/ordinary": ("g2.0", "g3.0.0", "jvp3"),
    "nn_standardize/special": ("g3.0.0", "jvp3"),
    "sp_log_softmax/special": ("g3.0.0", "jvp3"),
    "sp_logsumexp/special": ("g3.0.0", "jvp3"),
    "sp_softmax/special": ("g2.0", "g3.0.0", "jvp3"),
}

#: (issue 24, the gamma and Bessel surface cases) ``name|dtype`` -> quantities where JAX's value is
#: farther from the exact one (mpmath, 50 digits) than trellax's, or NaN where the limit exists:
#: ``tests/test_deriv_exact_gamma.py`` holds trellax to the exact values (and to the limits at
#: the special points); docs/autodiff.md has the measurements
JAX_WRONG.update(
    {
        "sp_i0e/ordinary|float32": ("weak2", "weak3"),
        # derivs-rest: at -2.5 JAX 9.9 and 19.6 ulps, trellax 1.4 and 2.6 (its i0e, i1e summed
        # in np.longdouble)
        "sp_i0e/ordinary|float64": ("weak2", "weak3"),
        # at -2.5 (weak1-3) JAX 13.9, 148 and 77 ulps, trellax 1.6, 18.6 and 6.5
        "sp_i1e/ordinary|float64": (
            "g2.0",
            "g3.0.0",
            "jvp2",
            "jvp3",
            "hess",
            "weak1",
            "weak2",
            "weak3",
        ),
        "sp_i0e/special|float32": ("g3.0.0", "jvp3", "weak1", "weak2", "weak3"),
        "sp_i0e/special|float64": ("g3.0.0", "jvp3", "weak2", "weak3"),
        "sp_i1e/ordinary|float32": ("g3.0.0", "jvp3", "weak1", "weak2", "weak3"),
        "sp_i1e/special|float32": (
            "g1",
            "g2.0",
            "g3.0.0",
            "jvp1",
            "jvp2",
            "jvp3",
            "hess",
            "weak1",
            "weak2",
            "weak3",
        ),
        "sp_i1e/special|float64": (
            "g1",
            "g2.0",
            "g3.0.0",
            "jvp1",
            "jvp2",
            "jvp3",
            "hess",
            "weak1",
            "weak2",
            "weak3",
        ),
        "sp_i1/ordinary|float32": ("g3.0.0", "jvp3"),
        "sp_i1/ordinary|float64": ("g3.0.0", "jvp3"),
        "sp_gammaln/ordinary|float32": ("weak3",),
        "sp_gammaln/special|float32": ("g3.0.0", "jvp3"),
        "sp_loggamma/ordinary|float32": ("g2.0", "jvp2", "hess"),
        "sp_loggamma/special|float32": ("g2.0", "jvp2", "hess"),
        "sp_factorial/ordinary|float32": ("g1", "g3.0.0", "jvp1", "jvp2", "jvp3", "weak3"),
        "sp_factorial/ordinary|float64": ("g1", "g2.0", "jvp1", "jvp2", "jvp3", "hess"),
        "sp_factorial/special|float32": ("g2.0", "jvp2", "hess"),
        "sp_factorial/special|float64": ("g2.0", "jvp2", "hess"),
        "sp_digamma/ordinary|float32": ("g3.0.0", "jvp3", "weak2", "weak3"),
        "sp_digamma/special|float32": ("g2.0", "g3.0.0", "jvp2", "jvp3", "hess"),
        "sp_polygamma1/ordinary|float32": ("g3.0.0", "jvp3"),
        "sp_polygamma1/special|float32": ("g1", "g2.0", "g3.0.0", "jvp1", "jvp2", "jvp3", "hess"),
        "sp_beta/ordinary|float32": ("g2.0", "g2.1", "g3.0.0", "g3.1.1", "hess"),
        # derivs-rest: with betaln's two-sum correction, at (2.0, 0.7) d3/da2 db trellax 12.9
        # ulps, JAX 21.9; d3/da db2 trellax 2.9, JAX 1.4; at (0.5, 1.5) JAX is the farther one
        "sp_beta/ordinary|float64": ("g2.0", "g3.0.0", "g3.1.1", "hess"),
        "sp_beta/special|float32": ("g1", "g2.0", "g2.1", "g3.1.1", "jvp3", "hess"),
        "sp_beta/special|float64": ("g1", "g2.0", "g2.1", "g3.0.0", "g3.1.1", "hess"),
        "sp_betaln/ordinary|float32": ("jvp2",),
        "sp_betaln/special|float32": (
            "g1",
            "g2.0",
            "g2.1",
            "g3.0.0",
            "g3.1.1",
            "jvp2",
            "jvp3",
            "hess",
        ),
        "sp_betaln/special|float64": (
            "g1",
            "g2.0",
            "g2.1",
            "g3.0.0",
            "g3.1.1",
            "jvp2",
            "jvp3",
            "hess",
        ),
        "sp_comb/ordinary|float32": (
            "g1",
            "g2.0",
            "g2.1",
            "g3.0.0",
            "g3.1.1",
            "jvp1",
            "jvp2",
            "hess",
        ),
        "sp_comb/ordinary|float64": (
            "g1",
            "g2.0",
            "g2.1",
            "g3.0.0",
            "g3.1.1",
            "jvp1",
            "jvp2",
            "jvp3",
            "hess",
        ),
        "sp_comb/special|float64": ("g3.1.1",),
        "sp_comb/special|float32": ("g2.0", "g2.1", "g3.0.0", "g3.1.1", "jvp2", "jvp3", "hess"),
    }
)

#: points (per case|dtype and quantity) where JAX's value is the farther from the exact one and
#: trellax keeps its own: not compared with JAX. ``tests/test_deriv_exact_derivs_hyp.py`` checks
#: trellax there (and everywhere in these cases) against mpmath's values and that JAX's error is
#: the larger; docs/autodiff.md ("scipy.special: boxcox, ...") has the numbers.
JAX_WRONG_AT: dict[str, dict[str, tuple[int, ...]]] = {
    "sp_boxcox/ordinary|float32": {"g3.1.1": (0,)},
    "sp_boxcox/ordinary|float64": {"g3.1.1": (0,)},
    "sp_boxcox/special|float32": {
        "g1": (1, 2, 3, 4),
        "g2.0": (1, 2, 3, 4),
        "g2.1": (1, 3, 4),
        "g3.0.0": (0, 1, 3, 4),
        "g3.1.1": (1, 3, 4),
        "jvp1": (1, 3, 4),
        "jvp2": (1, 3),
        "jvp3": (0, 1, 3),
        "hess": (1, 3),
    },
    "sp_boxcox/special|float64": {
        "g1": (1, 2, 3, 4),
        "g2.0": (1, 2, 3, 4),
        "g2.1": (1, 3, 4),
        "g3.0.0": (0, 1, 3, 4),
        "g3.1.1": (1, 3, 4),
        "jvp1": (1, 3, 4),
        "jvp2": (1, 3),
        "jvp3": (0, 1, 3),
        "hess": (1, 3),
    },
    "sp_boxcox1p/ordinary|float32": {"g3.1.1": (0,)},
    "sp_boxcox1p/ordinary|float64": {
        "g2.1": (0,),
        "g3.1.1": (0, 1),
        "jvp2": (0,),
        "jvp3": (0,),
        "hess": (0, 1),
    },
    "sp_boxcox1p/special|float32": {
        "g1": (1, 2, 3, 4),
        "g2.0": (1, 2, 3, 4),
        "g2.1": (1, 3, 4),
        "g3.0.0": (0, 1, 3, 4),
        "g3.1.1": (1, 3, 4),
        "jvp1": (1, 3, 4),
        "jvp2": (1, 3),
        "jvp3": (0, 1, 3),
        "hess": (1, 3),
    },
    "sp_boxcox1p/special|float64": {
        "g1": (1, 2, 3, 4),
        "g2.0": (1, 2, 3, 4),
        "g2.1": (1, 3, 4),
        "g3.0.0": (0, 1, 3, 4),
        "g3.1.1": (1, 3, 4),
        "jvp1": (1, 3, 4),
        "jvp2": (1, 3),
        "jvp3": (0, 1, 3),
        "hess": (1, 3),
    },
    "sp_gammainc/ordinary|float32": {"jvp1": (0, 1, 2)},
    "sp_gammainc/ordinary|float64": {"g2.1": (0, 1), "g3.1.1": (0,), "jvp1": (0, 1, 2)},
    "sp_gammainc/special|float32": {"g2.1": (3,), "g3.1.1": (3,)},
    "sp_gammaincc/ordinary|float32": {"jvp1": (0, 1, 2)},
    "sp_gammaincc/ordinary|float64": {"g2.1": (0, 1), "g3.1.1": (0,), "jvp1": (0, 1, 2)},
    "sp_gammaincc/special|float32": {"g2.1": (3,), "g3.1.1": (3,)},
    "sp_hyp1f1/special|float32": {"jvp1": (5,), "jvp2": (5,), "jvp3": (5,), "hess": (5,)},
    "sp_hyp1f1/special|float64": {"jvp1": (5,), "jvp2": (5,), "jvp3": (5,), "hess": (5,)},
    "sp_hyp2f1/special|float32": {"jvp1": (5,), "jvp2": (5,), "jvp3": (5,), "hess": (5,)},
    "sp_sph_harm_y/special|float32": {
        "g1": (0, 1, 3),
        "g2.0": (0, 1, 3),
        "g3.0.0": (0, 1, 3),
        "jvp1": (0, 1, 3),
        "jvp2": (0, 1, 3),
        "jvp3": (0, 1, 3),
        "hess": (0, 1, 3),
    },
    "sp_sph_harm_y/special|float64": {
        "g1": (0, 1, 3),
        "g2.0": (0, 1, 3),
        "g3.0.0": (0, 1, 3),
        "jvp1": (0, 1, 3),
        "jvp2": (0, 1, 3),
        "jvp3": (0, 1, 3),
        "hess": (0, 1, 3),
    },
}

_P = "public"  # a label: a public function (of trellax.nn or scipy.special) as a whole
_KINK1 = (1.0, -1.0, 0.0, "inf", "-inf", "nan")
_GAMMA_SPECIAL = (0.0, "-0", -1.0, -1.5, 1e-30, 171.5, "inf", "-inf", "nan")
_V6_SPECIAL = (0.0, 0.0, 3.0, "-inf", 3.0, -1.0)  # a tie of the maximum and a -inf entry

#: (``differs=(6,)`` on the gamma family: their derivatives at +inf are the limits, 0; JAX's NaN,
#: docs/semantics.md)
#: every activation of trellax.nn and every public scipy.special function (as a whole, not only
#: the primitives it is built of), at ordinary points and at its zeros, kinks, ties, poles and
#: the dtype's extremes; ``test_every_public_function_has_a_case`` checks the list is complete
SURFACE: tuple[Case, ...] = tuple(
    replace(c, differs=()) if c.name.endswith("/ordinary") else c  # differs: special points
    for c in (
        *e1(_P, "jax.nn.celu", _ORD, (-100.0, *_AT0), "nn_celu"),
        *e1(_P, "jax.nn.elu", _ORD, (-100.0, *_AT0), "nn_elu"),
        *e1(_P, "jax.nn.selu", _ORD, (-100.0, *_AT0), "nn_selu"),
        *e1(_P, "jax.nn.leaky_relu", _ORD, _AT0, "nn_leaky_relu"),
        *e1(_P, "jax.nn.hard_tanh", _ORD, _KINK1, "nn_hard_tanh"),
        *e1(_P, "jax.nn.silu", _ORD, (100.0, -100.0, *_AT0), "nn_silu"),
        *e1(_P, "jax.nn.soft_sign", _ORD, _AT0, "nn_soft_sign"),
        *e1(_P, "jax.nn.sparse_plus", _ORD, _KINK1, "nn_sparse_plus"),
        *e1(_P, "jax.nn.sparse_sigmoid", _ORD, _KINK1, "nn_sparse_sigmoid"),
        *e1(_P, "jax.nn.squareplus", _ORD, _AT0, "nn_squareplus"),
        *e1(_P, "jax.nn.relu", _ORD, _AT0, "nn_relu"),
        *e1(_P, "jax.nn.tanh", (), _AT0, "nn_tanh"),
        *e1(_P, "jax.nn.identity", (), ("inf", "nan", 0.0), "nn_identity"),
        g("nn_glu/ordinary", _P, "jax.nn.glu", _V6),
        g("nn_glu/special", _P, "jax.nn.glu", (0.0, 0.0, 1e30, -1e30, "inf", 0.0), fd=False),
        g("nn_log_softmax/ordinary", _P, "jax.nn.log_softmax", _V6),
        g("nn_log_softmax/special", _P, "jax.nn.log_softmax", _V6_SPECIAL, fd=False),
        g("nn_softmax/special", _P, "jax.nn.softmax", _V6_SPECIAL, fd=False),
        g("nn_logsumexp/special", _P, "jax.nn.logsumexp", _V6_SPECIAL, fd=False),
        g("nn_logmeanexp/ordinary", _P, "jax.nn.logmeanexp", _V6),
        g("nn_logmeanexp/special", _P, "jax.nn.logmeanexp", _V6_SPECIAL, fd=False),
        g("nn_standardize/ordinary", _P, "jax.nn.standardize", _V6),
        g("nn_standardize/special", _P, "jax.nn.standardize", (1.0,) * 6, fd=False),
        g("sp_log_softmax/special", _P, "jsp.log_softmax", _V6_SPECIAL, fd=False),
        g("sp_logsumexp/special", _P, "jsp.logsumexp", _V6_SPECIAL, fd=False),
        *e1(_P, "jsp.expit", _ORD, (100.0, -100.0, *_AT0), "sp_expit"),
        *e1(_P, "jsp.erf", _ORD, (5.0, -30.0, *_AT0), "sp_erf"),
        *e1(_P, "jsp.erfc", _ORD, (5.0, 30.0, -30.0, *_AT0), "sp_erfc"),
        *e1(_P, "jsp.ndtr", _ORD, (-40.0, 40.0, *_AT0), "sp_ndtr"),
        *e1(_P, "jsp.i0e", _ORD, (700.0, -700.0, *_AT0), "sp_i0e"),
        *e1(_P, "jsp.i1e", _ORD, (700.0, -700.0, *_AT0), "sp_i1e"),
        *e1(_P, "jsp.i1", _ORD, (80.0, -80.0, *_AT0), "sp_i1"),
        *e1(_P, "jsp.gamma", (-1.5, -0.7, 0.3, 2.5), _GAMMA_SPECIAL, "sp_gamma"),
        *e1(_P, "jsp.gammaln", (-1.5, -0.7, 0.3, 2.5), _GAMMA_SPECIAL, "sp_gammaln", differs=(6,)),
        *e1(_P, "jsp.loggamma", _POS, _GAMMA_SPECIAL, "sp_loggamma", differs=(6,)),
        *e1(_P, "jsp.gammasgn", (-1.5, -0.7, 0.3, 2.5), _GAMMA_SPECIAL, "sp_gammasgn"),
        *e1(_P, "jsp.factorial", _POS, (-1.0, -0.5, 170.5, *_AT0), "sp_factorial"),
        *e1(_P, "jsp.digamma", (-1.5, -0.7, 0.3, 2.5), _GAMMA_SPECIAL, "sp_digamma", differs=(6,)),
        *e1(
            _P, "lambda x: jsp.polygamma(1, x)", _POS, _GAMMA_SPECIAL, "sp_polygamma1", differs=(6,)
        ),
        *e1(
            _P,
            "lambda x: jsp.multigammaln(x, 3)",
            (1.5, 2.0, 4.0, 7.0),
            (1.0, 0.9, *_AT0),
            "sp_multigammaln",
            differs=(6,),
        ),
        Case("sp_beta/ordinary", _P, "jsp.beta", ((0.5, 2.0, 3.5), (1.5, 0.7, 2.0))),
        Case(
            "sp_beta/special",
            _P,
            "jsp.beta",
            ((0.0, -1.5, 1.0, "inf", 1e-30), (1.0, 2.0, "inf", 1.0, 1.0)),
            fd=False,
        ),
        Case("sp_betaln/ordinary", _P, "jsp.betaln", ((0.5, 2.0, 3.5), (1.5, 0.7, 2.0))),
        Case(
            "sp_betaln/special",
            _P,
            "jsp.betaln",
            ((0.0, -1.5, 1.0, "inf", 1e-30), (1.0, 2.0, "inf", 1.0, 1.0)),
            fd=False,
        ),
        Case("sp_boxcox/ordinary", _P, "jsp.boxcox", ((0.5, 2.0, 3.0), (0.5, -1.0, 2.0))),
        Case(
            "sp_boxcox/special",
            _P,
            "jsp.boxcox",
            ((1.0, 2.0, 0.0, 0.5, "inf"), (0.0, 0.0, 1.0, 1e-30, 0.5)),
            fd=False,
        ),
        Case("sp_boxcox1p/ordinary", _P, "jsp.boxcox1p", ((0.5, 2.0, -0.5), (0.5, -1.0, 2.0))),
        Case(
            "sp_boxcox1p/special",
            _P,
            "jsp.boxcox1p",
            ((0.0, 2.0, -1.0, 0.5, "inf"), (0.0, 0.0, 1.0, 1e-30, 0.5)),
            fd=False,
        ),
        Case("sp_comb/ordinary", _P, "jsp.comb", ((5.0, 10.0, 7.5), (2.0, 3.0, 2.5))),
        Case(
            "sp_comb/special",
            _P,
            "jsp.comb",
            ((0.0, 5.0, 5.0, 3.0), (0.0, 0.0, 5.0, 4.0)),
            fd=False,
        ),
        Case("sp_gammainc/ordinary", _P, "jsp.gammainc", ((0.5, 2.0, 5.0), (0.3, 1.5, 7.0))),
        Case(
            "sp_gammainc/special",
            _P,
            "jsp.gammainc",
            ((1.0, 2.0, 0.5, 1e-3, "inf"), (0.0, "inf", 1e-30, 1.0, 1.0)),
            fd=False,
        ),
        Case("sp_gammaincc/ordinary", _P, "jsp.gammaincc", ((0.5, 2.0, 5.0), (0.3, 1.5, 7.0))),
        Case(
            "sp_gammaincc/special",
            _P,
            "jsp.gammaincc",
            ((1.0, 2.0, 0.5, 1e-3, "inf"), (0.0, "inf", 1e-30, 1.0, 1.0)),
            fd=False,
        ),
    )
)

SURFACE_MORE: tuple[Case, ...] = (
    g("sp_softmax/special", _P, "jsp.softmax", _V6_SPECIAL, fd=False),
    *e1(
        _P,
        "lambda x: jsp.hyp1f1(0.5, 1.5, x)",
        (),
        (0.0, "-0", 30.0, -30.0, "inf", "-inf", "nan"),
        "sp_hyp1f1",
        ulps=64,
        differs=(3,),  # JAX: -727 (float32), 0.0026973618 (float64); mpmath 0.0026967027
    ),
    *e1(
        _P,
        "lambda x: jsp.hyp2f1(0.5, 1.5, 2.5, x)",
        (),
        (0.0, 1.0, 0.999, -1.0, -10.0, 1.5, "nan"),
        "sp_hyp2f1",
        ulps=64,
        # JAX's slopes 21.37, 0.1648, -inf; mpmath 44.081, 0.13823, 0.016102; at NaN JAX 0.3
        differs=(2, 3, 4, 6),
    ),
    *e1(
        _P,
        "lambda t: jsp.sph_harm_y(jnp.full(t.shape, 3), jnp.full(t.shape, -2), t, 0.7, n_max=3).real",
        (0.3, 1.0, 2.0, 2.8),
        (0.0, "-0", "pi/2", 3.141592653589793, "nan"),
        "sp_sph_harm_y",
    ),
)

#: public functions that are the same function as one with cases (``is`` in trellax, or one
#: that forwards to it), and functions of integers with no derivative
SURFACE_ALIASES: dict[str, str] = {
    "nn.hard_swish": "nn.hard_silu",
    "nn.swish": "nn.silu",
}
SURFACE_NOT_DIFFERENTIABLE = {"scipy.special.bernoulli", "nn.one_hot"}  # of integers

ALL: tuple[Case, ...] = (*CASES, *CUSTOM, *PUBLIC, *COMPOSED, *SURFACE, *SURFACE_MORE)


# -- the derivatives, computed the same way for both libraries ------------------------------------


def resolve(p: Point, dtype: Any) -> float:
    """A point's value in ``dtype``: a number, or a symbol for a special value of the dtype."""
    if not isinstance(p, str):
        return float(np.asarray(p, dtype))
    sign = -1.0 if p.startswith("-") else 1.0
    fi = np.finfo(dtype)
    base = {
        "0": 0.0,
        "max": float(fi.max),
        "tiny": float(fi.tiny),
        "denorm": float(fi.smallest_subnormal),
        "eps": float(fi.eps),
        "inf": math.inf,
        "nan": math.nan,
        "pi/2": float(np.asarray(math.pi / 2, dtype)),
    }[p.lstrip("-")]
    return sign * base


def arg_arrays(case: Case, dtype: Any) -> list[np.ndarray]:
    """The case's arguments as NumPy arrays of ``dtype``."""

    def conv(a: Any) -> Any:
        return [conv(b) for b in a] if isinstance(a, (tuple, list)) else resolve(a, dtype)

    return [np.asarray(conv(a), dtype) for a in case.args]


def pattern(shape: tuple[int, ...], dtype: Any, phase: float) -> np.ndarray:
    """Fixed weights or directions: not all equal, none zero."""
    n = int(np.prod(shape))
    return np.asarray(1.0 + 0.5 * np.sin(np.arange(n) * 1.3 + phase), dtype).reshape(shape)


def namespace(jax: Any) -> dict[str, Any]:
    """The names a case's source may use."""
    return {
        "jax": jax,
        "jnp": jax.numpy,
        "lax": jax.lax,
        "jsp": jax.scipy.special,
        "jsl": jax.scipy.linalg,
        "jst": jax.scipy.stats,
        "np": np,
        "custom": custom_functions(jax),
        "ckpt": importlib.import_module(jax.__name__ + ".ad_checkpoint"),
    }


def quantities(case: Case, nargs: int) -> list[str]:
    """The names of the derivatives recorded for a case (each a tuple over the arguments)."""
    idx = range(nargs)
    names = ["g1"]
    if case.orders >= 2:
        names += [f"g2.{i}" for i in idx]
    if case.orders >= 3:
        names += [f"g3.{i}.{i}" for i in idx]
    # forward mode: every order for elementwise cases; the highest (which nests the others)
    # for the rest, to keep JAX's compile time for the golden data in bounds
    first = 1 if case.elementwise else case.orders
    names += [f"jvp{k}" for k in range(first, case.orders + 1)]
    if case.hess and case.orders >= 2 and (case.elementwise or case.name in HESSIANS):
        names += ["hess"]
    if case.elementwise and nargs == 1:
        names += [f"weak{k}" for k in range(1, case.orders + 1)]
    return [n for n in names if not case.only or n in case.only]


class Derivatives:
    """The functions whose values a case records, built with one library."""

    def __init__(self, jax: Any, case: Case, env: dict[str, Any], dtype: Any) -> None:
        self.jax = jax
        self.case = case
        self.f = eval(case.fn, env)
        self.args = [jax.numpy.asarray(a) for a in arg_arrays(case, dtype)]
        self.n = len(self.args)
        self.every = tuple(range(self.n))
        out = jax.eval_shape(self.f, *self.args)
        self.w = (
            np.ones(out.shape, out.dtype)
            if case.elementwise
            else pattern(out.shape, out.dtype, 0.0)
        )
        self.v = [
            np.ones(a.shape, a.dtype) if case.elementwise else pattern(a.shape, a.dtype, 1.0 + i)
            for i, a in enumerate(self.args)
        ]

    def s(self, *a: Any) -> Any:
        """The scalar whose derivatives are taken: the weighted sum of the outputs."""
        return (self.f(*a) * self.w).sum()

    def g1(self, i: int) -> Callable[..., Any]:
        return self.jax.grad(self.s, argnums=i)

    def h1(self, i: int) -> Callable[..., Any]:
        return lambda *a: (self.g1(i)(*a) * self.v[i]).sum()

    def g2(self, i: int, j: int | tuple[int, ...]) -> Callable[..., Any]:
        return self.jax.grad(self.h1(i), argnums=j)

    def h2(self, i: int, j: int) -> Callable[..., Any]:
        return lambda *a: (self.g2(i, j)(*a) * self.v[j]).sum()

    def g3(self, i: int, j: int, k: int | tuple[int, ...]) -> Callable[..., Any]:
        return self.jax.grad(self.h2(i, j), argnums=k)

    def jvp(self, k: int) -> Callable[..., Any]:
        """``f``'s tangent along ``v``, forward mode nested ``k`` times."""
        fn = self.f
        for _ in range(k):
            fn = self._tangent_of(fn)
        return fn

    def _tangent_of(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        v = tuple(self.v)
        return lambda *a: self.jax.jvp(fn, tuple(a), v)[1]

    def hess(self) -> Callable[..., Any]:
        jx = self.jax
        return jx.jacfwd(jx.jacrev(self.s, argnums=self.every), argnums=self.every)

    def weak(self, k: int) -> tuple[Callable[..., Any], list[Any]]:
        fn = self.f
        for _ in range(k):
            fn = self.jax.grad(fn)
        return fn, [float(np.asarray(self.args[0]).reshape(-1)[0])]

    def function(self, name: str) -> tuple[Callable[..., Any], list[Any]]:
        """The function a quantity name denotes, and the arguments it is evaluated at."""
        kind, *ix = name.split(".")
        nums = [int(i) for i in ix]
        if kind.startswith("weak"):
            return self.weak(int(kind[4:]))
        if kind.startswith("jvp"):
            return self.jvp(int(kind[3:])), self.args
        if kind == "hess":
            return self.hess(), self.args
        grads = {"g1": self.g1, "g2": self.g2, "g3": self.g3}[kind]
        return grads(*nums, self.every), self.args  # type: ignore[operator]


def leaves(x: Any) -> list[Any]:
    """The arrays of a (nested) tuple result, in order."""
    if isinstance(x, (tuple, list)):
        return [leaf for part in x for leaf in leaves(part)]
    return [x]


# -- which public functions differentiate through a custom rule ------------------------------------

#: the modules searched (as ``jax.<name>`` / ``trellax.<name>``) and the prefix of the names
SEARCHED = ("nn", "scipy.special", "numpy", "numpy.linalg", "lax", "scipy.stats.norm")
_CUSTOM_PRIMS = frozenset({"custom_jvp_call", "custom_vjp_call", "custom_vjp_call_jaxpr"})


def _prims(eqns: Any) -> Any:
    """The primitive names of a jaxpr's equations, nested jaxprs included."""
    for e in eqns:
        yield e.primitive.name
        for p in e.params.values():
            for sub in p if isinstance(p, (list, tuple)) else [p]:
                inner = getattr(sub, "jaxpr", None)
                inner = getattr(inner, "jaxpr", inner)
                if inner is not None and hasattr(inner, "eqns"):
                    yield from _prims(inner.eqns)


def custom_rule_functions(jax: Any) -> list[str]:
    """The public functions of ``SEARCHED`` whose trace, at float32 scalars (one to four
    arguments) or a 2x2 matrix, holds a custom_jvp/custom_vjp call: those whose derivative is
    a custom rule."""
    found = []
    inputs = [tuple(np.float32(0.5 + 0.25 * k) for k in range(n)) for n in range(1, 5)]
    inputs.append((np.eye(2, dtype=np.float32) + 0.5,))
    for mod_name in SEARCHED:
        mod = importlib.import_module(f"{jax.__name__}.{mod_name}")
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if name.startswith("_") or not callable(fn) or isinstance(fn, type):
                continue
            for args in inputs:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        traced = jax.make_jaxpr(fn)(*args)
                except Exception:  # not a function of these arguments: the next ones
                    continue
                if set(_prims(traced.jaxpr.eqns)) & _CUSTOM_PRIMS:
                    found.append(f"{mod_name}.{name}")
                break
    return found
