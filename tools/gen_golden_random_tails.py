"""Golden data of the samplers' tails (``tests/golden/random_tails.json``), from JAX 0.10.2, with
trellax's distance to it measured on the whole draw (the format of ``random_sweep.json``:
``tools/gen_golden_random_sweep.py``).

For each case of ``tests/random_tail_cases.py``: JAX's dtype, the SHA-256 of its bits, its first
three values and, where trellax's draw is not bit-identical, the largest distance (ulps of the
sample dtype, counts for integers), the number of differing elements and trellax's hash.

    python tools/gen_golden_random_tails.py    # needs jax==0.10.2; imports trellax from here
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "random_tails.json"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from host_simd import host_simd  # noqa: E402
from random_sweep_stats import bits_of, digest, distance  # noqa: E402
from random_tail_cases import CASES, case_id  # noqa: E402

import trellax  # noqa: E402
import trellax.random as tr  # noqa: E402


def draw(module: Any, key: Any, expr: str, dtype: Any, size: int) -> np.ndarray | str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = {"r": module, "k": key, "n": size, "d": dtype, "np": np, "inf": np.inf}
            return np.asarray(eval(expr, env | {"nan": np.nan}))
    except Exception as e:  # the error class is part of the golden data
        return type(e).__name__


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, Any] = {}
    for i, (expr, dtype, size) in enumerate(CASES):
        if i % 100 == 0:
            print(f"{i}/{len(CASES)} {expr} {dtype} {size}", flush=True)
        x64 = dtype in ("float64", "int64", "uint64")
        jax.config.update("jax_enable_x64", x64)
        want = draw(jax.random, jax.random.key(7), expr, jnp.dtype(dtype), size)
        jax.config.update("jax_enable_x64", False)
        with trellax.enable_x64(x64):
            got = draw(tr, tr.key(7), expr, np.dtype(jnp.dtype(dtype)), size)
        cid = case_id(expr, dtype, size)
        if isinstance(want, str):
            out[cid] = {"error": want}
            continue
        entry: dict[str, Any] = {
            "dtype": str(want.dtype),
            "shape": list(want.shape),
            "sha256": digest(want),
            "head": [format(int(v), "x") for v in bits_of(want)[:3]],
        }
        if isinstance(got, str) or got.dtype != want.dtype or got.shape != want.shape:
            entry["trellax"] = got if isinstance(got, str) else f"{got.dtype}{got.shape}"
        elif digest(got) != entry["sha256"]:
            ulps = distance(got, want)
            entry["ulp_max"] = int(ulps.max())
            entry["differ"] = int((ulps != 0).sum())
            entry["size"] = int(ulps.size)
            entry["trellax_sha256"] = digest(got)
        out[cid] = entry
    out["host"] = host_simd()  # trellax's last bits depend on NumPy's SIMD kernels
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(out)} draws)")


if __name__ == "__main__":
    main()
