"""``lax`` functions given Python scalars: the binary functions with a scalar on either side,
``clamp``, ``pad``, ``select``, ``full``/``full_like``, ``dynamic_update_slice``,
``integer_pow`` and ``convert_element_type``, over operands of every dtype and scalars of every
Python type and range (ints beyond int32 and int64, complex, inf, NaN). Shared by
``tools/gen_golden_lax_scalars.py`` (JAX) and ``tests/test_lax_scalars.py`` (trellax)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

BINARY = ["add", "sub", "mul", "div", "rem", "pow", "max", "min", "atan2", "nextafter", "eq",
          "lt", "ne", "bitwise_and", "bitwise_or", "shift_left", "shift_right_logical",
          "shift_right_arithmetic", "complex"]  # fmt: skip
SCALARS: list[Any] = [0, 1, -1, 2.5, True, 1j, 2**31, -(2**31) - 1, 2**63, float("inf"),
                      float("nan"), 300, -3]  # fmt: skip
CONVERTED: list[Any] = [2**31, -(2**31) - 1, 2**63, 2**64, 2**70, 1j, 0j, 2.5 + 0j,
                        complex("nan"), complex(0, float("nan")), complex("inf"),
                        complex(300, float("inf")), 2.5, 1e40, float("nan")]  # fmt: skip


def _record(run: Callable[[], Any]) -> str:
    try:
        r = run()
    except Exception as e:  # the class is compared
        return f"ERR {type(e).__name__}"
    leaves = r if isinstance(r, (tuple, list)) else (r,)
    return repr([(str(x.dtype), bool(getattr(x, "weak_type", False)),
                  np.asarray(x).astype(np.complex128).tolist()) for x in leaves])  # fmt: skip


def outcomes(lax: Any, jnp: Any, x64: bool) -> dict[str, str]:
    """Every case's dtype, weak flag and values, or its error class."""
    warnings.simplefilter("ignore")
    out: dict[str, str] = {}
    dts = ["bool", "int8", "uint8", "int32", "uint32", "float16", "bfloat16", "float32",
           "complex64"] + (["int64", "uint64", "float64"] if x64 else [])  # fmt: skip
    for dt in dts:
        x = jnp.array([1, 0, 3]).astype(dt)
        for name in BINARY:
            f = getattr(lax, name)
            for s in SCALARS:
                out[f"{dt} {name} x,{s!r}"] = _record(lambda: f(x, s))  # noqa: B023
                out[f"{dt} {name} {s!r},x"] = _record(lambda: f(s, x))  # noqa: B023
        for p in (-3, -2, -1, 0, 1, 2, 3, 300):
            out[f"{dt} integer_pow {p}"] = _record(lambda: lax.integer_pow(x, p))  # noqa: B023
        for s in SCALARS:
            mask = jnp.array([True, False, True])
            out[f"{dt} clamp {s!r},x,{s!r}"] = _record(lambda: lax.clamp(s, x, s))  # noqa: B023
            out[f"{dt} clamp {s!r},x,x"] = _record(lambda: lax.clamp(s, x, x))  # noqa: B023
            out[f"{dt} pad {s!r}"] = _record(lambda: lax.pad(x, s, [(1, 1, 0)]))  # noqa: B023
            out[f"{dt} select {s!r}"] = _record(
                lambda: lax.select(mask, x, jnp.full_like(x, s))  # noqa: B023
            )
            out[f"{dt} dus {s!r}"] = _record(
                lambda: lax.dynamic_update_slice(x, jnp.asarray([s]), (1,))  # noqa: B023
            )
        for s in SCALARS + CONVERTED:
            out[f"{dt} full_like {s!r}"] = _record(lambda: lax.full_like(x, s))  # noqa: B023
            out[f"{dt} full {s!r}"] = _record(lambda: lax.full((2,), s, dt))  # noqa: B023
            out[f"{dt} convert {s!r}"] = _record(
                lambda: lax.convert_element_type(s, dt)  # noqa: B023
            )
            out[f"{dt} jnp.full {s!r}"] = _record(lambda: jnp.full((2,), s, dt))  # noqa: B023
    return out
