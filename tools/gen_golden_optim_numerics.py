"""Golden bits of the two XLA behaviours ``trellax.optim``'s arithmetic reproduces (run with JAX
installed): the float32 ``lax.pow`` (a base and an exponent array, and a constant base raised to
a float32 count, as optax's jitted bias correction computes ``decay ** count``), and eager
``jnp`` divisions by a divisor that broadcasts (a 0-d array, a ``keepdims`` mean), which XLA
computes as a product with the divisor's reciprocal in float16 and float32.

Writes ``tests/golden/optim_numerics.json``; ``tests/test_optim_numerics.py`` replays it.

    python tools/gen_golden_optim_numerics.py      # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_numerics.json"
N_POW = 8000
N_DIV = 150


def _hex(a: np.ndarray) -> str:
    return np.ascontiguousarray(a).tobytes().hex()


def pow_cases() -> dict[str, str]:
    rng = np.random.default_rng(24)
    x = np.abs(rng.standard_normal(N_POW) * np.exp(rng.standard_normal(N_POW) * 3))
    y = rng.standard_normal(N_POW) * 3
    y[: N_POW // 4] = np.round(y[: N_POW // 4] * 2) / 2  # half-integer exponents (-0.5 ...)
    x, y = x.astype(np.float32), y.astype(np.float32)
    z = np.asarray(jax.lax.pow(jnp.asarray(x), jnp.asarray(y)))
    counts = np.arange(1, 1001, dtype=np.int32)
    decays = {}
    for d in (0.9, 0.999, 0.99, 0.5):
        f = jax.jit(lambda c, d=d: 1 - d**c)
        decays[str(d)] = _hex(np.asarray(jax.vmap(f)(jnp.asarray(counts))))
    return {"x": _hex(x), "y": _hex(y), "pow": _hex(z), "counts": _hex(counts), **decays}


DIV_SHAPES = (
    ((4,), (1,)),
    ((3, 5), (3, 1)),
    ((3, 5), (1, 5)),
    ((3, 5), ()),
    ((2, 3, 5), (2, 1, 1)),
)


def div_cases() -> dict[str, dict[str, str]]:
    rng = np.random.default_rng(25)
    out: dict[str, dict[str, str]] = {}
    for dt in (np.float16, np.float32):
        for a_shape, b_shape in DIV_SHAPES:
            a = (rng.random((N_DIV, *a_shape)) * 3 + 0.1).astype(dt)
            b = (rng.random((N_DIV, *b_shape)) * 3 + 0.1).astype(dt)
            q = np.stack([np.asarray(jnp.asarray(a[i]) / jnp.asarray(b[i])) for i in range(N_DIV)])
            key = f"{np.dtype(dt).name}|{a_shape}|{b_shape}"
            out[key] = {"a": _hex(a), "b": _hex(b), "q": _hex(q)}
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2"
    data = {"jax": jax.__version__, "pow": pow_cases(), "div": div_cases()}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
