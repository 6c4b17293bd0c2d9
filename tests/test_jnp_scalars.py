"""``jax.numpy`` functions given Python scalars, against JAX 0.10.2 (``tests/jnp_scalar_cases.py``,
golden ``tests/golden/jnp_scalars.json`` from ``tools/gen_golden_jnp_scalars.py``; 10,878 cases).

Fixed with it: a complex value written into a bool array (``.at[].set(1j)``, ``insert``,
``place``, ``piecewise``, ``fill_diagonal``) converts as XLA does, by its real part (it was the
nonzero test: True where JAX gives False), while ``astype(bool)`` stays the nonzero test;
``ldexp`` clamps int64 exponents (``ldexp(1, 2**31)`` was 0, JAX's inf); ``linspace`` of a complex
end into a real or bool dtype takes the real part (it raised, or tested both parts); it refuses a
Python int beyond the default int (``OverflowError``); complex ``power`` and half-precision and
integer ``linspace`` give JAX's bits (``tests/test_xla16_values.py``). KNOWN lists what still
differs, by class.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from jnp_scalar_cases import outcomes

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "jnp_scalars.json").read_text())

OPEN_ERR = "open: JAX's OverflowError (a Python int beyond int32 as a complex bound)"
BF16_BIG = "open: ml_dtypes refuses a Python int >= 2**63 as an object (JAX's TypeError)"


def _known(mode: str) -> dict[str, str]:
    known: dict[str, str] = {}
    big = ("9223372036854775808",) if mode == "x64" else (
        "2147483648", "-2147483649", "9223372036854775808")  # fmt: skip
    for s in big:
        for f in ("clip hi", "clip lo", "interp"):
            known[f"complex64 {s} {f}"] = OPEN_ERR
    known["bfloat16 9223372036854775808 array"] = BF16_BIG
    return known


@pytest.mark.parametrize("mode", ["x32", "x64"])
def test_python_scalars_in_jnp_as_jax(mode: str) -> None:
    with trellax.enable_x64(mode == "x64"):
        got = outcomes(tnp, mode == "x64")
    want = GOLDEN[mode]
    assert set(got) == set(want)
    known = _known(mode)
    differ = {k for k in want if got[k] != want[k]}
    wrong = [f"{k}: {got[k]} (JAX: {want[k]})" for k in sorted(differ - set(known))]
    assert not wrong, f"{len(wrong)} of {len(want)} differ:\n" + "\n".join(wrong[:30])
    assert not set(known) - differ, f"fixed, remove from KNOWN: {sorted(set(known) - differ)}"
