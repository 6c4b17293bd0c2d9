"""JAX's float32/float16/bfloat16 ``lax.erf`` on a dense sweep (``tests/golden/erf_xla.json``).

The inputs are every 4099th float32 bit pattern from the smallest normal to 4.5 (both signs),
special values, and every float16 and bfloat16 value; the file keeps the SHA-256 of JAX's
results and a few exact values, so ``tests/test_erf_xla.py`` can check trellax's polynomial bit
for bit without storing half a million numbers.

    python tools/gen_golden_erf_xla.py       # needs jax==0.10.2
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import jax
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "erf_xla.json"
sys.path.insert(0, str(OUT.parent.parent))
from erf_xla_cases import inputs, probes  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {}
    for name, x in inputs().items():
        y = np.asarray(jax.jit(jax.lax.erf)(x))
        raw = y.view(np.uint16 if y.itemsize == 2 else np.uint32)
        out[name] = {
            "n": int(x.size),
            "sha256": hashlib.sha256(raw.tobytes()).hexdigest(),
            "probes": [format(int(raw[i]), "x") for i in probes(x.size)],
        }
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
