"""Golden data: JAX's complex arithmetic at zero, infinite, NaN, overflowing and subnormal parts.

Run with the reference venv (jax 0.10.2): ``/tmp/jaxref/bin/python tools/gen_golden_complex_inf.py``.
Writes tests/golden/complex_inf.json: for complex64 and complex128, a grid of values whose real
and imaginary parts are each one of PARTS, and JAX's multiply/divide over every pair and
reciprocal, exp, log, expm1, log1p, sqrt and abs of every value.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

BIG = {"complex64": 1e38, "complex128": 1e308}
TINY = {"complex64": 1e-40, "complex128": 5e-324}


def parts(name: str) -> list[float]:
    return [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, BIG[name], -BIG[name], TINY[name]]


def enc(v: np.ndarray) -> list[Any]:
    flat = np.asarray(v).ravel()
    if flat.dtype.kind == "c":
        return [[repr(float(z.real)), repr(float(z.imag))] for z in flat]
    return [repr(float(z)) for z in flat]


def main() -> None:
    out: dict[str, Any] = {"jax": jax.__version__}
    for name in ("complex64", "complex128"):
        dt = np.dtype(name)
        p = parts(name)
        vals = np.array([complex(a, b) for a in p for b in p], dtype=dt)
        x = jnp.asarray(vals)
        rec: dict[str, Any] = {"values": enc(vals)}
        rec["multiply"] = enc(np.asarray(x[:, None] * x[None, :]))
        rec["divide"] = enc(np.asarray(x[:, None] / x[None, :]))
        rec["reciprocal"] = enc(np.asarray(jnp.reciprocal(x)))
        for op in ("exp", "log", "expm1", "log1p", "sqrt", "abs"):
            rec[op] = enc(np.asarray(getattr(jnp, op)(x)))
        out[name] = rec
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "complex_inf.json"
    path.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
