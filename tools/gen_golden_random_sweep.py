"""Golden data of the sampler sweep (``tests/golden/random_sweep.json``), from JAX 0.10.2, with
trellax's distance to it measured on the whole draw.

For each case of ``tests/random_sweep_cases.py`` the file keeps JAX's draw compactly: its dtype,
the SHA-256 of its bits (16 hex digits), its first three values and, for the 100,000-element
draws, its values every ``STRIDE`` positions (bit patterns in hex). Where trellax's draw is not
bit-identical, the file also keeps what this script measured by comparing the two whole draws:
the largest distance in ulps (in units of the last place of the sample dtype; for integer
samples, in counts), the number of differing elements, and the SHA-256 of trellax's draw, so
that ``tests/test_random_sweep.py`` can tell whether those figures still describe trellax.

    python tools/gen_golden_random_sweep.py    # needs jax==0.10.2; imports trellax from here
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import sys
import warnings
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "random_sweep.json"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from host_simd import host_simd  # noqa: E402
from random_sweep_cases import CASES, MEASURED_SIZE, STRIDE, case_id  # noqa: E402
from random_sweep_stats import bits_of, digest, distance  # noqa: E402

import trellax  # noqa: E402
import trellax.random as tr  # noqa: E402


def draw(module: Any, key: Any, expr: str, dtype: str, size: int) -> np.ndarray | str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eval(expr, {"r": module, "k": key, "n": size, "d": np.dtype(dtype)})
            return np.asarray(out)
    except Exception as e:  # the error class is part of the golden data
        return type(e).__name__


def jax_draw(expr: str, dtype: str, size: int) -> np.ndarray | str:
    """JAX's draw, kept in ``$RANDOM_SWEEP_CACHE`` (a directory) if set, so that re-measuring
    trellax after a change does not redraw from JAX."""
    cache = os.environ.get("RANDOM_SWEEP_CACHE")
    path = None
    if cache:
        name = hashlib.sha256(case_id(expr, dtype, size).encode()).hexdigest()[:20]
        path = pathlib.Path(cache) / f"{name}.npz"
        if path.exists():
            z = np.load(path, allow_pickle=False)
            kind = str(z["kind"])
            return kind if kind != "array" else z["bits"].view(jnp.dtype(str(z["dtype"])))
    jax.config.update("jax_enable_x64", dtype == "float64")
    want = draw(jax.random, jax.random.key(7), expr, jnp.dtype(dtype).name, size)
    jax.config.update("jax_enable_x64", False)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(want, str):
            np.savez(path, kind=want)
        else:
            np.savez(
                path, kind="array", dtype=str(want.dtype), bits=bits_of(want).reshape(want.shape)
            )
    return want


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, Any] = {}
    for i, (expr, dtype, size) in enumerate(CASES):
        if i % 50 == 0:
            print(f"{i}/{len(CASES)} {expr} {dtype} {size}", flush=True)
        x64 = dtype == "float64"
        want = jax_draw(expr, dtype, size)
        with trellax.enable_x64(x64):
            got = draw(tr, tr.key(7), expr, dtype, size)
        cid = case_id(expr, dtype, size)
        if isinstance(want, str):
            out[cid] = {"error": want}
            continue
        raw = bits_of(want)
        entry: dict[str, Any] = {
            "dtype": str(want.dtype),
            "sha256": digest(want),
            "head": [format(int(v), "x") for v in raw[:3]],
        }
        if size == MEASURED_SIZE:
            entry["samples"] = [format(int(v), "x") for v in raw[::STRIDE]]
        if isinstance(got, str) or got.dtype != want.dtype or got.shape != want.shape:
            entry["trellax"] = "error" if isinstance(got, str) else f"{got.dtype}{got.shape}"
        elif digest(got) != entry["sha256"]:
            ulps = distance(got, want)
            entry["ulp_max"] = int(ulps.max())
            entry["differ"] = int((ulps != 0).sum())
            entry["trellax_sha256"] = digest(got)
        out[cid] = entry
    out["host"] = host_simd()  # trellax's last bits depend on NumPy's SIMD kernels
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(out)} draws)")


if __name__ == "__main__":
    main()
