"""Golden outcomes from JAX for the divergences ``tools/probe_linalg_sort.py`` found.

Writes ``tests/golden/linalg_sort.json``: each expression of ``tests/linalg_sort_cases.py``
evaluated with ``jax``/``jnp`` bound to JAX (``tests/test_linalg_sort.py`` binds them to trellax),
recorded leaf by leaf as values, dtype, weak flag and shape, or as the class of the error raised.

    python tools/gen_golden_linalg_sort.py           # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import pickle
import sys
from typing import Any

import jax
import jax.numpy as jnp
import jax.scipy.linalg
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "linalg_sort.json"
sys.path.insert(0, str(OUT.parent.parent))
from linalg_sort_cases import CASES, X64_CASES  # noqa: E402


def _leaves(v: Any) -> list[Any]:
    if isinstance(v, (tuple, list)):
        return [leaf for item in v for leaf in _leaves(item)]
    return [v]


def record(v: Any) -> list[dict[str, Any]]:
    """Every leaf's values (complex as [real, imag]; NaN/inf as strings), dtype, weak flag, shape."""
    out = []
    for leaf in _leaves(v):
        a = np.asarray(leaf)
        parts = [a.real, a.imag] if a.dtype.kind == "c" else a
        values = (
            np.asarray(parts).astype(np.float64) if a.dtype.kind in "fcV" else np.asarray(parts)
        )
        listed = (
            [repr(float(x)) for x in values.reshape(-1)]
            if values.dtype.kind == "f"
            else values.reshape(-1).tolist()
        )
        out.append(
            {
                "values": listed,
                "dtype": str(a.dtype),
                "weak_type": bool(getattr(leaf, "weak_type", False)),
                "shape": list(a.shape),
            }
        )
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, Any] = {}
    for x64, cases in ((False, CASES), (True, X64_CASES)):
        jax.config.update("jax_enable_x64", x64)
        env = {"jax": jax, "jnp": jnp, "np": np, "pickle": pickle}
        for expr in cases:
            key = f"x64|{expr}" if x64 else expr
            try:
                out[key] = record(eval(expr, env))
            except Exception as e:  # the error class is the golden value
                out[key] = {"error": type(e).__name__}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
