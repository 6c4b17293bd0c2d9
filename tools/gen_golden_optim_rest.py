"""Golden 100-step trajectories of optax's MultiSteps, Adafactor, AdaBelief, RAdam, Yogi,
NovoGrad, Fromage, SM3 and Lookahead (run with JAX and optax installed).

Writes ``tests/golden/optim_rest.json``: for every case of ``tests/optim_rest_cases.py`` on
float32, bfloat16 and float16 parameters, with the plain and the spiky gradient sequence, eager
optax op by op (as ``tools/gen_golden_optim.py``), the digest of the parameters and state after
every step and their bits at the recorded steps. ``tests/test_optim_rest.py`` replays them.

    python tools/gen_golden_optim_rest.py      # needs jax==0.10.2, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings
from typing import Any

import jax
import jax.numpy as jnp
import optax

warnings.simplefilter("ignore")
# optax's MultiSteps runs a lax.cond per step, which eager JAX traces and compiles anew each
# time (about 2 s a step here); the persistent cache skips recompiling the same HLO (the same
# executable, so the same bits) and makes a 100-step run about 5 times faster
jax.config.update("jax_compilation_cache_dir", "/tmp/trellax-golden-jax-cache")
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "optim_rest.json"
sys.path.insert(0, str(OUT.parent.parent))
from optim_cases import DTYPES  # noqa: E402
from optim_rest_cases import CASES, GRADIENTS, replay  # noqa: E402  (shared with the test)


def describe(x: Any) -> list[Any]:
    if isinstance(x, jax.Array):
        return [str(x.dtype), bool(x.weak_type)]
    return [type(x).__name__, None]


def write(cases: Any, out_path: pathlib.Path) -> None:
    """Replays every case of ``cases`` (expressions of tests/optim_*_cases.py) on each dtype and
    gradient sequence and writes the trajectories to ``out_path`` (also for
    ``tools/gen_golden_optim_more.py``)."""
    assert jax.__version__ == "0.10.2" and optax.__version__ == "0.2.8"
    out: dict[str, Any] = {"jax": jax.__version__, "optax": optax.__version__}
    out["transforms"] = {}
    for e in cases:
        for d in DTYPES:
            for g in GRADIENTS:
                case = f"{e}|{d}|{g}"
                out["transforms"][case] = replay(optax, jnp, jax.tree.leaves, describe, case)
                # every eager MultiSteps step compiles its lax.cond anew: without dropping the
                # executables, LLVM runs out of memory mappings after a few thousand of them
                jax.clear_caches()
    out_path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    errors = [k for k, v in out["transforms"].items() if "error" in v]
    print(f"wrote {out_path} ({len(out['transforms'])} trajectories; errors: {errors})")


if __name__ == "__main__":
    write(CASES, OUT)
