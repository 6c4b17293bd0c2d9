"""Golden data for ``lax.rng_bit_generator`` (XLA's Philox on JAX's CPU) from real JAX.

Run from the repository root with JAX 0.10.2 installed (``/tmp/jaxref/bin/python
tools/gen_golden_rng_bit_generator.py``). Writes ``tests/golden/rng_bit_generator.json``, which
``tests/test_rng_bit_generator.py`` reads (the test suite never imports JAX): for each case the
state and bits JAX returns, as decimal strings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

#: (state words, state dtype, shape, dtype name, x64)
CASES: list[tuple[list[int], str, list[int], str, bool]] = [
    ([1, 2, 3, 4], "uint32", [2, 3], "uint32", False),
    ([1, 2, 3, 4], "uint32", [5], "uint8", False),
    ([1, 2, 3, 4], "uint32", [9], "uint16", False),
    ([1, 2, 3, 4], "uint32", [0], "uint32", False),
    ([3, 1, 4, 2], "uint32", [0], "uint32", False),
    ([1, 2, 0xFFFFFFFF, 7], "uint32", [5], "uint32", False),
    ([1, 2, 0xFFFFFFFF, 0xFFFFFFFF], "uint32", [6], "uint32", False),
    ([0, 0, 0, 0], "uint32", [4, 4], "uint32", False),
    ([0xDEADBEEF, 12345, 678, 9], "uint32", [3, 2, 2], "uint32", False),
    ([1, 2, 3, 4], "uint32", [3], "uint64", True),
    ([1, 2], "uint64", [3], "uint32", True),
    ([2**63 + 5, 2**64 - 1], "uint64", [7], "uint32", True),
]


def main() -> None:
    import jax

    out: list[dict[str, Any]] = []
    for words, key_dtype, shape, dtype, x64 in CASES:
        jax.config.update("jax_enable_x64", x64)
        key = np.array(words, dtype=key_dtype)
        new, bits = jax.lax.rng_bit_generator(key, tuple(shape), dtype=np.dtype(dtype))
        out.append(
            {
                "state": [str(w) for w in words],
                "state_dtype": key_dtype,
                "shape": shape,
                "dtype": dtype,
                "x64": x64,
                "new_state": [str(int(w)) for w in np.asarray(new).ravel()],
                "bits": [str(int(b)) for b in np.asarray(bits).ravel()],
            }
        )
    jax.config.update("jax_enable_x64", False)
    data = {"jax_version": jax.__version__, "cases": out}
    path = ROOT / "tests" / "golden" / "rng_bit_generator.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {path} ({len(out)} cases)")


if __name__ == "__main__":
    main()
