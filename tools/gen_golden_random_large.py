"""Golden large draws from JAX for every float sampler (``tests/golden/random_large.json``).

For each case of ``tests/random_large_cases.py``: the SHA-256 of the draw's bits and the values
at every ``STRIDE``-th position (hex bit patterns), so that ``tests/test_random_large.py`` can
tell bit-identical samplers from ones that differ in the last bits, and by how many ulps, on
draws of 65,537 and 100,000 elements (chunk boundaries included).

    python tools/gen_golden_random_large.py       # needs jax==0.10.2
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "random_large.json"
sys.path.insert(0, str(OUT.parent.parent))
from random_large_cases import CASES, STRIDE, case_id  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {}
    k = jax.random.key(2024)
    for expr, dtype, size in CASES:
        try:
            v = np.asarray(eval(expr, {"r": jax.random, "k": k, "n": size, "d": jnp.dtype(dtype)}))
        except Exception as e:
            out[case_id(expr, dtype, size)] = {"error": type(e).__name__}
            continue
        raw = v.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[v.dtype.itemsize])
        out[case_id(expr, dtype, size)] = {
            "dtype": str(v.dtype),
            "sha256": hashlib.sha256(raw.tobytes()).hexdigest(),
            "sample": [format(int(x), "x") for x in raw[::STRIDE]],
        }
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} draws)")


if __name__ == "__main__":
    main()
