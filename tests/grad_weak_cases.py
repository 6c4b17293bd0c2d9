"""Weak flags of gradients: ``grad`` in one or both arguments of ``-b(u(x), y)`` for 14 unary
and 8 binary functions, with Python floats and float32 scalars as arguments, and up to third
derivatives of a few compositions with a strong NumPy constant. Shared by
``tools/gen_golden_grad_weak.py`` (JAX) and ``tests/test_grad_weak.py`` (trellax)."""

from __future__ import annotations

from typing import Any

import numpy as np


def outcomes(jax: Any, jnp: Any) -> dict[str, str]:
    """Each case's gradient dtypes and weak flags (or the error class)."""
    un: dict[str, Any] = {
        "abs": jnp.abs, "neg": jnp.negative, "sin": jnp.sin, "exp": jnp.exp, "sq": jnp.square,
        "sqrt": jnp.sqrt, "tanh": jnp.tanh, "id": lambda v: v,
        "sign*": lambda v: jnp.sign(v) * v, "max0": lambda v: jnp.maximum(v, 0.0),
        "where": lambda v: jnp.where(v > 0, v, 0.0), "f32": lambda v: v * jnp.float32(2),
        "astype": lambda v: v.astype(jnp.float32), "clip": lambda v: jnp.clip(v, 0.0, 1.0),
    }  # fmt: skip
    bi: dict[str, Any] = {
        "pow": lambda a, b: a**b, "mul": lambda a, b: a * b, "add": lambda a, b: a + b,
        "div": lambda a, b: a / b, "atan2": jnp.arctan2, "max": jnp.maximum,
        "hyp": jnp.hypot, "lae": jnp.logaddexp,
    }  # fmt: skip
    out: dict[str, str] = {}
    for un_name, u in un.items():
        for bn, b in bi.items():
            for argnums in (0, 1, (0, 1)):
                for args in ((0.7, 1.5), (jnp.float32(0.7), 1.5), (0.7, jnp.float32(1.5))):
                    kinds = [type(a).__name__ for a in args]
                    key = f"{un_name} {bn} {argnums} {kinds}"
                    try:
                        g = jax.grad(lambda x, y: -b(u(x), y), argnums=argnums)(*args)  # noqa: B023
                        leaves = g if isinstance(g, tuple) else (g,)
                        out[key] = repr([(str(v.dtype), bool(v.weak_type)) for v in leaves])
                    except Exception as e:  # the class is compared
                        out[key] = f"ERR {type(e).__name__}"
    c = np.float32(0.8)
    higher: dict[str, Any] = {
        "tanh(c*x^3)": lambda x: jnp.tanh(c * x**3), "x*tanh(c*x)": lambda x: x * jnp.tanh(c * x),
        "c*x^3": lambda x: c * x**3, "x^y": lambda x: x ** (x * 0.5 + 1.0),
        "gelu": jax.nn.gelu, "softplus": jax.nn.softplus,
    }  # fmt: skip
    for name, f in higher.items():
        g = f
        for n in range(1, 4):
            g = jax.grad(g)
            r = g(0.7)
            out[f"d{n} {name}"] = repr((str(r.dtype), bool(r.weak_type)))
    return out
