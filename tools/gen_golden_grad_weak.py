"""Golden weak flags of gradients (``tests/grad_weak_cases.py``) from JAX 0.10.2.

python tools/gen_golden_grad_weak.py   # with jax==0.10.2; writes tests/golden/grad_weak.json
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "grad_weak.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from grad_weak_cases import outcomes  # noqa: E402


def main() -> None:
    warnings.simplefilter("ignore")
    golden = {"jax": jax.__version__, "cases": outcomes(jax, jnp)}
    OUT.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(golden['cases'])} cases)")


if __name__ == "__main__":
    main()
