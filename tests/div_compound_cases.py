"""The compound divisions whose bits ``tests/test_div_compound.py`` compares with JAX 0.10.2's
under ``jit`` (``tools/gen_golden_div_compound.py`` records them): each form is written once
against the shared API of ``jax`` and ``trellax``, so the generator and the test run the same
program. ``a``, ``b``, ``c``, ``d`` are 2,000-element vectors of one dtype (``b`` positive, so
``sqrt``/``rsqrt``/``pow`` are defined). The comments say what XLA's algebraic simplifier makes
of each (docs/semantics.md, "Compound divisions under jit")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Form = tuple[tuple[str, ...], Callable[..., Any]]


def _jit(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda J, *ops: J.jit(lambda *xs: f(J, *xs))(*ops)


#: name -> (operand names, function of the module and the operands); real float dtypes
REAL_FORMS: dict[str, Form] = {
    "exp(a)/exp(b)": (
        ("a", "b"),
        _jit(lambda J, a, b: J.numpy.exp(a) / J.numpy.exp(b)),
    ),  # exp(a-b)
    "a/exp(b)": (("a", "b"), _jit(lambda J, a, b: a / J.numpy.exp(b))),  # a * exp(-b)
    "a/exp(b), exp(b)": (("a", "b"), _jit(lambda J, a, b: (a / J.numpy.exp(b), J.numpy.exp(b)))),
    "a/sqrt(b)": (("a", "b"), _jit(lambda J, a, b: a / J.numpy.sqrt(b))),  # a * rsqrt(b)
    "a/rsqrt(b)": (("a", "b"), _jit(lambda J, a, b: a / J.lax.rsqrt(b))),  # a * sqrt(b)
    "a/pow(b,c)": (("a", "b", "c"), _jit(lambda J, a, b, c: a / J.lax.pow(b, c))),  # a*pow(b,-c)
    "a/power(b,2.5)": (("a", "b"), _jit(lambda J, a, b: a / J.numpy.power(b, 2.5))),
    "(a/b)/c": (("a", "b", "c"), _jit(lambda J, a, b, c: (a / b) / c)),  # a / (b*c)
    "(a/b)/c, a/b": (("a", "b", "c"), _jit(lambda J, a, b, c: ((a / b) / c, a / b))),
    "a/(b/c)": (("a", "b", "c"), _jit(lambda J, a, b, c: a / (b / c))),  # (a*c) / b
    "a/(b/c), b/c": (("a", "b", "c"), _jit(lambda J, a, b, c: (a / (b / c), b / c))),
    "(a/b)/(c/d)": (("a", "b", "c", "d"), _jit(lambda J, a, b, c, d: (a / b) / (c / d))),
    "((a/b)/c)/d": (("a", "b", "c", "d"), _jit(lambda J, a, b, c, d: ((a / b) / c) / d)),
    "(a/b)/3": (("a", "b"), _jit(lambda J, a, b: (a / b) / 3.0)),  # (a/b) * (1/3)
    "(a/3)/b": (("a", "b"), _jit(lambda J, a, b: (a / 3.0) / b)),  # (a * (1/3)) / b
    "a/(b/3)": (("a", "b"), _jit(lambda J, a, b: a / (b / 3.0))),
    "a/(3/b)": (("a", "b"), _jit(lambda J, a, b: a / (3.0 / b))),  # (a*b) * (1/3)
    # the rewritten forms' transcendental parts, as JAX computes them alone (trellax's float32 and
    # float64 exp, rsqrt and pow are NumPy's, not XLA's: the test compares the quotients where
    # these agree)
    "exp(a-b)": (("a", "b"), _jit(lambda J, a, b: J.numpy.exp(a - b))),
    "exp(-b)": (("b",), _jit(lambda J, b: J.numpy.exp(-b))),
    "rsqrt(b)": (("b",), _jit(lambda J, b: J.lax.rsqrt(b))),
    "pow(b,-c)": (("b", "c"), _jit(lambda J, b, c: J.lax.pow(b, -c))),
    "power(b,-2.5)": (("b",), _jit(lambda J, b: J.numpy.power(b, -2.5))),
    "a/sqrt(b) eager": (("a", "b"), lambda J, a, b: J.numpy.asarray(a) / J.numpy.sqrt(b)),
    "(a/b)/c eager": (("a", "b", "c"), lambda J, a, b, c: J.numpy.asarray(a) / b / c),
}

#: complex dtypes: complex exp and sqrt are expanded before XLA simplifies, so only these fire
COMPLEX_FORMS: dict[str, Form] = {
    "a/rsqrt(b)": REAL_FORMS["a/rsqrt(b)"],
    "a/pow(b,c)": REAL_FORMS["a/pow(b,c)"],
    "(a/b)/c": REAL_FORMS["(a/b)/c"],
    "a/(b/c)": REAL_FORMS["a/(b/c)"],
    "a/exp(b)": REAL_FORMS["a/exp(b)"],  # not rewritten
    # a complex constant divisor: under jit the product with XLA's folded reciprocal
    "jit(a/(2-3j))": (("a",), _jit(lambda J, a: a / (2 - 3j))),
    "jit(a/d), d closed over": (("a", "d"), lambda J, a, d: J.jit(lambda x: x / d)(a)),
    "a/(2-3j) eager": (("a",), lambda J, a: J.numpy.asarray(a) / (2 - 3j)),  # divides
    "a/b eager": (("a", "b"), lambda J, a, b: J.numpy.asarray(a) / J.numpy.asarray(b)),
    "jit(a/c)": (("a", "c"), _jit(lambda J, a, c: a / c)),
}

#: form -> the part that decides its last bits once rewritten (float16/32/64)
PARTS = {
    "exp(a)/exp(b)": "exp(a-b)",
    "a/exp(b)": "exp(-b)",
    "a/exp(b), exp(b)": "exp(-b)",
    "a/sqrt(b)": "rsqrt(b)",
    "a/pow(b,c)": "pow(b,-c)",
    "a/power(b,2.5)": "power(b,-2.5)",
}

REAL_DTYPES = ("float16", "bfloat16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")
N = 2000


def operands(rng: np.random.Generator, dtype: np.dtype[Any]) -> dict[str, np.ndarray]:
    """``a``, ``c``, ``d`` of either sign, ``b`` positive; magnitudes log-uniform over
    [1e-2, 1e2] (complex: each part), a few zeros, infinities and NaN in ``a``."""

    def real(sign: bool) -> np.ndarray:
        v = np.exp(rng.uniform(np.log(1e-2), np.log(1e2), N))
        return v * rng.choice([-1.0, 1.0], N) if sign else v

    out = {}
    for name in "abcd":
        v: Any = real(name != "b")
        if dtype.kind == "c":
            v = v + 1j * real(True)
        if name == "a":
            v[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0]
        out[name] = np.asarray(v).astype(dtype)
    return out
