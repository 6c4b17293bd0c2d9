"""Golden half-precision ``mean``/``var`` (``tests/mean_half_cases.py``) from JAX 0.10.2.

python tools/gen_golden_mean_half.py   # with jax==0.10.2; writes tests/golden/mean_half.json
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "mean_half.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from mean_half_cases import outcomes  # noqa: E402


def main() -> None:
    warnings.simplefilter("ignore")
    golden = {"jax": jax.__version__, "cases": outcomes(jax, jnp)}
    OUT.write_text(json.dumps(golden, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
