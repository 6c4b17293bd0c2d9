"""The remaining ``jax.lax`` / ``jax.lax.linalg`` / ``jax.scipy.linalg`` names of issue 14 against
golden results from JAX (tests/golden/lax_more.json, written by tools/gen_golden_lax_more.py).

Cases are expressions (as in test_golden_names.py): trellax must give the same dtype, weak flag,
shape and values (within the dtype's tolerance), or the same exception class.
``reduce_precision`` is checked bit for bit: the SHA-256 of trellax's result bytes over the same
bit patterns (every pattern of the 16-bit types) must equal JAX's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_golden_names import check_leaf, input_rtol, make_arg

import trellax
import trellax.lax as lax
import trellax.lax.linalg as lax_linalg
import trellax.numpy as jnp
import trellax.scipy.linalg as linalg

DATA = json.loads((Path(__file__).parent / "golden" / "lax_more.json").read_text())
CASES = DATA["cases"]

#: (expr, args) -> reason: deliberate differences (docs/jax_coverage.md), run as xfails.
DELIBERATE: dict[tuple[str, tuple[str, ...]], str] = {
    ("lax.custom_linear_solve(lambda x: x, a0, lambda mv, y: y)", ("py:2.0",)): (
        "JAX hands a Python float b back as a float64 NumPy value even with x64 off; trellax "
        "makes it a weak float32 array first, as every lax function does"
    ),
    (
        "lax.dot_general(a0, a0, (((0,), (0,)), ((), ())), "
        "precision=lax.DotAlgorithm(jnp.float32, jnp.float32, jnp.float32))",
        ("arr:float32:[1.0, 2.0]",),
    ): "JAX's CPU backend refuses most dot algorithms; trellax accepts every one and ignores it",
    ("lax.pshuffle(a0, 'i', [0])", ("arr:float32:[1.0]",)): (
        "an unbound axis name: JAX fails with NotImplementedError (no evaluation rule); trellax "
        "raises the NameError that psum and the other collectives raise in JAX"
    ),
}


class _JaxLike:
    """``jax.`` in the expressions: trellax's transformations and ``lax``."""

    grad = staticmethod(trellax.grad)
    jit = staticmethod(trellax.jit)
    vmap = staticmethod(trellax.vmap)
    jvp = staticmethod(trellax.jvp)
    jacobian = staticmethod(trellax.jacobian)
    lax = lax


def _id(case: dict[str, Any]) -> str:
    return f"{case['expr']}|{','.join(case['args'])}|x64={case['x64']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_golden(case: dict[str, Any]) -> None:
    reason = DELIBERATE.get((case["expr"], tuple(case["args"])))
    if reason:
        pytest.xfail(reason)
    want = case["result"]
    with trellax.enable_x64(case["x64"]):
        try:
            args = {f"a{i}": make_arg(s) for i, s in enumerate(case["args"])}
            names = {"jax": _JaxLike, "jnp": jnp, "lax": lax, "lax_linalg": lax_linalg}
            out = eval(case["expr"], {**names, "linalg": linalg, "np": np, **args})
        except Exception as e:
            assert "error" in want, f"raised {type(e).__name__}: {e}"
            assert want["error"] in {c.__name__ for c in type(e).__mro__}, repr(e)
            return
        assert "error" not in want, f"expected {want['error']}, got {out!r}"
        leaves = [out] if isinstance(out, (bool, int)) else trellax.tree_util.tree_leaves(out)
        assert len(leaves) == len(want["outputs"])
        for i, (g, w) in enumerate(zip(leaves, want["outputs"], strict=True)):
            if "python" not in w and not hasattr(g, "weak_type"):
                g = jnp.asarray(g)  # NumPy results (shape_as_value): compare values and dtype
            check_leaf(g, w, f"output {i}", input_rtol(case["args"]))


def _bit_patterns() -> Any:
    path = Path(__file__).resolve().parent.parent / "tools" / "gen_golden_lax_more.py"
    spec = importlib.util.spec_from_file_location("_gen_lax_more_patterns", path)
    assert spec is not None and spec.loader is not None
    source = path.read_text()
    # only the pattern maker: the script itself imports jax
    start = source.index("_UINT = {")
    end = source.index("def reduce_precision_hashes")
    namespace: dict[str, Any] = {"np": np, "Any": Any}
    import ml_dtypes

    namespace["ml_dtypes"] = ml_dtypes
    exec(source[start:end], namespace)  # the generator's own definition, so both use one
    return namespace["bit_patterns"]


@pytest.mark.parametrize(
    "rec",
    DATA["reduce_precision"],
    ids=lambda r: f"{r['dtype']}-{r['exponent_bits']}-{r['mantissa_bits']}",
)
def test_reduce_precision_bits(rec: dict[str, Any]) -> None:
    x = _bit_patterns()(rec["dtype"])
    with trellax.enable_x64(True):
        y = lax.reduce_precision(jnp.asarray(x), rec["exponent_bits"], rec["mantissa_bits"])
        got = np.asarray(y)
    assert got.dtype == x.dtype
    assert hashlib.sha256(np.ascontiguousarray(got).tobytes()).hexdigest() == rec["sha256"]
