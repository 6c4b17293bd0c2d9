"""``lax`` functions given Python scalars, against JAX 0.10.2 (``tests/lax_scalar_cases.py``,
golden ``tests/golden/lax_scalars.json`` from ``tools/gen_golden_lax_scalars.py``).

Fixed with it: ``convert_element_type``/``full``/``full_like`` of a Python int beyond int32 wrap
into integer dtypes as JAX's (they raised ``OverflowError``); a Python complex becomes its
nonzero test as bool (``1j`` was False), raises ``TypeError`` towards a real or finite-to-integer
dtype (it was converted silently) and, non-finite, converts to an integer dtype as a complex
array does; ``integer_pow`` of complex to a negative power divides as XLA does (``1 / (1+0j)`` is
``1+0j``, it was ``1-0j``). KNOWN lists the rows that still differ, each with its class (rows of
docs/semantics.md).
"""

from __future__ import annotations

import json
import pathlib

import pytest
from lax_scalar_cases import outcomes

import trellax
import trellax.numpy as tnp
from trellax import lax

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "lax_scalars.json").read_text())

KNOWN = {
    "x32": {
        "complex64 atan2 1j,x": "complex atan2 evaluation order (docs/semantics.md)",
        "complex64 atan2 x,1j": "complex atan2 evaluation order (docs/semantics.md)",
    },
    "x64": {},
}


@pytest.mark.parametrize("mode", ["x32", "x64"])
def test_python_scalars_in_lax_as_jax(mode: str) -> None:
    with trellax.enable_x64(mode == "x64"):
        got = outcomes(lax, tnp, mode == "x64")
    want = GOLDEN[mode]
    assert set(got) == set(want)
    differ = {k for k in want if got[k] != want[k]}
    wrong = [f"{k}: {got[k]} (JAX: {want[k]})" for k in sorted(differ - set(KNOWN[mode]))]
    assert not wrong, f"{len(wrong)} of {len(want)} differ:\n" + "\n".join(wrong[:30])
    assert not set(KNOWN[mode]) - differ, "fixed: remove from KNOWN"
