"""JAX 0.10.2's complex products on CPU: ``a * b`` of complex64 and complex128 operands (a grid
of signed zeros, infinities, NaN, a subnormal, an extreme and ordinary parts: every pair of the
100 values; and 2,000 random pairs of magnitudes e**-5 to e**5), eagerly. The test rebuilds the
grid (``tests/complex_mul_cases.py``); random operands and all products are stored as bits
(zlib, base64). Writes ``tests/golden/complex_mul.json`` (``tests/test_complex_mul.py``).

    python tools/gen_golden_complex_mul.py       # needs jax==0.10.2
"""

from __future__ import annotations

import base64
import json
import pathlib
import sys
import zlib
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from complex_mul_cases import PARTS, grid  # noqa: E402

OUT = ROOT / "tests" / "golden" / "complex_mul.json"


def _bits(a: Any) -> str:
    return base64.b64encode(zlib.compress(np.asarray(a).tobytes(), 9)).decode()


def main() -> None:
    rng = np.random.default_rng(20261129)
    out: dict[str, Any] = {"jax_version": jax.__version__}
    for name in PARTS:
        dt = np.dtype(name)
        r = rng.standard_normal((4, 2000)) * np.exp(rng.uniform(-5, 5, (4, 2000)))
        ra, rb = (r[0] + 1j * r[1]).astype(dt), (r[2] + 1j * r[3]).astype(dt)
        ga, gb = grid(name)
        a, b = np.concatenate([ga, ra]), np.concatenate([gb, rb])
        prod = np.asarray(jnp.asarray(a) * jnp.asarray(b))
        out[name] = {"a": _bits(ra), "b": _bits(rb), "product": _bits(prod)}
    OUT.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
