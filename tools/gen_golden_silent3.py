"""Golden values from JAX for the third round of issue 24's silent-value fixes.

Writes ``tests/golden/silent3.json``: each case of ``tests/silent3_cases.py`` evaluated with
``jax``/``jnp``/``optim`` bound to JAX and optax (``tests/test_silent3.py`` binds them to
trellax), recorded as values, dtype, weak flag and shape, or as the class of the error raised.

    python tools/gen_golden_silent3.py           # needs jax==0.10.2, optax and flax
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "silent3.json"
sys.path.insert(0, str(OUT.parent.parent))
from silent3_cases import CASES, SAMPLED, STRIDE  # noqa: E402


def record(v: Any) -> dict[str, Any]:
    """The value, dtype, weak flag and shape of an array result."""
    a = np.asarray(v)
    values = (
        a.astype(np.float64).tolist()
        if a.dtype.kind == "V" or a.dtype.itemsize == 2
        else a.tolist()
    )
    if a.dtype.kind == "c":
        values = [np.real(a).tolist(), np.imag(a).tolist()]
    return {
        "values": values,
        "dtype": str(v.dtype),
        "weak_type": bool(getattr(v, "weak_type", False)),
        "shape": list(a.shape),
    }


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, Any] = {}
    env = {"jax": jax, "jnp": jnp, "optim": optax, "nn": nn, "np": np}
    for expr in CASES:
        try:
            v = eval(expr, env)
        except Exception as e:  # the error class is the golden value
            out[expr] = {"error": type(e).__name__}
            continue
        out[expr] = record(v[0] if isinstance(v, tuple) and len(v) == 1 else v)
    for expr in SAMPLED:
        raw = np.asarray(eval(expr, env)).reshape(-1).view(np.uint32)
        out[expr] = {
            "sha256": hashlib.sha256(raw.tobytes()).hexdigest(),
            "sample": [format(int(x), "x") for x in raw[::STRIDE]],
        }
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
