"""JAX 0.10.2's outcomes of ``tests/error_order_cases.py``: which of two applicable errors a
program reports (a missing derivative rule before an operand's dtype; a convolution's negative
padding before its preferred type) and the values of convolutions whose kernel meets padding or
dilation holes with ``inf``, in 64-bit mode. Writes ``tests/golden/error_order.json`` (``tests/test_error_order.py``).

    python tools/gen_golden_error_order.py       # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

import jax

jax.config.update("jax_enable_x64", True)  # float64 and complex128 convolutions too

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from error_order_cases import outcome, programs  # noqa: E402  (shared with the test)

OUT = ROOT / "tests" / "golden" / "error_order.json"


def main() -> None:
    warnings.simplefilter("ignore")
    records = {name: outcome(prog) for name, prog in programs(jax).items()}
    OUT.write_text(
        json.dumps({"jax": jax.__version__, "outcomes": records}, indent=0, sort_keys=True) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT}: {len(records)} programs")


if __name__ == "__main__":
    main()
