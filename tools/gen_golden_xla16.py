"""Golden complex ``pow``, complex ``lax.clamp`` and half-precision ``linspace`` from JAX 0.10.2.

python tools/gen_golden_xla16.py   # with jax==0.10.2; writes tests/golden/xla16_values.json

Arrays are stored as base64 of their little-endian bytes (``tests/test_xla16_values.py`` decodes
them), so that every bit (signs of zero, NaN) is compared.

* ``pow``: every pair of a grid of complex values whose parts are taken from ``PARTS`` (zeros of
  both signs, ±1, ±2, 0.5, a tiny, a huge and a subnormal float32, ±inf, NaN), and 4,000 random
  pairs, through ``lax.pow`` in complex64 and complex128 (x64 on); ``jnp.power`` and ``**`` with
  Python complex scalars; ``lax.integer_pow``/``jnp.power`` with integer exponents on complex.
* ``clamp``: every triple ``(lo, x, hi)`` of ``CLAMP_VALUES`` through ``lax.clamp``.
* ``linspace``: float16 and bfloat16 ``jnp.linspace`` over ``LINSPACE_ENDS`` x ``LINSPACE_NUMS``
  x ``endpoint``, and integer-dtype ``linspace`` with 32-bit ends, x64 on and off.
* ``sum``: float32 ``jnp.sum`` of seeded random arrays of ``SUM_SIZES`` elements.
* ``atan2_float32``: float32 ``jnp.arctan2`` of ``atan2_inputs()``.
"""

from __future__ import annotations

import base64
import itertools
import json
import pathlib
import sys
import warnings
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "xla16_values.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from xla16_cases import (  # noqa: E402
    CLAMP_VALUES,
    INT_LINSPACE,
    LINSPACE_ENDS,
    LINSPACE_NUMS,
    PARTS,
    SUM_SIZES,
    atan2_inputs,
    grid_values,
    random_pairs,
    sum_input,
)


def enc(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()


def pow_cases() -> dict[str, str]:
    out = {}
    for dt in (np.complex64, np.complex128):
        name = np.dtype(dt).name
        vals = grid_values(dt)
        x = np.repeat(vals, vals.size)
        y = np.tile(vals, vals.size)
        out[f"grid {name}"] = enc(np.asarray(lax.pow(x, y)))
        rx, ry = random_pairs(dt, 4000)
        out[f"random x {name}"], out[f"random y {name}"] = enc(rx), enc(ry)
        out[f"random {name}"] = enc(np.asarray(lax.pow(rx, ry)))
        out[f"jnp.power random {name}"] = enc(np.asarray(jnp.power(rx, ry)))
        small = rx[:64]
        for n in (-3, -2, -1, 0, 1, 2, 3, 5):
            out[f"integer_pow {n} {name}"] = enc(np.asarray(lax.integer_pow(small, n)))
            out[f"jnp.power int {n} {name}"] = enc(np.asarray(jnp.power(small, n)))
        for s in (1j, -1 + 0j, 2.5 - 1j, 0j):
            out[f"scalar base {s!r} {name}"] = enc(np.asarray(s ** jnp.asarray(small)))
            out[f"scalar exponent {s!r} {name}"] = enc(np.asarray(jnp.asarray(small) ** s))
    return out


def clamp_cases() -> dict[str, str]:
    out = {}
    for dt in (np.complex64, np.complex128):
        v = np.asarray(CLAMP_VALUES, dt)
        lo, x, hi = (np.asarray(t, dt) for t in zip(*itertools.product(v, v, v)))
        out[np.dtype(dt).name] = enc(np.asarray(lax.clamp(lo, x, hi)))
    return out


def linspace_cases() -> dict[str, str]:
    out = {}
    for dt in (np.float16, ml_dtypes.bfloat16):
        for a, b in itertools.product(LINSPACE_ENDS, LINSPACE_ENDS):
            for num in LINSPACE_NUMS:
                for ep in (True, False):
                    r = jnp.linspace(np.asarray(a, dt), np.asarray(b, dt), num, endpoint=ep)
                    out[f"{np.dtype(dt).name} {a!r} {b!r} {num} {ep}"] = enc(np.asarray(r))
    return out


def int_linspace_cases() -> dict[str, str]:
    out = {}
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        for dt, a, b, num in INT_LINSPACE:
            try:
                value = enc(np.asarray(jnp.linspace(a, b, num, dtype=dt)))
            except (OverflowError, TypeError, ValueError) as e:
                value = f"error {type(e).__name__}"
            out[f"{x64} {dt} {a!r} {b!r} {num}"] = value
    jax.config.update("jax_enable_x64", True)
    return out


def sum_cases() -> dict[str, list[Any]]:
    """``jnp.sum`` of each seeded array and of its absolute values (float32 bits as ints), with
    the float64 sum of the input as a check that both sides draw the same array."""
    out: dict[str, list[Any]] = {}
    for n in SUM_SIZES:
        for seed in range(3):
            x = sum_input(n, seed)
            sums = [np.asarray(jnp.sum(v)).view(np.uint32).item() for v in (x, np.abs(x))]
            out[f"{n} {seed}"] = [*sums, float(x.astype(np.float64).sum())]
    return out


def main() -> None:
    warnings.simplefilter("ignore")
    jax.config.update("jax_enable_x64", True)
    golden = {
        "jax": jax.__version__,
        "parts": PARTS,
        "pow": pow_cases(),
        "clamp": clamp_cases(),
        "linspace": linspace_cases(),
        "int_linspace": int_linspace_cases(),
        "sum": sum_cases(),
        "atan2_float32": enc(np.asarray(jnp.arctan2(*atan2_inputs()))),
    }
    OUT.write_text(json.dumps(golden, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
