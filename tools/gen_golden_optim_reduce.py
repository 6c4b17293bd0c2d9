"""Golden float32 sums and means from XLA's CPU backend (run with JAX installed), for the order
``trellax.optim`` reproduces in its norms and means (``trellax/_src/optim/reduce_order.py``).

Eager ``jnp.sum``/``jnp.mean`` (and ``jnp.linalg.norm``, which JAX jits whole) over small arrays (the shapes of typical optimizer leaves and a
few more, every reduction form: full, one axis, several axes, ``keepdims``) of float32, float16
and bfloat16 inputs whose magnitudes spread over a few binades, so that the summation order
shows in the last bits. Writes ``tests/golden/optim_reduce.json``; ``tests/test_optim_numerics.py``
replays it.

    python tools/gen_golden_optim_reduce.py      # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_reduce.json"
DRAWS = 40
#: elements drawn per case at most (fewer draws for the larger shapes)
BUDGET = 40 * 256
#: (shape, axis); every case runs on float32, a few on float16 and bfloat16 too
CASES = (
    ((5,), None),
    ((8,), None),
    ((32,), None),
    ((33,), None),
    ((100,), None),
    ((1000,), None),
    ((4095,), None),
    ((4, 8), None),
    ((4, 8), 0),
    ((4, 8), 1),
    ((4, 8), (0, 1)),
    ((2, 3), None),
    ((2, 8), None),
    ((4, 4), None),
    ((4, 6), None),
    ((8, 3), None),
    ((8, 4), None),
    ((8, 8), None),
    ((16, 2), None),
    ((16, 4), None),
    ((16, 8), None),
    ((32, 8), None),
    ((64, 8), None),
    ((6, 8), None),
    ((12, 8), None),
    ((6, 4), None),
    ((3, 8), None),
    ((2, 16), None),
    ((4, 16), None),
    ((8, 1), None),
    ((20, 30), None),
    ((3, 5, 7), (0, 2)),
    ((2, 4, 8), None),
    ((2, 4, 8), (1, 2)),
    ((32, 32, 3), (0, 1)),
    ((10, 100), 1),
    ((100, 10), 0),
    ((3, 200), 1),
    ((2, 3, 40), 2),
    ((40, 100), None),
    ((64, 64), None),
)
HALF_CASES = ((8,), (32,), (4, 8), (100,))
#: float32 shapes swept for the order of whole-array sums and jitted norms: every (rows, cols)
#: with rows <= 32 and cols <= 8, a few wider ones of at most 256 elements, 1-D lengths to 32;
#: the norms of float64 draws of the same shapes too (64-bit types on)
SWEEP = (
    [(r, c) for r in range(1, 33) for c in range(1, 9)]
    + [(r, c) for r in (1, 2, 3, 4, 5, 8) for c in (9, 12, 16, 23, 32) if r * c <= 256]
    + [(n,) for n in range(1, 33)]
)
#: float32 1-D lengths past one window of 32 (the norm's squares summed in windows)
LONG = (33, 40, 63, 64, 65, 100, 255, 256, 257, 1000, 1025, 2048, 4095)
#: float32 blocks of more than 32 rows (XLA splits them into windows of 32 rows)
TALL = [
    (r, c) for r in (33, 40, 62, 63, 64, 65, 95, 96, 100, 128, 300, 512) for c in (2, 3, 4, 5, 7, 8)
]
#: float16 and bfloat16 blocks whose float32 order the sweep pins down
HALF_SWEEP = ((2, 5), (4, 3), (8, 5), (8, 7), (16, 3), (20, 3), (33, 2), (64, 4), (100, 3))
SWEEP_DRAWS = 6
DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


def _hex(a: np.ndarray) -> str:
    return np.ascontiguousarray(a).tobytes().hex()


def main() -> None:
    assert jax.__version__ == "0.10.2"
    rng = np.random.default_rng(26)
    out: dict[str, dict[str, str]] = {}
    for dtype_name, dt in DTYPES.items():
        for shape, axis in CASES:
            if dtype_name != "float32" and shape not in HALF_CASES:
                continue
            draws = max(3, min(DRAWS, BUDGET // int(np.prod(shape))))
            x = rng.standard_normal((draws, *shape)) * np.exp(rng.standard_normal((draws, *shape)))
            x = x.astype(np.float32).astype(dt)
            sums, means, norms = [], [], []
            for i in range(draws):
                xi = jnp.asarray(x[i])
                sums.append(np.asarray(jnp.sum(xi, axis=axis)))
                means.append(np.asarray(jnp.mean(xi, axis=axis)))
                if axis is None:  # jnp.linalg.norm is jitted: the squares fuse into the sum
                    norms.append(np.asarray(jnp.linalg.norm(xi)))
            key = f"{dtype_name}|{shape}|{axis}"
            out[key] = {
                "draws": str(draws),
                "x": _hex(x),
                "sum": _hex(np.stack(sums)),
                "mean": _hex(np.stack(means)),
            }
            if norms:
                out[key]["norm"] = _hex(np.stack(norms))
    sweep: dict[str, dict[str, str]] = {}
    srng = np.random.default_rng(27)  # its own stream: the cases above keep their draws
    norm = jax.jit(jnp.linalg.norm)
    for shape in SWEEP:
        x = srng.standard_normal((SWEEP_DRAWS, *shape))
        x = (x * np.exp(srng.standard_normal(x.shape))).astype(np.float32)
        sweep[str(shape)] = {
            "x": _hex(x),
            "sum": _hex(np.stack([np.asarray(jnp.sum(jnp.asarray(xi))) for xi in x])),
            "norm": _hex(np.stack([np.asarray(norm(jnp.asarray(xi))) for xi in x])),
        }
    vectors = [(1, 100), (1, 1000), (64, 1), (100, 1), (1000, 1)]  # 2-D with a side of 1
    for shape in [(n,) for n in LONG] + [s for s in TALL if s[0] * s[1] < 4096] + vectors:
        x = srng.standard_normal((SWEEP_DRAWS, *shape))
        x = (x * np.exp(srng.standard_normal(x.shape))).astype(np.float32)
        sweep[str(shape)] = {
            "x": _hex(x),
            "sum": _hex(np.stack([np.asarray(jnp.sum(jnp.asarray(xi))) for xi in x])),
            "norm": _hex(np.stack([np.asarray(norm(jnp.asarray(xi))) for xi in x])),
        }
    for dtype_name in ("float16", "bfloat16"):
        for shape in HALF_SWEEP:
            x = srng.standard_normal((SWEEP_DRAWS, *shape))
            x = (x * np.exp(srng.standard_normal(x.shape))).astype(np.float32)
            x = x.astype(DTYPES[dtype_name])
            sweep[f"{dtype_name}|{shape}"] = {
                "x": _hex(x),
                "sum": _hex(np.stack([np.asarray(jnp.sum(jnp.asarray(xi))) for xi in x])),
                "norm": _hex(np.stack([np.asarray(norm(jnp.asarray(xi))) for xi in x])),
            }
    sweep64: dict[str, dict[str, str]] = {}
    jax.config.update("jax_enable_x64", True)  # last: the float32 data above are taken without
    norm64 = jax.jit(jnp.linalg.norm)
    for shape in SWEEP:
        x64 = srng.standard_normal((SWEEP_DRAWS, *shape))
        x64 = x64 * np.exp(srng.standard_normal(x64.shape))
        sweep64[str(shape)] = {
            "x": _hex(x64),
            "norm": _hex(np.stack([np.asarray(norm64(jnp.asarray(xi))) for xi in x64])),
        }
    data = {"jax": jax.__version__, "cases": out, "sweep": sweep, "sweep64": sweep64}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
