"""The public JAX functions whose derivative is a custom rule (a ``custom_jvp``/``custom_vjp``
call in their trace), for the coverage test of ``tests/test_derivs.py``: each needs a case
with first to third derivatives in ``tests/deriv_cases.PUBLIC_FUNCTIONS``. Writes
``tests/golden/custom_public.json``.

    python tools/gen_golden_custom_public.py   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax
import jax.nn
import jax.numpy.linalg
import jax.scipy.special
import jax.scipy.stats.norm

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "custom_public.json"
sys.path.insert(0, str(OUT.parent.parent))
import deriv_cases as dc  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    names = dc.custom_rule_functions(jax)
    OUT.write_text(json.dumps({"jax": jax.__version__, "functions": names}, indent=0) + "\n")
    print(f"wrote {OUT} ({len(names)} functions)")


if __name__ == "__main__":
    main()
