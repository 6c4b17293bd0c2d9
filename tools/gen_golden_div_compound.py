"""JAX 0.10.2's compound divisions under ``jit`` (``a / exp(b)``, ``a / sqrt(b)``,
``(a / b) / c``, ...), bit for bit: ``tests/golden/div_compound.json``.

The forms are ``tests/div_compound_cases.py``'s (written once for jax and trellax); inputs and
outputs are stored as bit patterns (hex), so the test needs no JAX.

    python tools/gen_golden_div_compound.py       # needs jax==0.10.2 and ml_dtypes
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

from div_compound_cases import (  # noqa: E402
    COMPLEX_DTYPES,
    COMPLEX_FORMS,
    REAL_DTYPES,
    REAL_FORMS,
    operands,
)

OUT = ROOT / "tests" / "golden" / "div_compound.json"
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}


def _bits(a: Any) -> dict[str, Any]:
    a = np.asarray(a)
    return {
        "dtype": str(a.dtype),
        "shape": list(a.shape),
        "hex": a.reshape(-1).view(_UINT[a.dtype.itemsize]).tobytes().hex(),
    }


def main() -> None:
    rng = np.random.default_rng(20261128)
    records = []
    stored = {}
    for name in (*REAL_DTYPES, *COMPLEX_DTYPES):
        dtype = np.dtype(getattr(ml_dtypes, name, name))
        ops = operands(rng, dtype)
        stored[name] = {n: _bits(v) for n, v in ops.items()}
        forms = COMPLEX_FORMS if dtype.kind == "c" else REAL_FORMS
        for form, (names, fn) in forms.items():
            got = fn(jax, *(ops[n] for n in names))
            outs = list(got) if isinstance(got, tuple) else [got]
            records.append({"dtype": name, "form": form, "out": [_bits(o) for o in outs]})
    OUT.write_text(
        json.dumps({"jax": jax.__version__, "operands": stored, "records": records}) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT}: {len(records)} records")


if __name__ == "__main__":
    main()
