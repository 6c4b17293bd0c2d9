"""Behaviours of issue 14 section 2 against golden results from JAX (tests/golden/behaviour.json).

Each case (written by ``tools/gen_golden_behaviour.py``) is an expression over ``jnp``, ``lax``,
``jax`` (here: ``trellax``), ``errors``, ``np`` and ``x64``; trellax must give the same dtype,
weak flag, shape and values, or an exception of the same class (JAX's class name among the
classes of trellax's exception: an ``AxisError`` is a ``ValueError``) whose message contains
JAX's first line (with ``jnp.``/``JAX`` read as ``trellax.numpy.``/``trellax``). ``DIFFERENT``
lists the cases where trellax differs on purpose (each also in docs/semantics.md); ``TEXT``
the cases whose class matches but whose text is trellax's own, with the reason.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.errors as errors
import trellax.lax as lax
import trellax.numpy as jnp

DATA = json.loads((Path(__file__).parent / "golden" / "behaviour.json").read_text())
CASES = DATA["cases"]

#: expr -> reason: trellax differs from JAX on purpose (docs/semantics.md lists each).
DIFFERENT: dict[str, str] = {
    "jnp.arange(3)[[1, 2]]": (
        "a list index means the array of its values, NumPy's meaning (a superset: JAX refuses "
        "non-tuple sequences)"
    ),
    "jnp.arange(5, dtype=jnp.int8).at[2].apply(lambda v: v * 2.5)": (
        "a func that changes the dtype is refused with a TypeError naming both dtypes (JAX "
        "fails in its compiler with a ValueError)"
    ),
    "jnp.logspace(0, 2, 3, base=jnp.array([2.0, 10.0]))": (
        "an array base broadcasts with the end points like any operand (a superset: JAX's "
        "pow refuses the shapes)"
    ),
    "jnp.fft.rfft(jnp.arange(8, dtype=jnp.float16))": (
        "rfft of float16 computes in float32 as fft does (a superset; JAX refuses float16)"
    ),
}
_PROMOTE_TYPES = (
    "an array is not a dtype: TypeError asking for array.dtype (JAX accepts it with a "
    "DeprecationWarning and has announced the error)"
)
_QUANTILE_INT_Q = "an integer q is promoted to an inexact dtype (JAX fails in lax.floor)"
_LEXSORT_1D = (
    "lexsort of one 1-D array refuses 0-d keys (JAX reads it as a sequence of 0-d keys and "
    "returns a 0-d 0)"
)
_UNRAVEL_FLOAT = "unravel_index needs integer indices and shape (JAX computes float 'coordinates')"
_POLY_2D = "polynomial coefficients must be 1-D (JAX's 2-D results are accidents of broadcasting)"
DIFFERENT.update(
    {
        "jnp.promote_types(jnp.asarray(0.5), jnp.ones(3, jnp.float16))": _PROMOTE_TYPES,
        "jnp.promote_types(jnp.asarray(1.5), jnp.asarray(2.0))": _PROMOTE_TYPES,
        "jnp.promote_types(jnp.full((2, 3), 1.5), jnp.full(3, 0.5))": _PROMOTE_TYPES,
        "jnp.promote_types(jnp.full(3, 1.5), jnp.full(3, 2.5))": _PROMOTE_TYPES,
        "jnp.promote_types(jnp.full(3, 2), jnp.full(3, 0.5))": _PROMOTE_TYPES,
        "jnp.promote_types(jnp.full(3, 2), jnp.full(3, 3))": _PROMOTE_TYPES,
        "jnp.quantile(jnp.full(3, 1.5), 2)": _QUANTILE_INT_Q,
        "jnp.quantile(jnp.full(3, 2), jnp.full(3, 3))": _QUANTILE_INT_Q,
        "jnp.nanquantile(jnp.full(3, 1.5), 2)": _QUANTILE_INT_Q,
        "jnp.nanquantile(jnp.full(3, 2), jnp.full(3, 3))": _QUANTILE_INT_Q,
        "jnp.lexsort(jnp.full(3, 1.5))": _LEXSORT_1D,
        "jnp.lexsort(jnp.full(3, 1.5), 2)": _LEXSORT_1D,
        "jnp.lexsort(jnp.full(3, 1.5j))": _LEXSORT_1D,
        "jnp.lexsort(jnp.full(3, 2))": _LEXSORT_1D,
        "jnp.lexsort(jnp.where(True, jnp.full(3, 2), 1))": _LEXSORT_1D,
        "jnp.unravel_index(jnp.asarray(0.5), jnp.ones(3, jnp.float16))": _UNRAVEL_FLOAT,
        "jnp.unravel_index(jnp.asarray(1.5), jnp.asarray(2.0))": _UNRAVEL_FLOAT,
        "jnp.unravel_index(jnp.full((2, 3), 1.5), jnp.full(3, 0.5))": _UNRAVEL_FLOAT,
        "jnp.unravel_index(jnp.full(3, 1.5), 2)": _UNRAVEL_FLOAT,
        "jnp.unravel_index(jnp.full(3, 1.5), jnp.full(3, 2.5))": _UNRAVEL_FLOAT,
        "jnp.unravel_index(jnp.full(3, 2), jnp.full(3, 0.5))": _UNRAVEL_FLOAT,
        "jnp.polyder(jnp.broadcast_to(jnp.asarray(0.25), (2, 3)))": _POLY_2D,
        "jnp.polydiv(jnp.full((2, 3), 1.5), jnp.full(3, 0.5))": _POLY_2D,
        "jnp.histogram(jnp.full(3, 1.5j))": (
            "histogram refuses complex input (JAX bins by lexicographic order and counts in "
            "complex64)"
        ),
        "jnp.trim_zeros(jnp.full(3, 1.5j))": (
            "an entry is zero when both parts are (JAX tests the real part only, so 1.5j is "
            "trimmed), as for any/all"
        ),
        "jnp.ravel_multi_index(jnp.full((2, 3), 1.5), jnp.full(3, 0.5))": (
            "a multi_index of the wrong length is a ValueError naming both lengths (JAX fails "
            "an internal assert: AssertionError)"
        ),
    }
)

_TRACER_TEXT = (
    "trellax's tracer-error texts name the traced value's abstract type and the fix "
    "(tests/test_jit.py pins them); the class is JAX's"
)
_NEGATIVE_TEXT = "trellax names the function and the shape; JAX names its internal broadcast_in_dim"

_INTERNAL_TEXT = (
    "JAX's text comes from its internals (tuple index, len(), concatenate, broadcast); "
    "trellax names the function and the argument"
)
_HASH_TEXT = "JAX's text names its own array class (jaxlib's ArrayImpl), trellax's names trellax's"

#: expr -> reason: same exception class, trellax's own message.
TEXT: dict[str, str] = {
    "lax.dot(jnp.ones((2, 3)), jnp.ones((4, 2)))": "trellax names lax.dot_general as the way out",
    "jnp.einsum('ij,jk', jnp.ones((2, 3)), jnp.ones((4, 2)))": (
        "JAX's text swaps the two sizes (operand 1's 'j' is 4)"
    ),
    "jnp.ones(6).reshape(5)": "trellax prints the requested shape as a tuple",
    "jnp.ones(6).reshape((4, -1))": "same words but 'the product of the specified axis sizes'",
    "jnp.reshape(jnp.ones(6), (-2, 3))": "trellax says that negative dimensions are not allowed",
    "jnp.zeros((2,), dtype=jnp.int32).reshape(-3)": (
        "trellax says that negative dimensions are not allowed"
    ),
    "jnp.zeros(-1)": _NEGATIVE_TEXT,
    "jnp.ones((2, -3))": _NEGATIVE_TEXT,
    "jnp.empty(-2)": _NEGATIVE_TEXT,
    "jnp.full((-1,), 2.0)": _NEGATIVE_TEXT,
    "jnp.eye(-1)": _NEGATIVE_TEXT,
    "lax.broadcast(jnp.ones(2), (-1,))": _NEGATIVE_TEXT,
    "lax.full((-2,), 1.0)": _NEGATIVE_TEXT,
    "jnp.repeat(jnp.ones(3), -1)": "trellax says that repeats may not be negative",
    "jax.jit(lambda x: x[x > 0])(jnp.ones(3))": _TRACER_TEXT,
    "jax.jit(lambda p: jnp.pad(jnp.ones(3), p))(1)": _TRACER_TEXT,
    "jax.jit(lambda p: jnp.pad(jnp.ones(3), (p, 1)))(1)": _TRACER_TEXT,
    "jax.jit(lambda x: int(x))(3)": _TRACER_TEXT,
    "jax.jit(lambda x: bool(x))(3)": _TRACER_TEXT,
    "jax.jit(lambda x: float(x))(3.0)": _TRACER_TEXT,
    "jax.jit(lambda x: np.asarray(x))(3.0)": _TRACER_TEXT,
    "jax.jit(lambda x: x.item())(3.0)": _TRACER_TEXT,
    "jax.jit(lambda x: range(x))(3)": _TRACER_TEXT,
    "jnp.asarray(None)": "trellax names asarray, the function called (JAX names jnp.array)",
    "lax.slice(jnp.ones(3), (0,), (5,))": "trellax names the start and limit indices",
    "lax.dynamic_slice(jnp.ones(3), (0,), (5,))": "trellax names dynamic_slice's sizes",
    "lax.broadcast_in_dim(jnp.ones(3), (2,), (0,))": "a shorter text with the same facts",
    "format(jnp.ones(2), '.2f')": "trellax names its own array class",
    "jax.jit(lambda n: jnp.linspace(0.0, 1.0, n))(3)": _TRACER_TEXT,
    "lax.index_take(jnp.arange(12).reshape(3, 4), (jnp.array([[5, -1]]),), (0,))": (
        "trellax says the index arrays must be 1-D; JAX's text is its internal gather's"
    ),
    "lax.index_take(jnp.full((2, 3), 1.5), (jnp.array([1]),), (-1,))": (
        "trellax names the axis; JAX's text is its internal gather's start_index_map"
    ),
    "jnp.asarray(bytes(b'ab'))": "trellax names the Python type (JAX the NumPy dtype |S2)",
    "jnp.histogram(jnp.ones(3), jnp.asarray(2.0))": "trellax's __index__ text names the dtype",
    "jnp.dsplit(jnp.ones((2, 4)), 2)": "NumPy's AxisError text (JAX's: tuple index out of range)",
    "jnp.vecdot(jnp.asarray(1.5), jnp.ones(3))": _INTERNAL_TEXT,
    "jnp.polyadd(jnp.asarray(1.5), jnp.ones(3))": _INTERNAL_TEXT,
    "jnp.polymul(jnp.asarray(1.5), jnp.ones(3))": _INTERNAL_TEXT,
    "jnp.polyint(jnp.ones((2, 2)))": _INTERNAL_TEXT,
    "jnp.concat(jnp.asarray(1.5))": _INTERNAL_TEXT,
    "jnp.stack(jnp.asarray(1.5))": _INTERNAL_TEXT,
    "jnp.repeat(jnp.ones(3), jnp.full(2, 1))": _INTERNAL_TEXT,
    "jnp.repeat(jnp.asarray(0.5), jnp.ones(3))": _INTERNAL_TEXT,
    "jnp.diagflat(jnp.ones(3), jnp.full(3, 3))": _INTERNAL_TEXT,
    "jnp.histogram2d(jnp.ones(3), jnp.ones(4))": _INTERNAL_TEXT,
    "jnp.diff(jnp.arange(4.0), n=jnp.asarray(1))": _HASH_TEXT,
    "jnp.round(jnp.ones(2), jnp.asarray(1))": _HASH_TEXT,
    "jnp.tril(jnp.ones((2, 2)), jnp.asarray(1))": _HASH_TEXT,
    "jnp.diagonal(jnp.ones((2, 2)), jnp.asarray(0))": _HASH_TEXT,
    "jnp.gradient(jnp.ones(3), axis=jnp.asarray(0))": _HASH_TEXT,
    "jnp.angle(1.0, jnp.asarray(True))": _HASH_TEXT,
}

#: expr -> what is missing: disagreements not fixed yet (xfails; listed in the issue-14 report).
KNOWN: dict[str, str] = {}

_RTOL = {"float16": 2e-3, "bfloat16": 2e-2, "float32": 2e-6, "complex64": 2e-6}


def x64(fn: Callable[[], Any]) -> Any:
    with trellax.enable_x64(True):
        return fn()


NAMES: dict[str, Any] = {"jnp": jnp, "lax": lax, "jax": trellax, "errors": errors, "np": np}
NAMES["x64"] = x64


def decode(v: Any) -> complex:
    if isinstance(v, list):
        return complex(decode(v[0]).real, decode(v[1]).real)
    return complex(float(v))


def normalize(message: str) -> str:
    return message.replace("jnp.", "trellax.numpy.").replace("JAX", "trellax")


def check_leaf(got: Any, want: dict[str, Any], where: str) -> None:
    if "python" in want:
        if want["python"] == "dtype":
            assert str(got) == want["value"], where
            return
        if want["python"] == "str" and hasattr(got, "value"):  # an enum-valued flag
            got = got.value
        assert type(got).__name__ == want["python"], f"{where}: {type(got).__name__}"
        if isinstance(got, float) and not math.isfinite(got):
            assert str(got) == want["value"], where
        else:
            assert got == (decode(want["value"]) if want["python"] == "complex" else want["value"])
        return
    assert str(got.dtype) == want["dtype"], f"{where}: dtype {got.dtype} != {want['dtype']}"
    assert bool(got.weak_type) == want["weak_type"], f"{where}: weak_type {got.weak_type}"
    assert list(got.shape) == want["shape"], f"{where}: shape {got.shape} != {want['shape']}"
    if "values" in want:
        values = np.asarray(got).astype(np.complex128).ravel()
        expected = np.array([decode(v) for v in want["values"]], dtype=np.complex128)
        rtol = _RTOL.get(want["dtype"], 1e-12)
        np.testing.assert_allclose(values, expected, rtol=rtol, atol=rtol * 8, err_msg=where)


def _id(case: dict[str, Any]) -> str:
    return f"{case['group']}|{case['expr']}"


CATALOGUE = [c for c in CASES if c["group"] != "weak"]
#: The weak-array sweep, one test per function (its cases checked in a loop: thousands of
#: parametrized tests would cost more in pytest than in trellax).
SWEEP: dict[str, list[dict[str, Any]]] = {}
for _case in CASES:
    if _case["group"] == "weak":
        SWEEP.setdefault(_case["expr"].split("(")[0], []).append(_case)


def check(case: dict[str, Any]) -> None:
    expr = case["expr"]
    want = case["result"]
    with trellax.enable_x64(False):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = eval(expr, dict(NAMES))  # the golden file's own expressions
        except Exception as e:
            assert "error" in want, f"raised {type(e).__name__}: {e}"
            classes = {c.__name__ for c in type(e).__mro__}
            assert want["error"] in classes, f"{type(e).__name__} is not a {want['error']}: {e}"
            assert set(want["bases"]) <= classes, f"{type(e).__name__}: {want['bases']}"
            if "message" in want and expr not in TEXT:
                assert normalize(want["message"]) in str(e), str(e)
            return
    assert "error" not in want, f"expected {want['error']}: {want.get('message')}, got {out!r}"
    leaves = list(out) if isinstance(out, (tuple, list)) else [out]
    if want["tuple"]:
        leaves = trellax.tree_util.tree_leaves(leaves, is_leaf=lambda v: v is None)
    assert len(leaves) == len(want["outputs"])
    for i, (g, w) in enumerate(zip(leaves, want["outputs"], strict=True)):
        check_leaf(g, w, f"output {i}")


@pytest.mark.parametrize("case", CATALOGUE, ids=_id)
def test_catalogue(case: dict[str, Any]) -> None:
    expr = case["expr"]
    if expr in DIFFERENT:
        pytest.xfail(DIFFERENT[expr])
    if expr in KNOWN:
        pytest.xfail(f"known: {KNOWN[expr]}")
    check(case)


@pytest.mark.parametrize("name", sorted(SWEEP))
def test_weak_sweep(name: str) -> None:
    failures = []
    for case in SWEEP[name]:
        if case["expr"] in KNOWN or case["expr"] in DIFFERENT:
            continue
        try:
            check(case)
        except Exception as e:
            failures.append(f"{case['expr']}: {str(e).splitlines()[0]}")
    assert not failures, "\n".join(failures)


def test_known_weak_sweep_cases_still_differ() -> None:
    """KNOWN shrinks as cases get fixed: an entry whose case now passes must be deleted."""
    fixed = []
    for case in CASES:
        if case["group"] == "weak" and case["expr"] in KNOWN:
            try:
                check(case)
            except Exception:
                continue
            fixed.append(case["expr"])
    assert not fixed, f"delete these KNOWN entries, they pass now: {fixed}"


def test_catalogue_covers_every_item() -> None:
    groups = {c["group"] for c in CASES}
    for g in ("errors.broadcast", "weak", "static_oob", "x64_arrays", "config", "spaces", "fft"):
        assert g in groups
