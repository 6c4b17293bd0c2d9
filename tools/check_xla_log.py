"""Exhaustive check of backend/xla_log.py against XLA:CPU (run with the JAX reference venv).

    /tmp/jaxref/bin/python tools/check_xla_log.py [--funcs log,log1p] [--chunk-bits 22]

Walks all 2**32 float32 bit patterns in chunks, computes ``jit(jnp.log)``/``jit(jnp.log1p)``
and trellax's emulation, and counts the inputs whose result bits differ (NaN bits included),
split into finite inputs and the rest. Prints one JSON line per function.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pathlib
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


#: function name -> (the jax.numpy function, the emulation's function) of ``backend/xla_log.py``
FUNCS = {"log": ("log", "log1p_f32"[:0] + "log_f32"), "log1p": ("log1p", "log1p_f32")}


def _load_emulation(module: str):  # type: ignore[no-untyped-def]
    """The module by path, so that this script needs NumPy and JAX only (not trellax's deps)."""
    path = ROOT / "trellax" / "_src" / "backend" / f"{module}.py"
    spec = importlib.util.spec_from_file_location(module, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(module: str = "xla_log", funcs: dict[str, tuple[str, str]] = FUNCS) -> None:
    """Compares ``backend/<module>.py``'s ``funcs`` with ``jit`` of JAX's (also for
    ``tools/check_xla_exp.py``)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--funcs", default=",".join(funcs))
    ap.add_argument("--chunk-bits", type=int, default=22)
    ap.add_argument("--limit", type=int, default=1 << 32, help="stop after this many inputs")
    args = ap.parse_args()
    import jax
    import jax.numpy as jnp

    emu = _load_emulation(module)
    chunk = 1 << args.chunk_bits
    for name in args.funcs.split(","):
        ref_fn = jax.jit(getattr(jnp, funcs[name][0]))
        ours = getattr(emu, funcs[name][1])
        bad_finite = bad_other = 0
        examples: list[list[str]] = []
        t0 = time.time()
        for start in range(0, min(args.limit, 1 << 32), chunk):
            bits = np.arange(start, start + chunk, dtype=np.uint64).astype(np.uint32)
            x = bits.view(np.float32)
            ref = np.asarray(ref_fn(x)).view(np.uint32)
            got = ours(x).view(np.uint32)
            diff = ref != got
            if diff.any():
                fin = np.isfinite(x)
                bad_finite += int((diff & fin).sum())
                bad_other += int((diff & ~fin).sum())
                for i in np.flatnonzero(diff)[: 5 - len(examples)]:
                    examples.append([hex(int(bits[i])), hex(int(ref[i])), hex(int(got[i]))])
        print(
            json.dumps(
                {
                    "func": name,
                    "inputs": min(args.limit, 1 << 32),
                    "differ_finite": bad_finite,
                    "differ_nonfinite": bad_other,
                    "examples": examples,
                    "seconds": round(time.time() - t0),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
