"""Writes tests/golden/explicit_x64.json: JAX 0.10.2's result dtypes and weak flags for the cases
of tests/explicit_x64_cases.py, evaluated with ``jax_explicit_x64_dtypes="allow"`` and x64 off
(an error is recorded by its class). Run with JAX installed::

    python tools/gen_golden_explicit_x64.py
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from explicit_x64_cases import CASES, describe, setup  # noqa: E402


def run(code: str, env: dict[str, Any]) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "allow" never warns
        try:
            return describe(eval(code, dict(env)))
        except Exception as e:
            return {"error": type(e).__name__}


def main() -> None:
    import jax

    jax.config.update("jax_enable_x64", False)
    jax.config.update("jax_explicit_x64_dtypes", "allow")
    env = setup(jax)
    out = {"jax_version": jax.__version__, "cases": {n: run(c, env) for n, c in CASES.items()}}
    path = ROOT / "tests" / "golden" / "explicit_x64.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(CASES)} cases to {path}")


if __name__ == "__main__":
    main()
