"""Golden values from JAX for the ``jax.numpy`` behaviours found by running JAX's own
``lax_numpy_test.py`` on trellax (issue 22).

Writes ``tests/golden/jaxfile_numpy.json``: each case of ``tests/jaxfile_numpy_cases.py`` is an
expression evaluated with ``jax``/``jnp`` bound to JAX (and, in
``tests/test_jaxfile_numpy.py``, to trellax), recorded as values, dtype and weak flag (a tuple
per element), or as the error class.

    python tools/gen_golden_jaxfile_numpy.py           # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "jaxfile_numpy.json"
sys.path.insert(0, str(OUT.parent.parent))
from jaxfile_numpy_cases import CASES  # noqa: E402


def record(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [record(x) for x in v]
    a = np.asarray(v)
    values = a.astype(np.float64).tolist() if a.dtype.name == "bfloat16" else a.tolist()
    if a.dtype.kind == "c":
        values = [np.real(a).tolist(), np.imag(a).tolist()]
    return {"values": values, "dtype": str(a.dtype), "weak_type": bool(v.weak_type)}


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {}
    env = {"jax": jax, "jnp": jnp, "np": np}
    for expr in CASES:
        with jax.numpy_rank_promotion("raise"):
            try:
                out[expr] = record(eval(expr, env))
            except Exception as e:  # the error class is the golden value
                out[expr] = {"error": type(e).__name__}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
