"""Writes tests/golden/toplevel.json: JAX 0.10.2's values, printed output and error texts for
the top-level names of issue 14 (checkpoint, custom_gradient, pure_callback, debug.print,
disable_jit, debug_nans/infs, numpy_rank_promotion, flag defaults, jax.errors bases).

Each case is one line of code run with ``X`` bound to ``jax`` and ``np`` to NumPy; the test
(tests/test_golden_toplevel.py) runs the same line with ``X`` bound to ``trellax``.
Run with JAX installed: ``python tools/gen_golden_toplevel.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from toplevel_cases import CASES, CV, W


def encode(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {k: encode(v) for k, v in sorted(x.items())}
    if isinstance(x, bool | str) or x is None:
        return x
    a = np.asarray(x)
    return {
        "value": a.astype(np.float64).tolist() if a.dtype.kind in "fiub" else str(a),
        "dtype": str(a.dtype),
        "weak": bool(getattr(x, "weak_type", False)),
        "shape": list(a.shape),
    }


def run(code: str, X: Any) -> dict[str, Any]:
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                value = eval(code, {"X": X, "np": np, "W": W, "CV": CV})
            result: dict[str, Any] = {"result": encode(value)}
        except Exception as e:
            result = {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    result["stdout"] = out.getvalue().splitlines()
    result["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    return result


def main() -> None:
    import jax

    cases = {name: {"code": code, **run(code, jax)} for name, code in CASES.items()}
    out = {"jax_version": jax.__version__, "cases": cases}
    path = Path(__file__).resolve().parent.parent / "tests" / "golden" / "toplevel.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
