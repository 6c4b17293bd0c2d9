"""Golden data for ``jit`` as a call primitive (issue 21 goal 5, issue 22 section 2), from JAX.

Run with the reference environment (``/tmp/jaxref/bin/python tools/gen_golden_jit_call.py``); it
writes ``tests/golden/jit_call.json``:

* ``jaxprs``: ``str(make_jaxpr(...))`` of programs calling jitted functions (inputs are strong
  float32, so that JAX's text, which does not mark weak types, is comparable);
* ``traces``: how many times the Python function ran for a sequence of transformed calls;
* ``options``: for each ``jit`` keyword, whether wrapping and calling succeed, or which error
  (type and message start) each raises;
* ``gotcha``: JAX's "Common Gotchas" global-variable example (a new wrapper reuses the trace).
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "jit_call.json"


def foo(x: Any) -> Any:
    return jnp.sin(x) * x


def f(x: Any) -> Any:
    return jnp.sin(x) * x


def two(x: Any, y: Any) -> Any:
    return jnp.sin(x) * y


_C = np.arange(3.0, dtype=np.float32)


def closes(x: Any) -> Any:
    return x + _C


def a(y: Any) -> Any:
    return y * 3


def g2(y: Any) -> Any:
    return jax.jit(a)(y) + jax.jit(a)(y)


_lam = lambda y: y * 2  # noqa: E731 (a lambda: its name prints as <lambda>)


def outer(x: Any) -> Any:
    return jax.jit(foo)(x) + jax.jit(jnp.cos)(x)


S = np.float32(1.0)
V = np.ones(3, np.float32)

JAXPR_CASES: dict[str, Any] = {
    "jit_scalar": lambda: jax.make_jaxpr(jax.jit(f))(S),
    "jit_vector": lambda: jax.make_jaxpr(jax.jit(f))(V),
    "grad_jit": lambda: jax.make_jaxpr(jax.grad(jax.jit(f)))(S),
    "jit_grad_jit": lambda: jax.make_jaxpr(jax.jit(jax.grad(jax.jit(jnp.sin))))(S),
    "closure_const": lambda: jax.make_jaxpr(jax.jit(closes))(V),
    "vmap_jit": lambda: jax.make_jaxpr(jax.vmap(jax.jit(f)))(V),
    "shared_body": lambda: jax.make_jaxpr(lambda x: jax.jit(foo)(jax.jit(foo)(x)))(S),
    "pair_out": lambda: jax.make_jaxpr(jax.jit(lambda x, y: (x * y, x)))(S, np.int32(2)),
    "nested": lambda: jax.make_jaxpr(jax.jit(outer))(V),
    "shared_lambda": lambda: jax.make_jaxpr(lambda x: jax.jit(_lam)(jax.jit(_lam)(x)))(S),
    "shared_nested": lambda: jax.make_jaxpr(lambda x: jax.jit(g2)(x) * jax.jit(g2)(x))(S),
    "flags": lambda: jax.make_jaxpr(
        lambda x: jax.jit(two, donate_argnums=0, keep_unused=True)(x, x)
    )(S),
    "jvp_jit": lambda: jax.make_jaxpr(lambda x: jax.jvp(jax.jit(f), (x,), (x,)))(V),
    "vmap_jit_in_axes": lambda: jax.make_jaxpr(jax.vmap(jax.jit(two), in_axes=(0, None)))(
        np.ones((2, 3), np.float32), V
    ),
}


def traces() -> dict[str, int]:
    out: dict[str, int] = {}

    def counted() -> tuple[list[int], Any]:
        n = [0]

        def g(x: Any) -> Any:
            n[0] += 1
            return jnp.sin(x) * x

        return n, g

    n, g = counted()
    jg = jax.grad(jax.jit(g))
    jg(S)
    jg(np.float32(2.0))
    out["grad_jit_twice"] = n[0]
    n, g = counted()
    jax.jit(jax.grad(jax.jit(g)))(S)
    jax.jit(jax.grad(jax.jit(g)))(np.float32(2.0))
    out["jit_grad_jit_twice"] = n[0]
    n, g = counted()
    jax.vmap(jax.jit(g))(V)
    jax.vmap(jax.jit(g))(V + 1)
    out["vmap_jit_twice"] = n[0]
    n, g = counted()
    jax.jit(jax.vmap(jax.jit(g)))(V)
    jax.jit(jax.vmap(jax.jit(g)))(V + 1)
    out["jit_vmap_jit_twice"] = n[0]
    n, g = counted()
    jax.jit(g)(S)
    jax.jit(g)(np.float32(3.0))
    out["new_wrapper_twice"] = n[0]
    n, g = counted()
    jax.jit(g)(S)
    jax.jit(g)(V)
    out["new_signature"] = n[0]
    return out


def gotcha() -> list[float]:
    g = 0.0

    def impure_uses_globals(x: Any) -> Any:
        return x + g

    first = float(jax.jit(impure_uses_globals)(4.0))
    g = 10.0
    second = float(jax.jit(impure_uses_globals)(5.0))
    return [first, second]


def _outcome(make: Any) -> dict[str, Any]:
    try:
        wrapped = make()
    except Exception as e:  # recording what JAX raises
        return {"stage": "jit", "error": type(e).__name__, "message": str(e)[:120]}
    try:
        float(wrapped(np.float32(1.0)))
    except Exception as e:
        return {"stage": "call", "error": type(e).__name__, "message": str(e)[:120]}
    return {"stage": "ok"}


def options() -> dict[str, Any]:
    d = jax.devices()[0]
    mesh = jax.make_mesh((1,), ("x",))
    one = SingleDeviceSharding(d)

    def h(x: Any) -> Any:
        return x * 2

    cases: dict[str, Any] = {
        "in_shardings_none": lambda: jax.jit(h, in_shardings=None),
        "in_shardings_single": lambda: jax.jit(h, in_shardings=one),
        "in_shardings_tuple": lambda: jax.jit(h, in_shardings=(one,)),
        "in_shardings_named": lambda: jax.jit(h, in_shardings=NamedSharding(mesh, PartitionSpec())),
        "in_shardings_spec_no_mesh": lambda: jax.jit(h, in_shardings=PartitionSpec()),
        "in_shardings_wrong_length": lambda: jax.jit(h, in_shardings=(one, one)),
        "out_shardings_single": lambda: jax.jit(h, out_shardings=one),
        "device": lambda: jax.jit(h, device=d),
        "backend_cpu": lambda: jax.jit(h, backend="cpu"),
        "backend_gpu": lambda: jax.jit(h, backend="gpu"),
        "device_and_backend": lambda: jax.jit(h, device=d, backend="cpu"),
        "device_and_in_shardings": lambda: jax.jit(h, device=d, in_shardings=one),
        "compiler_options": lambda: jax.jit(
            h, compiler_options={"xla_cpu_enable_fast_math": False}
        ),
        "donate_argnames": lambda: jax.jit(h, donate_argnames="x"),
        "donate_argnames_unknown": lambda: jax.jit(h, donate_argnames="y"),
        "keep_unused": lambda: jax.jit(h, keep_unused=True),
        "inline": lambda: jax.jit(h, inline=True),
        "abstracted_axes": lambda: jax.jit(h, abstracted_axes=({0: "n"},)),
    }
    return {k: _outcome(v) for k, v in cases.items()}


def main() -> None:
    data = {
        "jax_version": jax.__version__,
        "jaxprs": {k: str(v()) for k, v in JAXPR_CASES.items()},
        "traces": traces(),
        "gotcha": gotcha(),
        "options": options(),
    }
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
