"""Generate golden data from a real JAX for the core's shape and indexing rules.

Run from the repository root inside a virtual environment that has ``jax``, ``numpy`` and
``ml_dtypes`` installed::

    python tools/gen_golden_core.py

The output is ``tests/golden/core.json``; ``tests/test_core_golden.py`` reads it and never imports
JAX. This script must not import trellax. The output is deterministic.

Layout: ``{"meta": {...versions...}, "cases": [case, ...]}``, one case per line. A case is
``{"group", "call", "result"}``: ``call`` is a Python expression evaluated with these names bound
(the trellax test binds the same names to trellax's modules):

* ``lax``, ``xnp`` (``jax.lax``, ``jax.numpy``), ``np`` (NumPy);
* ``x``: ``xnp.arange(5)`` (int32); ``f``: ``xnp.arange(5.0)`` (float32); ``m``:
  ``xnp.arange(6.0).reshape(2, 3)``; ``ones(shape)``: float32 ones of ``shape``.

``result`` is ``{"dtype", "weak_type", "shape", "value"}`` (``value`` a nested list; NaN and
infinities as the strings ``"nan"``, ``"inf"``, ``"-inf"``) or ``{"error", "message"}``.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
import warnings
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "core.json"

# (group, call)
CASES: list[tuple[str, str]] = []


def _add(group: str, *calls: str) -> None:
    CASES.extend((group, c) for c in calls)


# -- lax elementwise primitives: equal ranks, size-1 axes and 0-d operands broadcast -----------
_add(
    "lax_shapes",
    "lax.add(ones((3,)), ones((2, 3)))",
    "lax.add(ones((2, 3)), ones((3, 3)))",
    "lax.add(ones((1, 3)), ones((2, 3)))",
    "lax.add(ones(()), ones((2, 3)))",
    "lax.add(ones((2, 1)), ones((1, 3)))",
    "lax.add(ones((0,)), ones((1,)))",
    "lax.add(ones((0,)), ones((2,)))",
    "lax.add(ones((3,)), 1.0)",
    "lax.mul(ones((2,)), ones((3, 4)))",
    "lax.atan2(ones((2, 1, 3)), ones((3, 4)))",
    "lax.pow(ones((2,)), ones((3,)))",
    "lax.pow(ones((2,)), ones((1, 2)))",
    "lax.complex(ones((2,)), ones((3,)))",
    "lax.nextafter(ones((2, 1)), ones((1, 3)))",
    "lax.sub(ones((2, 3)), ones(()))",
    "lax.eq(ones((4,)), ones((2, 4)))",
    "lax.max(ones((2, 3, 1)), ones((1, 3, 4)))",
    "xnp.add(ones((3,)), ones((2, 3)))",
    "xnp.add(ones((2, 1)), ones((3,)))",
    "xnp.where(ones((2, 1)) > 0, ones((3,)), 1.0)",
    "xnp.add(ones((2,)), ones((3,)))",
)

# -- gcd / lcm weak flags ----------------------------------------------------------------------
_add(
    "gcd_lcm",
    "xnp.gcd(6, 4)",
    "xnp.lcm(6, 4)",
    "xnp.gcd(xnp.asarray(6), 4)",
    "xnp.gcd(xnp.full((2,), 6), 4)",
    "xnp.lcm(xnp.full((2,), 6), xnp.full((2,), 4))",
    "xnp.gcd(x, 4)",
    "xnp.lcm(x.astype('int8'), 3)",
)

# -- boolean masks ------------------------------------------------------------------------------
_add(
    "masks",
    "x[np.ones(7, bool)]",
    "x[xnp.ones(7, bool)]",
    "x[np.array([True, False])]",
    "m[np.array([True, False, True])]",
    "m[:, np.array([True, False])]",
    "m[np.array([True, False])]",
    "m[:, np.array([True, False, True])]",
    "m[np.ones((2, 3), bool)]",
    "m[np.ones((3, 2), bool)]",
    "x.at[np.array([True, False])].set(0)",
    "x.at[np.array([True, False, True, False, True])].set(0)",
    "m.at[np.array([True, False])].set(0.0)",
    "m.at[np.array([True, False, True])].set(0.0)",
)

# -- .at[] modes -------------------------------------------------------------------------------
_IDX = "np.array([1, 7, -9, -2])"
_add(
    "modes",
    *[
        f"{arr}.at[{_IDX}].get(mode={mode!r})"
        for arr in ("x", "f", "x.astype('uint8')", "x.astype(bool)", "x.astype('int8')")
        for mode in ("fill", "clip", "drop", "promise_in_bounds")
    ],
    f"x.at[{_IDX}].get()",
    f"x[{_IDX}]",
    f"f.at[{_IDX}].get(mode='fill', fill_value=3)",
    f"f.at[{_IDX}].get(mode='fill', fill_value=xnp.inf)",
    f"x.at[{_IDX}].get(mode='fill', fill_value=2.5)",
    f"x.at[{_IDX}].get(fill_value=3)",
    f"x.at[{_IDX}].get(mode='bogus')",
    "m.at[:, np.array([0, 5])].get(mode='fill')",
    "m.at[np.array([[0], [3]]), np.array([1, 2])].get(mode='fill')",
    *[
        f"x.at[np.array([1, 7, -6, -7])].{op}(9, mode={mode!r})"
        for op in ("set", "add", "multiply", "min", "max")
        for mode in ("clip", "drop", "fill", "promise_in_bounds", None)
    ],
    "x.at[np.array([1, 7])].set(9, mode='bogus')",
    "x.at[np.array([1, 7])].set(9, fill_value=3)",
    "x.at[np.array([1, 7])].divide(2, mode='bogus')",
    "x.at[np.array([1, 7, 7])].divide(2, mode='clip')",
    "x.at[1:9].get(mode='fill')",
    "m.at[np.array([0, 3]), 1].set(9.0, mode='clip')",
    "m.at[1, np.array([0, 3])].add(9.0)",
)

# -- .at[] arithmetic: dtypes and repeated indices ------------------------------------------------
_add(
    "updates",
    "x.at[1].divide(2)",
    "x.at[1].divide(2.5)",
    "x.at[np.array([1, 1])].divide(2)",
    "x.at[np.array([1, 1, 9])].divide(2)",
    "f.at[np.array([1, 1])].divide(2)",
    "f.at[np.array([1, 1])].divide(0.0)",
    "f.at[np.array([2, 2])].power(2)",
    "x.at[np.array([2, 2])].power(2)",
    "x.at[np.array([2, 2, 2])].power(2)",
    "f.at[np.array([2, 2])].power(0.5)",
    "x.at[np.array([2, 2])].multiply(3)",
    "x.at[np.array([2, 2])].min(np.array([1, 0]))",
    "x.at[np.array([2, 2])].max(np.array([7, 8]))",
    "x.at[np.array([2, 2])].add(np.array([7, 8]))",
    "x.at[np.array([2, 2])].subtract(np.array([7, 8]))",
    "x.at[2].power(2.5)",
    "x.at[1].set(2.5)",
    "x.astype('int8').at[1].divide(2)",
    "x.astype('uint8').at[1].divide(xnp.float16(2))",
    "f.astype('float16').at[np.array([0, 0])].divide(2)",
    "f.at[np.array([0, 0])].multiply(xnp.nan)",
    "f.at[np.array([1, 3])].min(xnp.array([xnp.nan, -0.0]))",
    "xnp.asarray(2.0).at[()].divide(2)",
    "xnp.asarray(2).at[()].divide(2)",
    "m.at[np.array([0, 0]), np.array([1, 1])].divide(2.0)",
    "m.at[:, np.array([2, 2])].power(2)",
)

# -- lax.gather / lax.scatter with dimension numbers ---------------------------------------------
_GDN = "lax.GatherDimensionNumbers(offset_dims={}, collapsed_slice_dims={}, start_index_map={})"
_add(
    "lax_gather",
    "lax.gather(m, np.array([[1], [0]]), "
    + _GDN.format("(1,)", "(0,)", "(0,)")
    + ", slice_sizes=(1, 3))",
    "lax.gather(m, np.array([[0, 1], [1, 2]]), "
    + _GDN.format("()", "(0, 1)", "(0, 1)")
    + ", slice_sizes=(1, 1))",
    "lax.gather(m, np.array([[1], [2]]), "
    + _GDN.format("(0,)", "(1,)", "(1,)")
    + ", slice_sizes=(2, 1))",
    "lax.gather(m, np.array([[0, 1]]), "
    + _GDN.format("(1, 2)", "()", "(0, 1)")
    + ", slice_sizes=(2, 2))",
    "lax.gather(m, np.array([[0, 2]]), "
    + _GDN.format("(1, 2)", "()", "(0, 1)")
    + ", slice_sizes=(2, 2))",
    "lax.gather(m, np.array([[0, 2]]), "
    + _GDN.format("(1, 2)", "()", "(0, 1)")
    + ", slice_sizes=(2, 2), mode='fill')",
    "lax.gather(m, np.array([[0, 5]]), "
    + _GDN.format("(1, 2)", "()", "(0, 1)")
    + ", slice_sizes=(2, 2), mode='clip')",
    "lax.gather(m, np.array([[0, 1]]), "
    + _GDN.format("(1, 2)", "()", "(0, 1)")
    + ", slice_sizes=(2, 4))",
    "lax.gather(m, np.array([[0.0]]), "
    + _GDN.format("(1,)", "(0,)", "(0,)")
    + ", slice_sizes=(1, 3))",
    "lax.scatter_add(m, np.array([[1], [1]]), ones((2, 3)), "
    "lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), "
    "scatter_dims_to_operand_dims=(0,)))",
    "lax.scatter(m, np.array([[0, 2], [1, 0]]), xnp.array([10.0, 20.0]), "
    "lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0, 1), "
    "scatter_dims_to_operand_dims=(0, 1)))",
    "lax.scatter_mul(m, np.array([[2], [2]]), xnp.full((2, 2), 3.0), "
    "lax.ScatterDimensionNumbers(update_window_dims=(0,), inserted_window_dims=(1,), "
    "scatter_dims_to_operand_dims=(1,)))",
    "lax.scatter_max(m, np.array([[0], [7]]), xnp.full((2, 3), 9.0), "
    "lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), "
    "scatter_dims_to_operand_dims=(0,)))",
    "lax.scatter_min(m, np.array([[0], [7]]), xnp.full((2, 3), -9.0), "
    "lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), "
    "scatter_dims_to_operand_dims=(0,)), mode='clip')",
    "lax.gather(m, np.array([[2], [0]]), lax.GatherDimensionNumbers(offset_dims=(), "
    "collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,), "
    "start_indices_batching_dims=(0,)), slice_sizes=(1, 1))",
    "lax.gather(x.reshape(5, 1), np.array([[7], [-1]]), lax.GatherDimensionNumbers("
    "offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), slice_sizes=(1, 1), "
    "mode='fill')",
    "lax.gather(x, np.array([[7], [1]]), lax.GatherDimensionNumbers(offset_dims=(), "
    "collapsed_slice_dims=(0,), start_index_map=(0,)), slice_sizes=(1,), mode='fill', "
    "fill_value=-5)",
    "lax.scatter_add(m, np.array([[2], [0]]), xnp.array([10.0, 20.0]), "
    "lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(1,), "
    "scatter_dims_to_operand_dims=(1,), operand_batching_dims=(0,), "
    "scatter_indices_batching_dims=(0,)))",
    "lax.scatter_add(m, np.array([[1], [1]]), ones((3, 3)), "
    "lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), "
    "scatter_dims_to_operand_dims=(0,)))",
    "lax.scatter_add(m, np.array([[1], [1]]), ones((2, 3), 'int32'), "
    "lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), "
    "scatter_dims_to_operand_dims=(0,)))",
)


def ones(shape: tuple[int, ...], dtype: str = "float32") -> Any:
    return jnp.ones(shape, dtype)


def _encode(v: Any) -> Any:
    if isinstance(v, list):
        return [_encode(e) for e in v]
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def _result(call: str) -> dict[str, Any]:
    env = {
        "lax": lax,
        "xnp": jnp,
        "np": np,
        "x": jnp.arange(5),
        "f": jnp.arange(5.0),
        "m": jnp.arange(6.0).reshape(2, 3),
        "ones": ones,
    }
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = eval(call, env)
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}
    a = np.asarray(r)
    value = a.astype(np.float64 if a.dtype.kind == "f" else a.dtype).tolist()
    return {
        "dtype": str(r.dtype),
        "weak_type": bool(r.weak_type),
        "shape": list(r.shape),
        "value": _encode(value),
    }


def main() -> None:
    cases = [{"group": g, "call": c, "result": _result(c)} for g, c in CASES]
    meta = {
        "jax": jax.__version__,
        "jaxlib": importlib.metadata.version("jaxlib"),
        "numpy": np.__version__,
        "python": platform.python_version(),
    }
    lines = ",\n".join(json.dumps(c, sort_keys=True) for c in cases)
    OUT.write_text(f'{{"meta": {json.dumps(meta, sort_keys=True)},\n"cases": [\n{lines}\n]}}\n')
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
