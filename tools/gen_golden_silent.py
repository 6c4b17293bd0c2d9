"""Golden values from JAX for the silent-value fixes of issue 24 that are not optimizer cases.

Writes ``tests/golden/silent.json``: each case is an expression evaluated with ``jax``/``jnp``
bound to JAX (and, in ``tests/test_silent_values.py``, to trellax), recorded as its values, dtype
and weak flag.

    python tools/gen_golden_silent.py           # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "silent.json"
sys.path.insert(0, str(OUT.parent.parent))
from silent_cases import CASES, make_functions  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {}
    env = {"jax": jax, "jnp": jnp, "fns": make_functions(jax, jnp)}
    for expr in CASES:
        try:
            v = eval(expr, env)
        except Exception as e:  # the error class is the golden value
            out[expr] = {"error": type(e).__name__}
            continue
        out[expr] = {
            "values": np.asarray(v).tolist(),
            "dtype": str(v.dtype),
            "weak_type": bool(v.weak_type),
        }
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
