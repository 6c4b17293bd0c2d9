"""The ``KNOWN`` calls of ``tests/edge_public_open.py`` kept different from JAX 0.10.2 because
trellax gives SciPy's value: each is checked here against SciPy in float64 on the same inputs
(NaN, ±inf and zero where SciPy has them, finite values within the dtype's tolerance), so the
reason written next to it is measured, not assumed."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import numpy as np
import pytest
import scipy.special
import scipy.stats
from edge_public_cases import public_environment
from edge_public_open import (
    BERN,
    BINOMP,
    CANCEL,
    FLUSH,
    HUGEDENS,
    KNOWN,
    NANX,
    PARETO,
    SCIPYVAL,
)

import trellax

GOLDEN: dict[str, dict[str, str]] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "edge_public.json").read_text()
)

#: reasons that claim trellax's value is SciPy's (and the relative tolerance, None: the dtype's)
JUDGED: dict[str, float | None] = {
    SCIPYVAL: None, BERN: None, BINOMP: None, NANX: None, PARETO: None, FLUSH: 1e-3,
    CANCEL: 4e-7, HUGEDENS: None,
}  # fmt: skip
#: the dtype's tolerance (as tests/test_edge_sweep.py's)
RTOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 4e-6, "float64": 1e-13}
CASES = sorted(e for e, why in KNOWN.items() if why in JUDGED)


@pytest.fixture(scope="module")
def env() -> dict[str, Any]:
    return public_environment(trellax)


def _args(expr: str, env: dict[str, Any]) -> list[np.ndarray]:
    """The inputs of ``expr`` in float64."""
    tags = expr[expr.index("(") + 1 : -1].split(", ")
    return [np.asarray(env[t], np.float64) for t in tags]


def _scipy(expr: str, env: dict[str, Any]) -> np.ndarray:
    """SciPy's float64 value of ``expr`` (``st.<dist>.<method>(tags)`` or ``sp.<fn>(tags)``)."""
    m = re.fullmatch(r"(st|sp)\.([\w.]+)\(([\w, ]+)\)", expr)
    assert m is not None, expr
    mod = scipy.stats if m[1] == "st" else scipy.special
    fn: Any = mod
    for part in m[2].split("."):
        fn = getattr(fn, part)
    args = _args(expr, env)
    with np.errstate(all="ignore"):
        out: np.ndarray = np.asarray(fn(*args), np.float64)
    return out


def _jax(expr: str) -> np.ndarray:
    """JAX's recorded values of ``expr`` (one array)."""
    want = next(calls[expr] for calls in GOLDEN.values() if expr in calls)
    return np.array([float(v) for v in want.partition(" = ")[2].split()])


@pytest.mark.parametrize("expr", CASES)
def test_known_scipy_values(env: dict[str, Any], expr: str) -> None:
    """Where trellax's value differs from JAX's, it is SciPy's (for CANCEL: JAX is off
    the exact value by more than float32's tolerance, trellax by at most 4e-7)."""
    got = eval(expr, env)
    rtol = JUDGED[KNOWN[expr]] or RTOL[str(got.dtype)]
    value = np.asarray(got, np.float64).ravel()
    jax_value = _jax(expr)
    want = _scipy(expr, env).ravel()
    with np.errstate(all="ignore"):  # the exact value rounded once (overflow, underflow)
        rounded = np.asarray(trellax.numpy.asarray(want).astype(got.dtype), np.float64).ravel()
    same = (value == jax_value) | (np.isnan(value) & np.isnan(jax_value))
    finite = np.isfinite(value) & np.isfinite(jax_value)
    scale = np.abs(jax_value[np.isfinite(jax_value)]).max(initial=0.0)
    same[finite] |= np.abs(value - jax_value)[finite] <= RTOL[str(got.dtype)] * scale
    differ = ~same
    assert differ.any(), f"{expr} matches JAX"
    # SciPy's float64 log-gamma differences cancel too past 1e15 (gamma.logpdf(3e38, 3e38) is
    # 0.0 there, exact -45.25): those elements are checked by tests/test_stats_more.py
    args = np.broadcast_arrays(*_args(expr, env))
    huge = np.zeros(value.shape, bool)
    for a in args:
        huge |= (np.abs(a.ravel()) >= 1e15) & np.isfinite(a.ravel())
    differ &= ~(huge & ~np.isnan(want))
    v, r, w = value[differ], rounded[differ], want[differ]
    np.testing.assert_array_equal(np.isnan(v), np.isnan(r), err_msg=expr)
    exact = ~np.isfinite(r) | (r == 0)
    np.testing.assert_array_equal(v[exact], r[exact], err_msg=expr)
    if re.search(r"\.(pdf|pmf)\(", expr):  # exp of a log density rounded in the dtype
        with np.errstate(divide="ignore"):
            rtol = rtol * np.maximum(1.0, np.abs(np.log(w[~exact])))
    np.testing.assert_array_less(np.abs(v[~exact] - w[~exact]), rtol * np.abs(w[~exact]) + 1e-300)
    if KNOWN[expr] == CANCEL:
        jax_error = np.abs(jax_value[differ] - w) / np.abs(w)
        assert (jax_error > RTOL["float32"]).all(), (expr, jax_error)
