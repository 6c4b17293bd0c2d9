"""Writes tests/golden/random_modes.json: JAX 0.10.2's results (values, dtype) or errors (class
and message) for the cases of tests/random_modes_cases.py. Run with JAX installed::

    python tools/gen_golden_random_modes.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from random_modes_cases import CASES  # noqa: E402


def run(code: str, X: Any) -> dict[str, Any]:
    def rank_raise(f: Callable[[], Any]) -> Any:
        with X.numpy_rank_promotion("raise"):
            return f()

    try:
        value = eval(code, {"X": X, "RANK_RAISE": rank_raise})
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    arr = np.asarray(value)
    return {"dtype": str(arr.dtype), "shape": list(arr.shape), "values": arr.ravel().tolist()}


def main() -> None:
    import jax

    out = {"jax_version": jax.__version__, "cases": {n: run(c, jax) for n, c in CASES.items()}}
    path = ROOT / "tests" / "golden" / "random_modes.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(CASES)} cases to {path}")


if __name__ == "__main__":
    main()
