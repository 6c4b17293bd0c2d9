"""Golden outcomes of ``lax.reduce`` / ``lax.reduce_window`` over init values of every kind
(``tests/reduce_init_cases.py``), from JAX 0.10.2, with x64 off and on.

    python tools/gen_golden_reduce_init.py   # with jax==0.10.2; writes tests/golden/reduce_init.json
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "reduce_init.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from reduce_init_cases import outcomes  # noqa: E402


def main() -> None:
    warnings.simplefilter("ignore")
    golden = {"jax": jax.__version__}
    for mode, x64 in (("x32", False), ("x64", True)):
        jax.config.update("jax_enable_x64", x64)
        golden[mode] = outcomes(jax, lax, jnp, x64)  # type: ignore[assignment]
    OUT.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({sum(len(v) for v in golden.values() if isinstance(v, dict))} cases)")


if __name__ == "__main__":
    main()
