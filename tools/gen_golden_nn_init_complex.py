"""JAX 0.10.2's initializers on complex64 kernels (``tests/test_nn_init_complex.py``): each case of
``tests/nn_init_complex_cases.py`` drawn with ``jax.random.key(3)`` at shape (32, 32), stored as
bits (zlib, base64), or the class of JAX's error. Writes ``tests/golden/nn_init_complex.json``.

    python tools/gen_golden_nn_init_complex.py       # needs jax==0.10.2
"""

from __future__ import annotations

import base64
import json
import pathlib
import sys
import zlib

import jax
import jax.numpy as jnp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from nn_init_complex_cases import CASES, SEED, SHAPE  # noqa: E402

OUT = ROOT / "tests" / "golden" / "nn_init_complex.json"


def main() -> None:
    out = {"jax_version": jax.__version__}
    for case in CASES:
        init = eval(f"jax.nn.initializers.{case}", {"jax": jax})
        try:
            draw = np.asarray(init(jax.random.key(SEED), SHAPE, jnp.complex64))
        except Exception as e:  # the error class, for the test to match
            out[case] = {"error": type(e).__name__}
            continue
        out[case] = {"bits": base64.b64encode(zlib.compress(draw.tobytes(), 9)).decode()}
    OUT.write_text(json.dumps(out, indent=0) + "\n")


if __name__ == "__main__":
    main()
