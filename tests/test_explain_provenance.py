"""``explain_promotions`` reports exactly the casts a function chose, wherever they are.

Provenance is recorded where ``trellax.numpy`` inserts a cast (``promote_to``), not guessed from
the call stack: a cast the user asked for is never reported, an implicit one always is, also
inside reductions and inside ``cond``/``scan``/``while_loop`` bodies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax

I8 = tnp.ones(3, "int8")
F16 = tnp.ones(3, "float16")
U8 = tnp.ones(3, "uint8")

# (function, arguments, the promotions it makes as (api, before dtype, after dtype))
Case = tuple[Callable[..., Any], tuple[Any, ...], list[tuple[str, str, str]]]
IMPLICIT: dict[str, Case] = {
    "multiply": (lambda x, y: x * y, (I8, F16), [("multiply", "int8", "float16")]),
    "add both": (
        lambda x, y: x + y,
        (I8, U8),
        [("add", "int8", "int16"), ("add", "uint8", "int16")],
    ),
    "sqrt": (tnp.sqrt, (I8,), [("sqrt", "int8", "float32")]),
    "true_divide": (lambda x: x / x, (I8,), [("true_divide", "int8", "float32")] * 2),
    "mean": (tnp.mean, (I8,), [("mean", "int8", "float32")]),
    "var": (tnp.var, (U8,), [("var", "uint8", "float32")]),
    "std": (tnp.std, (I8,), [("std", "int8", "float32")]),
    "sum": (tnp.sum, (I8,), [("sum", "int8", "int32")]),
    "sum of bools": (tnp.sum, (tnp.ones(3, bool),), [("sum", "bool", "int32")]),
    "prod of bools": (tnp.prod, (tnp.ones(3, bool),), [("prod", "bool", "int32")]),
    "where": (lambda x, y: tnp.where(x > 0, x, y), (I8, F16), [("where", "int8", "float16")]),
    "cond": (
        lambda x, y: lax.cond(True, lambda a: a * y, lambda a: y, x),
        (I8, F16),
        [("multiply", "int8", "float16")],
    ),
    "scan": (
        lambda x, y: lax.scan(lambda c, r: (c + r, c), y, tnp.stack([x, x]))[0],
        (I8, F16),
        [("add", "int8", "float16")],
    ),
    "while_loop": (
        lambda x, y: lax.while_loop(lambda c: False, lambda c: tnp.maximum(c, x), y),
        (I8, F16),
        [("maximum", "int8", "float16")],
    ),
    "nested": (
        lambda x, y: lax.cond(
            True, lambda a: lax.cond(False, lambda b: b - y, lambda b: y, a), lambda a: y, x
        ),
        (I8, F16),
        [("subtract", "int8", "float16")],
    ),
}

EXPLICIT: dict[str, Case] = {
    "asarray dtype": (lambda x: tnp.asarray(x, dtype="float16"), (I8,), []),
    "array dtype": (lambda x: tnp.array(x, dtype="float32"), (I8,), []),
    "astype": (lambda x: x.astype("float16") + x.astype("float16"), (I8,), []),
    "lax.convert_element_type": (lambda x: lax.convert_element_type(x, "int32"), (I8,), []),
    "mean with dtype": (lambda x: tnp.mean(x, dtype="float32"), (I8,), []),
    "sum with dtype": (lambda x: tnp.sum(x, dtype="int8"), (I8,), []),
    "sum of bools with dtype": (lambda x: tnp.sum(x, dtype="int32"), (tnp.ones(3, bool),), []),
    "any": (tnp.any, (I8,), []),  # a truth test, not a promotion
    "same dtypes": (lambda x, y: x * y - x, (F16, F16), []),
    "mean of floats": (tnp.mean, (F16,), []),  # the float32 accumulator is not a promotion
    "explicit cast in cond": (
        lambda x: lax.cond(True, lambda a: a.astype("float32"), lambda a: tnp.zeros(3), x),
        (I8,),
        [],
    ),
}


@pytest.mark.parametrize("name", [*IMPLICIT, *EXPLICIT])
def test_explain_promotions_reports_exactly_the_implicit_casts(name: str) -> None:
    fun, args, expected = {**IMPLICIT, **EXPLICIT}[name]
    report = trellax.explain_promotions(fun, *args)
    got = sorted((p.function or "", p.before.dtype.name, p.after.dtype.name) for p in report)
    assert got == sorted(expected)
    for p in report:
        assert p.source is not None and __file__ in p.source  # the user's line, not trellax's
