"""JAX's float32 results of its elementwise transcendental functions on
``tests/transcendental_cases.py``'s inputs (``tests/golden/transcendental.json``: per function,
the float32 results' bits, base64 of little-endian uint32).

    python tools/gen_golden_transcendental.py       # needs jax==0.10.2
"""

from __future__ import annotations

import base64
import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "transcendental.json"
sys.path.insert(0, str(OUT.parent.parent))
import transcendental_cases as cases  # noqa: E402


def function(name: str):  # type: ignore[no-untyped-def]
    return jax.nn.sigmoid if name == "sigmoid" else getattr(jnp, name)


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {}
    for name in cases.DOMAINS:
        x = cases.inputs(name)
        y = np.asarray(jax.jit(function(name))(x)).astype(np.float32)  # one XLA program
        out[name] = base64.b64encode(y.view("<u4").tobytes()).decode()
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
