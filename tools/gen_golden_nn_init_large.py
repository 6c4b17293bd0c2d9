"""Golden data for ``tests/test_nn_init_large.py`` (``tests/golden/nn_init_large.json``): JAX
0.10.2's initializers on whole 512 x 512 float32 kernels, with trellax's distance to them
measured on every element.

Per case the file keeps the SHA-256 of JAX's draw and, where trellax's draw is not
bit-identical, JAX's values every ``STRIDE`` positions (hex bit patterns) and what this script
measured comparing the two whole draws: the largest distance in float32 ulps (or, for
``orthogonal``, the largest absolute difference), the number of differing elements, and the
SHA-256 of trellax's draw, so that the test can tell whether those figures still describe
trellax; and the host's NumPy version and SIMD level, on which trellax's normal draws depend.

    PYTHONPATH=. python tools/gen_golden_nn_init_large.py   # needs jax==0.10.2; imports trellax
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "nn_init_large.json"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from nn_init_large_cases import ABSOLUTE, CASES, DTYPE, SEED, SHAPE, STRIDE, host_simd  # noqa: E402
from random_sweep_stats import bits_of, digest, distance  # noqa: E402

import trellax  # noqa: E402
import trellax.nn as tnn  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, Any] = {"host": host_simd()}
    for case in CASES:
        init_jax = eval(f"jax.nn.initializers.{case}", {"jax": jax})
        init_trellax = eval(f"tnn.initializers.{case}", {"tnn": tnn})
        want = np.asarray(init_jax(jax.random.key(SEED), SHAPE, jnp.dtype(DTYPE)))
        got = np.asarray(init_trellax(trellax.random.key(SEED), SHAPE, np.dtype(DTYPE)))
        assert got.dtype == want.dtype and got.shape == want.shape, case
        entry: dict[str, Any] = {"sha256": digest(want)}
        if digest(got) != entry["sha256"]:
            entry["samples"] = [format(int(v), "x") for v in bits_of(want)[::STRIDE]]
            ulps = distance(got, want)
            entry["differ"] = int((ulps != 0).sum())
            entry["trellax_sha256"] = digest(got)
            if case in ABSOLUTE:
                gap = np.abs(got.astype(np.float64) - want.astype(np.float64))
                entry["abs_max"] = float(f"{gap.max():.3g}")
            else:
                entry["ulp_max"] = int(ulps.max())
        out[case] = entry
        print(case, {k: v for k, v in entry.items() if k != "samples"}, flush=True)
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(out) - 1} draws, {out['host']})")


if __name__ == "__main__":
    main()
