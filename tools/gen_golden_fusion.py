"""Generate golden values of bfloat16/float16 chains under ``jax.jit`` and op by op.

Run from the repository root with a Python that has ``jax`` (CPU), ``numpy`` and ``ml_dtypes``::

    python tools/gen_golden_fusion.py

The output is ``tests/golden/fusion_narrow.json``; ``tests/test_fusion_excess.py`` reads it (and
never imports JAX). This script must not import trellax. Deterministic: the same versions give a
byte-identical file.

Layout: ``{"meta": {...}, "cases": [case, ...]}``; a case is ``{"name", "dtype", "shape", "x",
"jit", "eager"}`` with ``x`` the input and ``jit``/``eager`` the outputs of ``jax.jit(f)`` and of
``f`` under ``jax.disable_jit()``, each as hex strings of the 16-bit patterns. The functions are
in :data:`PROGRAMS`, written once against a NumPy-like namespace ``ns`` (``jax.numpy`` here,
``trellax.numpy`` in the test, which has a copy of this table).
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "affine": lambda ns, x: (x * 1.1 + 0.3) * x - 0.7,
    "divsqrt": lambda ns, x: x / ns.sqrt(x * x + 1.5) - x * 0.25,
    "to_f32": lambda ns, x: ((x * 1.1 + 0.3).astype("float32") * x.astype("float32") - 0.7).astype(
        x.dtype
    ),
    "round_trip": lambda ns, x: (x.astype("float32") * 3.0).astype(x.dtype).astype("float32") * x,
    "layer_norm": lambda ns, x: (
        (x - ns.mean(x.astype("float32"), axis=-1, keepdims=True).astype(x.dtype))
        / ns.sqrt(
            ns.mean(
                (
                    (x - ns.mean(x.astype("float32"), axis=-1, keepdims=True).astype(x.dtype)) ** 2
                ).astype("float32"),
                axis=-1,
                keepdims=True,
            ).astype(x.dtype)
            + 1e-5
        )
    ),
    "exp_tanh": lambda ns, x: ns.exp(x * 0.5) + ns.tanh(x) * x,
}

SHAPE = (16, 48)


def bits(a: Any) -> str:
    return np.asarray(a).view(np.uint16).tobytes().hex()


def main() -> None:
    rng = np.random.default_rng(15)
    cases = []
    for dtype in ("bfloat16", "float16"):
        d = np.dtype(getattr(ml_dtypes, dtype, None) or dtype)
        x = (rng.standard_normal(SHAPE) * 2).astype(np.float32).astype(d)
        # (no subnormals: XLA on CPU flushes them to zero, NumPy does not)
        x.flat[:6] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0], np.float32).astype(d)
        for name in sorted(PROGRAMS):
            f = PROGRAMS[name]
            jx = jnp.asarray(x)
            out_jit = jax.jit(lambda v, f=f: f(jnp, v))(jx)
            with jax.disable_jit():
                out_eager = f(jnp, jx)
            cases.append(
                {
                    "name": name,
                    "dtype": dtype,
                    "shape": list(SHAPE),
                    "x": bits(x),
                    "jit": bits(out_jit),
                    "eager": bits(out_eager),
                    "out_dtype": str(out_jit.dtype),
                }
            )
    meta = {"jax": jax.__version__, "numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__}
    out = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "fusion_narrow.json"
    with open(out, "w") as fh:
        fh.write('{"meta": ' + json.dumps(meta, sort_keys=True) + ', "cases": [\n')
        fh.write(",\n".join(json.dumps(c, sort_keys=True) for c in cases))
        fh.write("\n]}\n")


if __name__ == "__main__":
    main()
