"""JAX 0.10.2's divisions by constant and broadcast divisors, bit for bit, eagerly and under
``jit``, ``vmap``, ``scan`` and ``grad``: ``tests/golden/div_rules.json``.

The forms are ``tests/div_rules_cases.py``'s (written once for jax and trellax); the operands
are 2,000-element float16, bfloat16, float32 and float64 arrays with zeros, infinities, NaN,
subnormals and huge values among them, and each special value once more as a 0-d divisor.
Inputs and outputs are stored as bit patterns (hex), so the test needs no JAX.

    python tools/gen_golden_div_rules.py       # needs jax==0.10.2 and ml_dtypes
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from div_rules_cases import DTYPES, EDGE_FORMS, EDGE_X, FORMS, operands, specials  # noqa: E402

OUT = ROOT / "tests" / "golden" / "div_rules.json"
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _bits(a: Any) -> dict[str, Any]:
    a = np.asarray(a)
    return {
        "dtype": str(a.dtype),
        "shape": list(a.shape),
        "hex": a.reshape(-1).view(_UINT[a.dtype.itemsize]).tobytes().hex(),
    }


def _record(dtype: str, form: str, ops: dict[str, np.ndarray], edge: bool) -> dict[str, Any]:
    names, fn = FORMS[form]
    got = fn(jax, *(ops[n] for n in names))
    outs = list(got) if isinstance(got, tuple) else [got]
    rec: dict[str, Any] = {"dtype": dtype, "form": form, "out": [_bits(o) for o in outs]}
    if edge:
        rec["s"] = _bits(ops["s"])
    return rec


def main() -> None:
    rng = np.random.default_rng(20261128)
    records = []
    stored = {}
    for name in DTYPES:
        dtype = np.dtype(getattr(ml_dtypes, name, name))
        ops = operands(rng, dtype)
        stored[name] = {n: _bits(v) for n, v in ops.items()}
        for form in FORMS:
            records.append(_record(name, form, ops, False))
        for s in specials(dtype):
            edge = dict(ops, x=ops["x"][:EDGE_X], s=np.asarray(s, dtype))
            for form in EDGE_FORMS:
                records.append(_record(name, form, edge, True))
    OUT.write_text(
        json.dumps({"jax": jax.__version__, "operands": stored, "records": records}) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT}: {len(records)} records")


if __name__ == "__main__":
    main()
