"""Golden derivatives of ``.at[].min`` / ``.at[].max`` from JAX 0.10.2
(``tests/test_scatter_extremal.py``).

Random float32 operands and updates drawn from special values (signed zeros, ties, NaN, ±inf),
index arrays with repeats and out-of-bounds entries, every mode; for each: the JVP, the gradient
of a weighted sum in operand and updates, the JVP under ``jit`` and under ``vmap``, as hex bits.

    python tools/gen_golden_scatter_extremal.py   # with jax==0.10.2; writes tests/golden/scatter_extremal.json
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "scatter_extremal.json"
POOL = np.array([0.0, -0.0, 1.0, 2.0, -1.0, np.nan, np.inf, -np.inf, 2.0, 1.0], np.float32)


def cases() -> list[dict[str, Any]]:
    """The inputs (the same on every host: NumPy's seeded generator)."""
    rng = np.random.default_rng(1)
    out = []
    for trial in range(60):
        x = rng.choice(POOL, size=(4, 3))
        u = rng.choice(POOL, size=(3, 3))
        idx = rng.integers(-1, 5, size=3)
        for method in ("min", "max"):
            for mode in (None, "drop", "clip"):
                out.append({"trial": trial, "x": x, "u": u, "idx": idx, "method": method,
                            "mode": mode})  # fmt: skip
    return out


def outcome(jax: Any, case: dict[str, Any]) -> list[str]:
    """The JVP, both gradients, the JVP under jit and under vmap, as hex bits."""
    jnp = jax.numpy
    x, u = jnp.asarray(case["x"]), jnp.asarray(case["u"])
    idx = jnp.asarray(case["idx"].astype(np.int32))

    def f(x: Any, u: Any) -> Any:
        return getattr(x.at[idx], case["method"])(u, mode=case["mode"])

    def jvp1(x: Any, u: Any) -> Any:
        return jax.jvp(f, (x, u), (jnp.ones_like(x), jnp.ones_like(u)))[1]

    weights = jnp.arange(12.0, dtype=jnp.float32).reshape(4, 3)
    t = jax.jvp(f, (x, u), (jnp.ones_like(x), jnp.full_like(u, 2.0)))[1]
    g = jax.grad(lambda x, u: jnp.sum(f(x, u) * weights), argnums=(0, 1))(x, u)
    j = jax.jit(jvp1)(x, u)
    v = jax.vmap(jvp1)(jnp.stack([x, x]), jnp.stack([u, u]))
    return [np.asarray(a).tobytes().hex() for a in (t, g[0], g[1], j, v)]


def main() -> None:
    import jax

    data = []
    for c in cases():
        data.append(outcome(jax, c))
    OUT.write_text(json.dumps(data) + "\n")
    print(f"{len(data)} cases -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
