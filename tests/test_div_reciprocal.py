"""``mean`` multiplies by the count's reciprocal, as JAX's (XLA's simplifier): bit for bit against
JAX 0.10.2 (``tests/golden/div_reciprocal.json``, ``tools/gen_golden_div_reciprocal.py``).

The general rule (JAX's ``x / c`` with a constant or broadcast divisor is ``x * (1 / c)``, of
which ``mean``'s constant count is one case) is checked here on these records, and on many more
forms by ``tests/test_div_rules.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from golden_bits import decode as _array
from golden_bits import same_bits as _same_bits

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "div_reciprocal.json").read_text(encoding="utf-8")
)


def _axis(case: dict[str, Any]) -> Any:
    return tuple(case["axis"]) if isinstance(case["axis"], list) else case["axis"]


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [f"{c['x']['dtype']}{tuple(c['x']['shape'])}-axis{_axis(c)}" for c in cases]


@pytest.mark.parametrize("case", GOLDEN["means"], ids=_ids(GOLDEN["means"]))
@pytest.mark.parametrize("form", ["mean", "mean_jit", "average"])
def test_mean_matches_jax_bits(case: dict[str, Any], form: str) -> None:
    x = _array(case["x"])
    axis, keepdims = _axis(case), case["keepdims"]
    with trellax.enable_x64(True):
        a = tnp.asarray(x)
        if form == "mean":
            got = tnp.mean(a, axis=axis, keepdims=keepdims)
        elif form == "mean_jit":
            got = trellax.jit(lambda v: tnp.mean(v, axis=axis, keepdims=keepdims))(a)
        else:
            got = tnp.average(a, axis=axis, keepdims=keepdims)
    want = _array(case[form])
    reduced = x.size if axis is None else int(np.prod([x.shape[i] for i in np.atleast_1d(axis)]))
    if reduced > 7:
        # sums of more than 7 terms: XLA's association order is not NumPy's (docs/semantics.md);
        # the division is what is checked, so the comparison is to the rounding of the sum
        got_f = np.asarray(got, np.float64)
        eps = _eps(want.dtype)
        bound = 4 * eps * float(np.max(np.abs(x.astype(np.float64))))
        np.testing.assert_allclose(got_f, want.astype(np.float64), rtol=4 * eps, atol=bound)
        return
    assert _same_bits(got, want), (np.asarray(got), want)


def _eps(dtype: np.dtype[Any]) -> float:
    return float(ml_dtypes.finfo(dtype).eps)  # type: ignore[no-untyped-call]


def test_mean_is_the_sum_times_the_reciprocal() -> None:
    """The definition itself, on values where a quotient and the product differ."""
    x = np.float32([0.1, 0.2, 0.7, 1.3, 2.9])
    total = np.float32(np.sum(x, dtype=np.float32))
    got = np.asarray(tnp.mean(tnp.asarray(x)))
    assert got == total * (np.float32(1) / np.float32(5))
    rows = np.random.default_rng(0).standard_normal((400, 5)).astype(np.float32)
    sums = np.asarray(tnp.sum(tnp.asarray(rows), axis=1))
    quotients = sums / np.float32(5)
    products = sums * (np.float32(1) / np.float32(5))
    assert (quotients != products).any()  # the rows tell the two apart
    np.testing.assert_array_equal(np.asarray(tnp.mean(tnp.asarray(rows), axis=1)), products)


def test_mean_of_nothing_and_specials() -> None:
    assert np.isnan(np.asarray(tnp.mean(tnp.zeros((0,), "float32"))))
    got = np.asarray(tnp.mean(tnp.asarray(np.float32([np.inf, 1.0, 2.0]))))
    assert got == np.inf
    assert np.isnan(np.asarray(tnp.mean(tnp.asarray(np.float32([np.inf, -np.inf])))))
    big = np.full(4, np.finfo(np.float32).max, np.float32)
    assert np.asarray(tnp.mean(tnp.asarray(big))) == np.inf  # the float32 sum overflows, as JAX's


@pytest.mark.parametrize("i", range(len(GOLDEN["divisions"])))
def test_division_by_a_broadcast_divisor_is_jax_s(i: int) -> None:
    """The general rule (docs/semantics.md, "Division by a constant"): ``x / 7.0`` and a matrix divided by a
    row are the reciprocal products JAX computes, eagerly and under ``jit``, bit for bit."""
    case = GOLDEN["divisions"][i]
    x, row, m = _array(case["x"]), _array(case["row"]), _array(case["m"])
    with trellax.enable_x64(True):
        eager = np.asarray(tnp.asarray(x) / 7.0)
        jitted = np.asarray(trellax.jit(lambda a: a / 7.0)(tnp.asarray(x)))
        by_row = np.asarray(tnp.asarray(m) / tnp.asarray(row))
        by_row_jit = np.asarray(trellax.jit(lambda a, b: a / b)(tnp.asarray(m), tnp.asarray(row)))
    product = x * (x.dtype.type(1) / x.dtype.type(7))
    for got, want in ((eager, case["x_div_7"]), (jitted, case["x_div_7_jit"])):
        want_a = _array(want)
        assert np.array_equal(want_a, product)  # JAX's is the product ...
        assert 0.15 < float(np.mean(want_a != x / x.dtype.type(7))) < 0.6  # ... not the quotient
        assert _same_bits(got, want_a)
    want_row = _array(case["m_div_row"])
    assert np.array_equal(want_row, m * (np.ones_like(row) / row))
    assert _same_bits(by_row, want_row) and _same_bits(by_row_jit, want_row)
