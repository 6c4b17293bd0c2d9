"""``mean``/``var`` in float16 and bfloat16: of half-precision arrays (eager, along an axis, under
``jit``) and of int8 arrays narrowed by ``dtype=``. Shared by ``tools/gen_golden_mean_half.py``
(JAX) and ``tests/test_mean_half.py`` (trellax)."""

from __future__ import annotations

from typing import Any

import numpy as np


def outcomes(jax: Any, jnp: Any) -> dict[str, list[float]]:
    """Per form, the results (as float32 values) over seeded random inputs."""
    rng = np.random.default_rng(2)
    out: dict[str, list[float]] = {}
    for dt in ("float16", "bfloat16"):
        forms: dict[str, list[float]] = {"mean": [], "mean_axis": [], "jit_mean": [], "var": []}
        narrowed: list[float] = []
        for n in (3, 6, 7, 10, 11, 100, 1000):
            for _ in range(20):
                x = jnp.asarray(rng.normal(size=n) * 3).astype(dt)
                forms["mean"].append(float(np.float32(jnp.mean(x))))
                forms["mean_axis"].append(float(np.float32(jnp.mean(x.reshape(1, -1), axis=1)[0])))
                forms["jit_mean"].append(float(np.float32(jax.jit(jnp.mean)(x))))
                forms["var"].append(float(np.float32(jnp.var(x))))
                i = jnp.asarray(rng.integers(-20, 20, size=n)).astype("int8")
                narrowed.append(float(np.float32(jnp.mean(i, dtype=dt))))
        for name, values in forms.items():
            out[f"{dt} {name}"] = values
        out[f"{dt} int8 mean dtype="] = narrowed
    return out
