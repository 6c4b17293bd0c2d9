"""Divergences from JAX that ``tools/probe_linalg_sort.py`` found in linear algebra, FFT,
sorting, set operations and statistics, checked against JAX's golden outcomes."""

from __future__ import annotations

import json
import pathlib
import pickle
from typing import Any

import numpy as np
import pytest
from linalg_sort_cases import CASES, RTOL, X64_CASES

import trellax
import trellax.numpy as jnp
import trellax.scipy.linalg

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "linalg_sort.json").read_text())


def _leaves(v: Any) -> list[Any]:
    if isinstance(v, (tuple, list)):
        return [leaf for item in v for leaf in _leaves(item)]
    return [v]


def _check(expr: str, want: Any) -> None:
    env = {"jax": trellax, "jnp": jnp, "np": np, "pickle": pickle}
    if isinstance(want, dict):
        with pytest.raises(Exception) as info:
            eval(expr, env)
        assert type(info.value).__name__ == want["error"]
        return
    got = _leaves(eval(expr, env))
    assert len(got) == len(want)
    for leaf, w in zip(got, want):
        a = np.asarray(leaf)
        assert (str(a.dtype), bool(getattr(leaf, "weak_type", False)), list(a.shape)) == (
            w["dtype"],
            w["weak_type"],
            w["shape"],
        )
        if a.dtype.kind in "fcV":
            parts = np.asarray([a.real, a.imag] if a.dtype.kind == "c" else a).astype(np.float64)
            expected = np.array([float(s) for s in w["values"]]).reshape(parts.shape)
            if expr in RTOL:
                np.testing.assert_allclose(parts, expected, rtol=RTOL[expr], atol=RTOL[expr])
            else:  # bits, with every NaN alike and the sign of zero kept
                num = ~np.isnan(expected)
                np.testing.assert_array_equal(np.signbit(parts[num]), np.signbit(expected[num]))
                np.testing.assert_array_equal(parts, expected)
        else:
            np.testing.assert_array_equal(a.reshape(-1), np.asarray(w["values"], a.dtype))


@pytest.mark.parametrize("expr", CASES)
def test_matches_jax(expr: str) -> None:
    _check(expr, GOLDEN[expr])


@pytest.mark.parametrize("expr", X64_CASES)
def test_matches_jax_x64(expr: str) -> None:
    with trellax.enable_x64(True):
        _check(expr, GOLDEN[f"x64|{expr}"])


def test_interp_period_is_numpys_whatever_ran_before() -> None:
    # JAX 0.10.2 eagerly returns the non-periodic result of an earlier call with other keywords
    # (docs/semantics.md); trellax's periodic result is NumPy's, in any call order
    xp = np.array([0, 1, 2, 4], np.float32)
    fp = np.array([0, 10, -5, 3], np.float32)
    xq = np.array([-1, 0, 0.5, 1.5, 3, 4, 9, np.nan], np.float32)
    jnp.interp(xq, xp, fp, right=7)
    for period in (3, -3):
        got = np.asarray(jnp.interp(xq, xp, fp, period=period))
        np.testing.assert_allclose(got, np.interp(xq, xp, fp, period=period), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_partition_keeps_the_integer_minimum(dtype: Any) -> None:
    # JAX 0.10.2 orders the smallest part through top_k(-x): -min wraps to min, so the minimum
    # is lost and another value doubled (int8 [-128, 0, 5, -127] at kth=0: [-127, 5, 0, -127]);
    # trellax reverses the order with ~x, which cannot wrap (docs/semantics.md)
    info = np.iinfo(dtype)
    x = np.array([info.min, 0, 5, info.min + 1], dtype)
    with trellax.enable_x64(dtype == np.int64):
        for kth in range(4):
            got = np.asarray(jnp.partition(x, kth))
            np.testing.assert_array_equal(np.sort(got), np.sort(x))
            assert got[kth] == np.sort(x)[kth]
            assert (got[:kth] <= got[kth]).all() and (got[kth + 1 :] >= got[kth]).all()
            idx = np.asarray(jnp.argpartition(x, kth))
            np.testing.assert_array_equal(np.sort(idx), np.arange(4))
            assert x[idx[kth]] == np.sort(x)[kth]


def test_documented_departures() -> None:
    # docs/semantics.md, "Where trellax differs from JAX, on purpose": what trellax returns
    # where JAX 0.10.2's value or error is the one listed there
    d = np.diag(np.array([10.0, 4.0, 1.0], np.float32))
    assert int(jnp.linalg.matrix_rank(d, rtol=0.5)) == 1  # relative: above 0.5 * 10
    assert int(jnp.linalg.matrix_rank(d, rtol=0.05)) == 3
    a = np.array([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], np.float32)
    w, v = np.linalg.eigh(a.astype(np.float64))
    exact = (v * np.exp(w)) @ v.T
    got = np.asarray(trellax.scipy.linalg.expm(a))
    np.testing.assert_allclose(got, exact, rtol=2e-6)
    empty = np.zeros(0, np.float32)
    np.testing.assert_array_equal(jnp.nonzero(empty, size=3, fill_value=-7)[0], [-7, -7, -7])
    np.testing.assert_array_equal(jnp.flatnonzero(empty, size=2, fill_value=5), [5, 5])
    counts = jnp.unique_counts(empty, size=8, fill_value=0).counts
    np.testing.assert_array_equal(counts, np.zeros(8, np.int32))
    hist, edges = jnp.histogram(empty, bins=3)
    np.testing.assert_array_equal(hist, [0.0, 0.0, 0.0])
    np.testing.assert_allclose(edges, [0.0, 1 / 3, 2 / 3, 1.0], rtol=1e-6)
    np.testing.assert_array_equal(jnp.polyadd(empty, np.array([1.0, -3.0, 2.0])), [1, -3, 2])
    assert int(jnp.linalg.matrix_rank(np.zeros((0, 0), np.float32))) == 0
    with pytest.raises(ValueError):
        jnp.fft.ihfft(empty)
