"""Generate golden data for user-defined extended dtypes (``tests/test_extended_dtypes.py``) from
real JAX 0.10.2 and Flax 0.12.8.

Run from the repository root with ``/tmp/jaxref/bin/python tools/gen_golden_extended_dtypes.py``
(jax, flax). Writes ``tests/golden/extended_dtypes.json``. Every case uses Flax's meta dtype
``fp32_max_grad`` (float32 whose cotangents combine with ``max``), because JAX can only make
arrays of an extended dtype outside ``jit`` through a rules object with a result handler, which
Flax's has:

- ``repr``: the repr of an array of it, and of the dtype;
- ``joins``: ``stack``, ``concatenate``, ``where``, ``broadcast_to`` of such arrays, read back
  as float32;
- ``scan_max``: the gradient of a loop constant of the meta dtype used in every step of a
  ``scan`` (a ``custom_vjp`` whose backward pass sends ``max |x|`` of the step), with and without
  ``jit``;
- ``vjp_two_uses``: the cotangent of a float32 input converted to the meta dtype twice;
- ``primal_tangent``: ``primal_tangent_dtype(int8, bfloat16)``'s repr and the cotangent dtype.

This script must not import trellax.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from flax.linen import fp8_ops
from jax._src import dtypes

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "extended_dtypes.json"
META = fp8_ops.fp32_max_grad
F32 = jnp.float32


def to_meta(x: Any) -> Any:
    return jax.lax.convert_element_type(x, META)


def to_f32(x: Any) -> Any:
    return jax.lax.convert_element_type(x, F32)


def values(x: Any) -> list[Any]:
    return np.asarray(x, np.float64).tolist()  # type: ignore[no-any-return]


@jax.custom_vjp
def observe(scale: Any, x: Any) -> Any:
    return x


def _observe_fwd(scale: Any, x: Any) -> tuple[Any, Any]:
    return x, jnp.max(jnp.abs(x))


def _observe_bwd(amax: Any, g: Any) -> tuple[Any, Any]:
    return to_meta(jnp.reshape(amax, (1,))), g


observe.defvjp(_observe_fwd, _observe_bwd)


def outer(x: Any, scale_f32: Any) -> Any:
    scale = to_meta(scale_f32)

    def body(c: Any, _: Any) -> tuple[Any, None]:
        return observe(scale, c) * 2.0, None

    out, _ = jax.lax.scan(body, x, None, length=3)
    return out.sum()


def main() -> None:
    e = to_meta(jnp.arange(3.0, dtype=F32))
    cases: dict[str, Any] = {
        "repr": {"array": repr(e), "dtype": repr(META)},
        "joins": {
            "stack": values(to_f32(jnp.stack([e, e]))),
            "concatenate": values(to_f32(jnp.concatenate([e, e]))),
            "where": values(
                to_f32(jnp.where(jnp.array([True, False, True]), e, to_meta(-jnp.ones(3))))
            ),
            "broadcast_to": values(to_f32(jnp.broadcast_to(e, (2, 3)))),
        },
    }
    x = jnp.array([1.5, -0.5], F32)
    scan: dict[str, Any] = {"x": values(x)}
    for name, g in (("eager", jax.grad(outer, (0, 1))), ("jit", jax.jit(jax.grad(outer, (0, 1))))):
        gx, gs = g(x, jnp.zeros(1, F32))
        scan[name] = {"grad_x": values(gx), "grad_scale": values(gs), "dtype": str(gs.dtype)}
    cases["scan_max"] = scan
    _, bwd = jax.vjp(lambda a: (to_meta(a), to_meta(a * 2.0)), jnp.arange(3.0, dtype=F32))
    (ct,) = bwd((e, e))
    cases["vjp_two_uses"] = {"ct": values(ct), "dtype": str(ct.dtype)}
    dt = dtypes.primal_tangent_dtype(jnp.int8, jnp.bfloat16)

    @jax.custom_vjp
    def f(v: Any) -> Any:
        return v.astype(jnp.int8).astype(jnp.bfloat16) * 2

    f.defvjp(lambda v: (f(v), None), lambda _, c: (c * 2,))

    def run() -> Any:
        out, back = jax.vjp(f, jnp.array([1, 2, 3], jnp.int8).astype(dt))
        return out, back(jnp.array([0.5, 1.0, 2.0], jnp.bfloat16))[0]

    out, ct2 = jax.jit(run)()  # JAX's test runs this under jit only
    cases["primal_tangent"] = {
        "repr": repr(dt),
        "out": values(out),
        "out_dtype": str(out.dtype),
        "ct": values(ct2),
        "ct_dtype": str(ct2.dtype),
    }
    OUT.write_text(json.dumps({"jax": jax.__version__, "cases": cases}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
