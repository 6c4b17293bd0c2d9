"""``lax.reduce`` and ``lax.reduce_window`` across init values of every kind: Python scalars of
each type, the identities of other dtypes, NumPy scalars of the operand's dtype; the
computations ``lax.add``/``mul``/``max``/``min``/``bitwise_*``, the ``numpy`` functions of those
names and a lambda; operands of nine dtypes; windows with and without padding and base
dilation. Shared by ``tools/gen_golden_reduce_init.py`` (JAX) and
``tests/test_reduce_init.py`` (trellax): ``outcomes`` runs every case with the library given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

INITS: list[Any] = [0, 1, -1, 0.0, 1.0, -128, 255, float("inf"), float("-inf"), True, False,
                    2**31 - 1, -(2**31)]  # fmt: skip
DTYPES = ["bool", "int8", "uint8", "int32", "uint32", "float16", "bfloat16", "float32"]
DTYPES_X64 = ["int64", "float64"]


def _record(run: Callable[[], Any]) -> str:
    try:
        r = run()
    except Exception as e:  # the class is what is compared
        return f"ERR {type(e).__name__}"
    leaves = r if isinstance(r, tuple) else (r,)
    return repr([(str(x.dtype), bool(getattr(x, "weak_type", False)),
                  np.asarray(x).astype(np.float64).tolist()) for x in leaves])  # fmt: skip


def outcomes(jax: Any, lax: Any, jnp: Any, x64: bool) -> dict[str, str]:
    """Every case's outcome (dtype, weak flag and values of each result, or the error class)."""
    out: dict[str, str] = {}
    reduce_comps: dict[str, Any] = {
        "add": lax.add, "mul": lax.mul, "max": lax.max, "min": lax.min,
        "or": lax.bitwise_or, "and": lax.bitwise_and, "xor": lax.bitwise_xor,
        "lam": lambda a, b: a + b,
    }  # fmt: skip
    window_comps: dict[str, Any] = {
        "add": lax.add, "mul": lax.mul, "max": lax.max, "min": lax.min,
        "jmax": jnp.maximum, "jadd": jnp.add, "jmul": jnp.multiply,
        "lam": lambda a, b: a + b,
    }  # fmt: skip
    for dt in DTYPES + (DTYPES_X64 if x64 else []):
        x2 = jnp.array([[1, 0], [1, 1], [0, 1]]).astype(dt)
        x1 = jnp.array([1, 0, 1, 1, 0]).astype(dt)
        own = np.zeros((), "float32" if dt == "bfloat16" else dt)[()]
        for name, comp in reduce_comps.items():
            for init in [*INITS, own]:
                key = f"reduce {dt} {name} {init!r}"

                def red(x: Any, init: Any = init, comp: Any = comp) -> Any:
                    return lax.reduce(x, init, comp, (0,))

                out[key] = _record(lambda: red(x2))  # noqa: B023
                out["jit " + key] = _record(lambda: jax.jit(red)(x2))  # noqa: B023
        for name, comp in window_comps.items():
            for init in [*INITS, own]:
                for label, args in (
                    ("valid", ((2,), (1,), "VALID")),
                    ("pad", ((2,), (2,), ((1, 0),))),
                    ("dil", ((3,), (2,), ((1, 1),), (2,))),
                ):
                    key = f"window {label} {dt} {name} {init!r}"
                    out[key] = _record(
                        lambda: lax.reduce_window(x1, init, comp, *args)  # noqa: B023
                    )
    return out
