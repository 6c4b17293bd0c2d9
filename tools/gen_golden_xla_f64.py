"""Golden data for XLA:CPU's float64 elementary functions (``trellax/_src/backend/xla_f64.py``):
``jit`` of ``exp``, ``log``, ``log1p``, ``tan``, ``pow``, ``erf_inv`` and ``rsqrt`` in JAX 0.10.2
with x64 on, on seeded inputs (the SHA-256 of the result bits of each family, and the bits of
the first values) and on hand-picked hard inputs (every bit). ``tests/test_xla_f64.py`` replays
them against trellax's functions.

    python tools/gen_golden_xla_f64.py    # needs jax==0.10.2
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys
from typing import Any

import jax
import numpy as np

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from xla_f64_cases import HARD, families  # noqa: E402

OUT = ROOT / "tests" / "golden" / "xla_f64.json"

FUNCTIONS: dict[str, Any] = {
    "exp": jnp.exp,
    "log": jnp.log,
    "log1p": jnp.log1p,
    "tan": jnp.tan,
    "pow": jnp.power,
    "erf_inv": jax.scipy.special.erfinv,
    "rsqrt": jax.lax.rsqrt,
}


def _hex(a: np.ndarray) -> list[str]:
    return [format(int(v), "x") for v in np.asarray(a, np.float64).view(np.uint64)]


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, Any] = {}
    for name, fn in FUNCTIONS.items():
        entry: dict[str, Any] = {}
        for family, args in families(name).items():
            got = np.asarray(jax.jit(fn)(*args), np.float64)
            entry[family] = {
                "sha256": hashlib.sha256(got.tobytes()).hexdigest(),
                "head": _hex(got[:8]),
                "size": int(got.size),
            }
        if name == "rsqrt":  # the share that agrees with the correctly rounded 1 / sqrt(x)
            (x,) = families(name)["(0.5, 1e4)"]
            got = np.asarray(jax.jit(fn)(x), np.float64)
            entry["agree_with_correctly_rounded"] = int(np.sum(got == 1 / np.sqrt(x)))
        hard = [np.asarray(a, np.float64) for a in HARD[name]]
        entry["hard"] = _hex(np.asarray(jax.jit(fn)(*hard)))
        out[name] = entry
    out["jax"] = jax.__version__
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
