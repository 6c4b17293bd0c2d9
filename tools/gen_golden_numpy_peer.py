"""Golden values from JAX for the ``jax.numpy`` behaviours JAX's own test files exercise.

Writes ``tests/golden/numpy_peer.json``: each case of ``tests/numpy_peer_cases.py`` evaluated
with ``jax``/``jnp`` bound to JAX (``tests/test_numpy_peer.py`` binds them to trellax), recorded
as the values, dtype, weak flag and shape of every array of the result, or as the class of the
error raised.

    python tools/gen_golden_numpy_peer.py           # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "numpy_peer.json"
sys.path.insert(0, str(OUT.parent.parent))
from numpy_peer_cases import CASES  # noqa: E402


def record(v: Any) -> Any:
    """Each array of a result: values (complex as [real, imag]), dtype, weak flag, shape."""
    if isinstance(v, (tuple, list)):
        return [record(x) for x in v]
    a = np.asarray(v)
    if a.dtype.kind == "c":
        values: Any = [np.real(a).tolist(), np.imag(a).tolist()]
    elif a.dtype.kind == "V" or (a.dtype.itemsize == 2 and a.dtype.kind == "f"):
        values = a.astype(np.float64).tolist()
    else:
        values = a.tolist()
    return {
        "values": values,
        "dtype": str(a.dtype),
        "weak_type": bool(getattr(v, "weak_type", False)),
        "shape": list(a.shape),
    }


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, Any] = {}
    env = {"jax": jax, "jnp": jnp, "np": np}
    for expr in CASES:
        try:
            v = eval(expr, env)
        except Exception as e:  # the error class is the golden value
            out[expr] = {"error": type(e).__name__}
            continue
        out[expr] = record(v)
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
