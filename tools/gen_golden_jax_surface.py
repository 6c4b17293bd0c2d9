"""Writes tests/golden/jax_surface.json: JAX 0.10.2's answers to the cases of
tests/jax_surface_cases.py (scalar types, keys, devices and sharding on one device, pytree
behaviours, ShapeDtypeStruct, config flags, error texts). Run with JAX installed::

    python tools/gen_golden_jax_surface.py
"""

from __future__ import annotations

import json
import operator
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from jax_surface_cases import CASES, setup  # noqa: E402


def run(code: str, env: dict[str, Any]) -> dict[str, Any]:
    """The case's result as text (``repr``; ``str`` of a string), or its error's class and
    first line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(code, dict(env))
        except Exception as e:
            return {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    return {"result": value if isinstance(value, str) else repr(value)}


def environment(X: Any) -> dict[str, Any]:
    return {"X": X, "np": np, "op": operator, **setup(X)}


def main() -> None:
    import jax
    import jax.test_util

    env = environment(jax)
    out = {"jax_version": jax.__version__, "cases": {n: run(c, env) for n, c in CASES.items()}}
    path = ROOT / "tests" / "golden" / "jax_surface.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(CASES)} cases to {path}")


if __name__ == "__main__":
    main()
