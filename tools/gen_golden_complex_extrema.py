"""JAX 0.10.2's complex ``max``/``min`` reductions (``tests/complex_extrema_cases.py``'s forms
on operands of NaN, infinities, signed zeros and ties, complex64 and complex128, many shapes and
axes; eagerly, under ``jit`` and ``vmap``, with ``keepdims``/``initial``/``where``, ``ptp`` and
the gradient of the real part). Operands and results are stored as bits (hex). Writes
``tests/golden/complex_extrema.json`` (``tests/test_complex_extrema.py``).

    python tools/gen_golden_complex_extrema.py       # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)

import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from complex_extrema_cases import DTYPES, SHAPES, forms, operand  # noqa: E402

OUT = ROOT / "tests" / "golden" / "complex_extrema.json"


def _bits(a: Any) -> dict[str, Any]:
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "hex": a.tobytes().hex()}


def main() -> None:
    rng = np.random.default_rng(20261129)
    fs = forms(jax)
    records = []
    for dtype in DTYPES:
        for shape, axis in SHAPES:
            for _trial in range(3 if int(np.prod(shape)) < 1000 else 1):
                x = operand(rng, shape, dtype)
                rec: dict[str, Any] = {"x": _bits(x), "axis": axis, "out": {}}
                for name, f in fs.items():
                    try:
                        rec["out"][name] = ["ok", _bits(f(x, axis))]
                    except Exception as e:  # the class is the answer
                        rec["out"][name] = ["error", type(e).__name__]
                records.append(rec)
    OUT.write_text(json.dumps({"jax": jax.__version__, "records": records}) + "\n", "utf-8")
    print(f"wrote {OUT}: {len(records)} operands, {len(fs)} forms each")


if __name__ == "__main__":
    main()
