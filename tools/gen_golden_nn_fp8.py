"""Generate golden data for ``trellax.nn.fp8_ops`` (Flax's fp8 delayed-scaling layers) from real
Flax 0.12.8 + JAX.

Run from the repository root in a virtual environment with ``flax`` 0.12.8, ``jax`` and
``numpy`` (``/tmp/jaxref/bin/python tools/gen_golden_nn_fp8.py``). Writes
``tests/golden/nn_fp8.json``: every input (drawn with NumPy from fixed seeds) and every output,
arrays as ``{"dtype", "shape", "values"}``. The cases:

- ``qdq``: ``fp8_ops.qdq`` of one float32 array to each float8 type with two scales;
- ``meta``: ``update_fp8_meta`` of an amax history and a tensor;
- ``train_<layer>``: three steps of ``DenseGeneral(dot_general_cls=<layer>)``: outputs, the
  kernel's and the input's gradients of ``sum(y * dy)``, and the fp8 metadata after each step
  (the ``_overwrite_with_gradient`` collection is replaced by its gradient, the kernel takes an
  SGD step of 0.1), for ``Fp8DirectDotGeneralOp``, ``NANOOFp8DotGeneralOp`` and
  ``Fp8DotGeneralOp``;
- ``einsum_<i>``: ``Fp8Einsum`` outputs and gradients for two equations.

This script must not import trellax.
"""

from __future__ import annotations

import functools
import json
import warnings
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn
from flax.linen import fp8_ops

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "nn_fp8.json"
COL = fp8_ops.OVERWRITE_WITH_GRADIENT


def encode(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: encode(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [encode(v) for v in x]
    a = np.asarray(x)
    return {
        "dtype": str(a.dtype),
        "shape": list(a.shape),
        "values": a.astype(np.float64).ravel().tolist(),
    }


def data(shape: tuple[int, ...], seed: int, scale: float = 1.0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def qdq_case() -> dict[str, Any]:
    x = data((4, 8), 1, 3.0)
    x[0, :4] = [1000.0, -1000.0, 1e-6, 0.0]  # clipped, clipped, underflow, zero
    out: dict[str, Any] = {"x": encode(x)}
    for name in ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"):
        for scale in (1.0, 0.5):
            y = fp8_ops.qdq(jnp.asarray(x), jnp.dtype(name), jnp.full((1,), scale), jnp.float32)
            out[f"{name}_{scale}"] = encode(y)
    return out


def meta_case() -> dict[str, Any]:
    history = np.abs(data((16,), 2, 2.0))
    history[3] = 0.0
    x = data((5, 7), 3, 4.0)
    scale = np.asarray([0.25], np.float32)
    new_scale, new_history = fp8_ops.update_fp8_meta(
        jnp.asarray(x), jnp.float8_e4m3fn, jnp.asarray(scale), jnp.asarray(history)
    )
    return {
        "x": encode(x),
        "scale": encode(scale),
        "history": encode(history),
        "new_scale": encode(new_scale),
        "new_history": encode(new_history),
    }


def train_case(layer: Any) -> dict[str, Any]:
    # a short amax history keeps the file small (the layer reads its length from the field)
    dense = nn.DenseGeneral(
        features=6, dot_general_cls=functools.partial(layer, amax_history_length=16)
    )
    x0 = data((4, 5), 4)
    variables = jax.tree_util.tree_map(np.asarray, dense.init(jax.random.key(0), x0))
    kernel = data((5, 6), 5, 0.5)
    variables["params"]["kernel"] = kernel
    start = {"kernel": encode(kernel), "bias": encode(variables["params"]["bias"])}

    def loss(v: Any, x: Any, dy: Any) -> Any:
        return jnp.sum(dense.apply(v, x) * dy)

    step = jax.jit(jax.value_and_grad(loss, argnums=(0, 1)))
    steps = []
    for i in range(3):
        x = data((4, 5), 10 + i, 2.0)
        dy = data((4, 6), 20 + i)
        y = dense.apply(variables, x)
        _, (g, gx) = step(variables, x, dy)
        variables = {
            "params": jax.tree_util.tree_map(
                lambda p, d: p - 0.1 * d, variables["params"], g["params"]
            ),
            COL: g[COL],
        }
        steps.append(
            {
                "x": encode(x),
                "dy": encode(dy),
                "y": encode(y),
                "grad_kernel": encode(g["params"]["kernel"]),
                "grad_x": encode(gx),
                "meta": encode(dict(next(iter(g[COL].values())))),
            }
        )
    return {"start": start, "steps": steps}


def einsum_case(
    eqn: str, xs: tuple[int, ...], ys: tuple[int, ...], gs: tuple[int, ...]
) -> dict[str, Any]:
    x, y, g = data(xs, 30), data(ys, 31), data(gs, 32)
    layer = fp8_ops.Fp8Einsum(amax_history_length=16)
    variables = layer.init(jax.random.key(0), eqn, x, y)

    def loss(v: Any, a: Any, b: Any) -> Any:
        return jnp.sum(layer.apply(v, eqn, a, b) * g)

    out = layer.apply(variables, eqn, x, y)
    _, (gv, ga, gb) = jax.value_and_grad(loss, argnums=(0, 1, 2))(variables, x, y)
    return {
        "eqn": eqn,
        "x": encode(x),
        "y": encode(y),
        "g": encode(g),
        "out": encode(out),
        "grad_x": encode(ga),
        "grad_y": encode(gb),
        "meta": encode(dict(gv[COL])),
    }


def main() -> None:
    jax.config.update("jax_platforms", "cpu")
    warnings.simplefilter("ignore")
    cases = {
        "qdq": qdq_case(),
        "meta": meta_case(),
        "train_Fp8DirectDotGeneralOp": train_case(fp8_ops.Fp8DirectDotGeneralOp),
        "train_NANOOFp8DotGeneralOp": train_case(fp8_ops.NANOOFp8DotGeneralOp),
        "train_Fp8DotGeneralOp": train_case(fp8_ops.Fp8DotGeneralOp),
        "einsum_0": einsum_case("mk,kn->mn", (6, 8), (8, 5), (6, 5)),
        "einsum_1": einsum_case("...k,nk->...n", (2, 3, 8), (5, 8), (2, 3, 5)),
    }
    meta = {"jax": jax.__version__, "flax": __import__("flax").__version__}
    OUT.write_text(json.dumps({"meta": meta, "cases": cases}, indent=None, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
