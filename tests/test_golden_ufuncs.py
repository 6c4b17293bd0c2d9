"""The ``jnp.ufunc`` objects (``jnp.add``, ``jnp.logaddexp``, ...) against golden results from JAX.

Each case of tests/golden/ufuncs.json (written by ``tools/gen_golden_ufuncs.py``) calls a ufunc
method (``reduce``, ``accumulate``, ``outer``, ``at``, ``reduceat``) or reads an attribute;
trellax must give the same dtype, weak flag, shape and values, or the same exception class.
The checking is that of tests/test_golden_names.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_golden_names import check_leaf, input_rtol, make_arg

import trellax
import trellax.lax as lax
import trellax.numpy as jnp

DATA = json.loads((Path(__file__).parent / "golden" / "ufuncs.json").read_text())
CASES = DATA["cases"]

UFUNCS = ["add", "bitwise_and", "bitwise_or", "bitwise_xor", "logaddexp", "logaddexp2",
          "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
          "negative", "subtract"]  # fmt: skip


#: (expr, args, x64 or None for both) -> reason: trellax differs from JAX 0.10.2 on purpose.
_WHERE = ("arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:bool:[[True, False], [False, False]]")
_ASSERT = "JAX fails with an internal AssertionError; trellax folds initial in"
DIFFERENT: dict[tuple[str, tuple[str, ...], bool | None], str] = {
    ("jnp.logaddexp.reduce(a0, initial=a1)", ("arr:int32:[[1, 2], [3, 4]]", "py:3"), None): _ASSERT,
    ("jnp.logaddexp.reduce(a0, where=a1, initial=3)", _WHERE, None): _ASSERT,
    ("jnp.logaddexp2.reduce(a0, where=a1, initial=3)", _WHERE, True): _ASSERT,
    ("jnp.logaddexp2.reduce(a0, dtype=jnp.float32)", ("arr:int8:[[1, 2], [3, 4]]",), True): (
        "JAX ignores dtype=float32 here under x64 (float64); trellax reduces in the dtype asked"
    ),
}


def _id(case: dict[str, Any]) -> str:
    return f"{case['expr']}|{','.join(case['args'])}|x64={case['x64']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_golden(case: dict[str, Any]) -> None:
    key = (case["expr"], tuple(case["args"]))
    reason = DIFFERENT.get((*key, None)) or DIFFERENT.get((*key, case["x64"]))
    if reason:
        pytest.xfail(reason)
    want = case["result"]
    with trellax.enable_x64(case["x64"]):
        try:
            args = {f"a{i}": make_arg(s) for i, s in enumerate(case["args"])}
            out = eval(case["expr"], {"jnp": jnp, "lax": lax, "inf": np.inf, **args})
        except Exception as e:
            assert "error" in want, f"raised {type(e).__name__}: {e}"
            assert want["error"] in {c.__name__ for c in type(e).__mro__}, (
                f"{type(e).__name__} is not JAX's {want['error']}: {e}"
            )
            return
        assert "error" not in want, f"expected {want['error']}, got {out!r}"
        leaves = (
            [out]
            if isinstance(out, (bool, int, float)) or out is None
            else trellax.tree_util.tree_leaves(out)
        )
        assert len(leaves) == len(want["outputs"])
        for i, (g, w) in enumerate(zip(leaves, want["outputs"], strict=True)):
            if isinstance(g, float) and not np.isfinite(g):  # the file writes inf as a string
                assert str(g) == w["value"], f"output {i}"
                continue
            check_leaf(g, w, f"output {i}", input_rtol(case["args"]))


@pytest.mark.parametrize("name", UFUNCS)
def test_is_a_ufunc_and_calls_the_plain_function(name: str) -> None:
    u = getattr(jnp, name)
    assert isinstance(u, jnp.ufunc)
    assert u.__name__ == name
    args = (jnp.array([3, -1, 0], jnp.int32),) * u.nin
    plain = u.__wrapped__
    np.testing.assert_array_equal(np.asarray(u(*args)), np.asarray(plain(*args)))


def test_methods_trace_and_differentiate() -> None:
    x = jnp.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    f = trellax.jit(lambda v: jnp.logaddexp.reduce(v, axis=1) + jnp.add.reduce(v, axis=1))
    np.testing.assert_allclose(
        np.asarray(f(x)),
        np.log(np.exp(np.asarray(x)).sum(1)) + np.asarray(x).sum(1),
        rtol=1e-6,
    )
    g = trellax.grad(lambda v: jnp.logaddexp.reduce(v))(jnp.array([0.0, 1.0, 2.0]))
    e = np.exp([0.0, 1.0, 2.0])
    np.testing.assert_allclose(np.asarray(g), e / e.sum(), rtol=1e-6)
    h = trellax.grad(lambda v: jnp.maximum.accumulate(v).sum())(jnp.array([1.0, 3.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(h), [1.0, 2.0, 0.0])
    at = trellax.jit(lambda v, i: jnp.add.at(v, i, 1.0, inplace=False))
    np.testing.assert_array_equal(
        np.asarray(at(jnp.zeros(3), jnp.array([0, 0, 2]))), [2.0, 0.0, 1.0]
    )


def test_logaddexp_reduce_extremes() -> None:
    """One pass (max, then a sum of exponentials) keeps the extremes a left fold keeps."""
    r = jnp.logaddexp.reduce(jnp.array([1e30, 1e30, -1e30], jnp.float32))
    assert float(r) == pytest.approx(1e30 + np.log(2.0), rel=1e-6)
    assert float(jnp.logaddexp.reduce(jnp.array([-np.inf, -np.inf]))) == -np.inf
    assert float(jnp.logaddexp.reduce(jnp.array([np.inf, 0.0]))) == np.inf
    assert np.isnan(float(jnp.logaddexp.reduce(jnp.array([np.inf, np.nan]))))
    assert float(jnp.logaddexp2.reduce(jnp.array([3.0, 3.0]))) == 4.0


def test_generic_at_uses_numpy_index_rules() -> None:
    """A multi-dimensional index tuple addresses one element, repeated positions apply in order."""
    x = jnp.zeros((2, 3), jnp.int32)
    r = jnp.bitwise_xor.at(x, (jnp.array([0, 0, 1]), jnp.array([1, 1, 2])), 5, inplace=False)
    np.testing.assert_array_equal(np.asarray(r), [[0, 0, 0], [0, 0, 5]])
    with pytest.raises(NotImplementedError, match="inplace=False"):
        jnp.bitwise_xor.at(x, 0, 1)
