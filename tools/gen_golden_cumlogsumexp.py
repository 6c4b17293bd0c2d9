"""Golden values of ``lax.cumlogsumexp`` on random float32 rows (sizes 5 to 4,097, three
scales, forward and reverse) and of the gradient of its sum, recorded from JAX 0.10.2, to
measure how far trellax's doubling scan is from XLA's (sequential within blocks of 16, with
XLA's own float32 ``exp``/``log1p``): ``tests/test_cumlogsumexp.py`` asserts the bound that
``docs/semantics.md`` states.

Writes ``tests/golden/cumlogsumexp.json``: inputs and outputs as float32 bit patterns.

    python tools/gen_golden_cumlogsumexp.py   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "cumlogsumexp.json"
SIZES = (5, 7, 16, 17, 33, 257, 1000, 4097)
SCALES = (0.1, 3.0, 30.0)


def bits(a: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(a, np.float32).view(np.uint32)]


def main() -> None:
    assert jax.__version__ == "0.10.2"
    rng = np.random.default_rng(24)
    cases = []
    for n in SIZES:
        for scale in SCALES:
            x = (rng.normal(size=n) * scale).astype(np.float32)
            for reverse in (False, True):
                value = lax.cumlogsumexp(jnp.asarray(x), reverse=reverse)
                grad = jax.grad(lambda z, r=reverse: jnp.sum(lax.cumlogsumexp(z, reverse=r)))(
                    jnp.asarray(x)
                )
                cases.append(
                    {"reverse": reverse, "x": bits(x), "value": bits(value), "grad": bits(grad)}
                )
    OUT.write_text(json.dumps(cases) + "\n")
    print(f"wrote {OUT} ({len(cases)} rows)")


if __name__ == "__main__":
    main()
