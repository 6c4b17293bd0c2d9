"""Golden outcomes of ``jax.numpy`` functions given Python scalars (``tests/jnp_scalar_cases.py``),
from JAX 0.10.2, with x64 off and on.

    python tools/gen_golden_jnp_scalars.py   # with jax==0.10.2; writes tests/golden/jnp_scalars.json
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "jnp_scalars.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jnp_scalar_cases import outcomes  # noqa: E402


def main() -> None:
    golden: dict[str, object] = {"jax": jax.__version__}
    for mode, x64 in (("x32", False), ("x64", True)):
        jax.config.update("jax_enable_x64", x64)
        golden[mode] = outcomes(jnp, x64)
    OUT.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
