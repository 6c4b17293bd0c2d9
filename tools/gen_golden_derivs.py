"""Golden first, second and third derivatives from JAX for every differentiable primitive.

Writes ``tests/golden/derivs.json``: for each case of ``tests/deriv_cases.py`` and each of
float32 and float64, every quantity of ``deriv_cases.quantities`` (grad, grad-of-grad and its
mixed partials, grad-of-grad-of-grad, jvp nested 1-3 times, jacfwd-of-jacrev, grads of a
weakly typed Python float) as values, dtype, weak flag and shape, or the class of the error
JAX raises. ``tests/test_derivs.py`` computes the same quantities with trellax.

    python tools/gen_golden_derivs.py         # needs jax==0.10.2 (about a minute)
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "derivs.json"
sys.path.insert(0, str(OUT.parent.parent))
import deriv_cases as dc  # noqa: E402


def record(v: Any) -> dict[str, Any]:
    """The values, dtype, weak flag and shape of one result."""
    a = np.asarray(v)
    return {
        "values": a.astype(np.float64).tolist(),
        "dtype": str(a.dtype),
        "weak_type": bool(getattr(v, "weak_type", False)),
        "shape": list(a.shape),
    }


def evaluate(case: dc.Case, env: dict[str, Any], dtype: Any) -> dict[str, Any]:
    """Every quantity of one case in one dtype."""
    d = dc.Derivatives(jax, case, env, dtype)
    out: dict[str, Any] = {}
    for name in dc.quantities(case, d.n):
        fn, args = d.function(name)
        try:
            out[name] = record(fn(*args))
        except Exception as e:  # the error class is the golden value
            out[name] = {"error": type(e).__name__}
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2"
    only = set(sys.argv[1:])
    old = json.loads(OUT.read_text()) if only and OUT.exists() else {}
    out: dict[str, Any] = dict(old)
    for x64, dtype in ((False, np.float32), (True, np.float64)):
        jax.config.update("jax_enable_x64", x64)
        env = dc.namespace(jax)
        for case in dc.ALL:
            if only and case.name not in only:
                continue
            out[f"{case.name}|{np.dtype(dtype).name}"] = evaluate(case, env, dtype)
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} entries)")


if __name__ == "__main__":
    main()
