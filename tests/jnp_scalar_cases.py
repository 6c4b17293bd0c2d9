# ruff: noqa: B023  (each lambda is called at once, inside the loop that binds its names)
"""``jax.numpy`` functions given Python scalars of every type and range (ints beyond int32 and
int64, complex, inf, NaN, -0.0, float16's edge) beside arrays of every dtype: ``clip``,
``where``, ``full_like``, ``.at[]``, ``pad``, ``nan_to_num``, ``insert``, ``append``, ``power``,
``ldexp``, ``linspace``, ``astype`` and 20 more. Shared by ``tools/gen_golden_jnp_scalars.py``
(JAX) and ``tests/test_jnp_scalars.py`` (trellax)."""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np


def _values(x: Any) -> Any:
    """The values as a list, or (more than 16) the shape and a digest of their bits."""
    a = np.asarray(x).astype(np.complex128)
    if a.size <= 16:
        return a.tolist()
    return (a.shape, hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest())


def outcomes(jnp: Any, x64: bool) -> dict[str, str]:
    """Every case's dtype, weak flag and values, or its error class."""
    warnings.simplefilter("ignore")
    out: dict[str, str] = {}

    def run(label: str, f: Callable[[], Any]) -> None:
        try:
            r = f()
        except Exception as e:  # the class is compared
            out[label] = f"ERR {type(e).__name__}"
            return
        r = r if isinstance(r, (tuple, list)) else (r,)
        out[label] = repr([(str(x.dtype), bool(getattr(x, "weak_type", False)), _values(x))
                           for x in r])  # fmt: skip

    scal = [
        0,
        -1,
        2.5,
        True,
        1j,
        300,
        2**31,
        -(2**31) - 1,
        2**63,
        float("inf"),
        float("nan"),
        -0.0,
        65504.0,
        1e5,
    ]
    dts = [
        "bool",
        "int8",
        "uint8",
        "int32",
        "uint32",
        "float16",
        "bfloat16",
        "float32",
        "complex64",
    ] + (["int64", "uint64", "float64"] if x64 else [])
    for dt in dts:
        x = jnp.array([1, 0, 3]).astype(dt)
        c = jnp.array([True, False, True])
        for s in scal:
            k = f"{dt} {s!r}"
            run(f"{k} clip lo", lambda: jnp.clip(x, s))
            run(f"{k} clip hi", lambda: jnp.clip(x, None, s))
            run(f"{k} where", lambda: jnp.where(c, x, s))
            run(f"{k} where2", lambda: jnp.where(c, s, x))
            run(f"{k} full_like", lambda: jnp.full_like(x, s))
            run(f"{k} at set", lambda: x.at[0].set(s))
            run(f"{k} at add", lambda: x.at[0].add(s))
            run(f"{k} at mul", lambda: x.at[0].multiply(s))
            run(f"{k} at min", lambda: x.at[0].min(s))
            run(f"{k} pad", lambda: jnp.pad(x, 1, constant_values=s))
            run(f"{k} nan_to_num", lambda: jnp.nan_to_num(x, nan=s, posinf=s, neginf=s))
            run(f"{k} insert", lambda: jnp.insert(x, 1, s))
            run(f"{k} append", lambda: jnp.append(x, s))
            run(f"{k} isclose", lambda: jnp.isclose(x, s))
            run(f"{k} maximum", lambda: jnp.maximum(x, s))
            run(f"{k} power", lambda: jnp.power(x, s))
            run(f"{k} rpower", lambda: jnp.power(s, x))
            run(f"{k} ldexp", lambda: jnp.ldexp(x, s))
            run(f"{k} searchsorted", lambda: jnp.searchsorted(x, s))
            run(
                f"{k} fill_diag", lambda: jnp.fill_diagonal(jnp.zeros((2, 2), dt), s, inplace=False)
            )
            run(f"{k} place", lambda: jnp.place(x, c, s, inplace=False))
            run(f"{k} heaviside", lambda: jnp.heaviside(x, s))
            run(f"{k} copysign", lambda: jnp.copysign(x, s))
            run(f"{k} array", lambda: jnp.array([x[0], s]))
            run(f"{k} stack", lambda: jnp.stack([x, jnp.full_like(x, s)]))
            run(f"{k} select", lambda: jnp.select([c], [x], s))
            run(f"{k} piecewise", lambda: jnp.piecewise(x, [c], [s, 0]))
            run(
                f"{k} interp",
                lambda: jnp.interp(x, jnp.array([0.0, 1.0]), jnp.array([0.0, 1.0]), left=s),
            )
            run(f"{k} round", lambda: jnp.round(x, 1) + s)
            run(
                f"{k} arange",
                lambda: (
                    jnp.arange(s, dtype=dt)
                    if not isinstance(s, complex) and abs(s) < 1e6
                    else jnp.arange(0)
                ),
            )
            run(f"{k} linspace", lambda: jnp.linspace(0, s, 3, dtype=dt))
            run(f"{k} astype", lambda: jnp.asarray(s).astype(dt))
            run(f"{k} array_dtype", lambda: jnp.array(jnp.asarray([s, 0]), dtype=dt))
            run(f"{k} floor_divide", lambda: jnp.floor_divide(x, s))
            run(f"{k} remainder", lambda: jnp.remainder(s, x))
            run(f"{k} bitwise_and", lambda: jnp.bitwise_and(x, s))
            run(f"{k} left_shift", lambda: jnp.left_shift(x, s))
    return out
