"""Golden data for ``checkpoint``/``remat`` from JAX: for every case of
``tests/checkpoint_cases.py``, the value, gradients, the counts of ``sin``/``cos``/``dot_general``
equations in the linear and transposed functions (what the backward pass recomputes under each
policy) and the number of saved residuals. Writes ``tests/golden/checkpoint.json``.

    python tools/gen_golden_checkpoint.py   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax
import jax.ad_checkpoint

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "checkpoint.json"
sys.path.insert(0, str(OUT.parent.parent))
import checkpoint_cases as cc  # noqa: E402


def main() -> None:
    data = {"jax_version": jax.__version__, "cases": {}}
    for name, (source, shape) in cc.CASES.items():
        f = cc.build(source, jax)
        x = cc.point(shape)
        data["cases"][name] = cc.measure(f, x, jax, name in cc.LINEARIZE_ONLY)
    OUT.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
