"""Golden outputs of JAX 0.10.2's ``lax.cumsum``/``cumprod``/``cumlogsumexp`` for
``tests/scan_order_cases.py``: the digest of each result, and the float32 values of the
float32/float64 ``cumlogsumexp`` cases up to 257 elements (their ``exp``/``log1p`` are XLA's
own, so trellax is compared to a stated ulp bound there).

Writes ``tests/golden/scan_order.json``.

    python tools/gen_golden_scan_order.py   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax
import numpy as np

jax.config.update("jax_enable_x64", True)
from jax import lax  # noqa: E402
from jax import numpy as jnp  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "scan_order.json"
sys.path.insert(0, str(OUT.parent.parent))
from scan_order_cases import MATRIX_SHAPE, cases, digest, operand, seed_of  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, object] = {}
    for key, op, n, dtype, reverse in cases():
        x = jnp.asarray(operand(op, n, dtype, seed_of(key)))
        y = np.asarray(getattr(lax, op)(x, reverse=reverse))
        entry: dict[str, object] = {"digest": digest(y)}
        if op == "cumlogsumexp" and dtype in ("float32", "float64") and n <= 257:
            entry["values"] = [float(v) for v in y.astype(np.float64)]
        out[key] = entry
    m = np.random.default_rng(7).standard_normal(MATRIX_SHAPE).astype(np.float32)
    for axis in (0, 1):
        for reverse in (False, True):
            y = np.asarray(lax.cumsum(jnp.asarray(m), axis=axis, reverse=reverse))
            out[f"matrix/{axis}/{'rev' if reverse else 'fwd'}"] = {"digest": digest(y)}
    body = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in out.items())
    OUT.write_text("{\n" + body + "\n}\n")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
