"""Golden data for ``jax.nn.initializers`` edge shapes from real JAX: ``variance_scaling`` with
explicit empty ``in_axis``/``out_axis`` (0-d and 1-d weights) and ``orthogonal`` of a shape with
a zero. Run with JAX 0.10.2 installed (``/tmp/jaxref/bin/python
tools/gen_golden_nn_init_edges.py``); writes ``tests/golden/nn_init_edges.json``, read by
``tests/test_nn_functions_jax.py``."""

from __future__ import annotations

import json
from pathlib import Path

import jax
import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    init = jax.nn.initializers
    key = jax.random.key(0)
    cases = {
        "0d": init.variance_scaling(1.0, "fan_in", "normal", in_axis=[], out_axis=[])(key, ()),
        "1d": init.variance_scaling(1.0, "fan_in", "normal", in_axis=[0], out_axis=[])(key, (3,)),
        "1d_out": init.variance_scaling(2.0, "fan_out", "uniform", in_axis=[], out_axis=[0])(
            key, (4,)
        ),
        "orthogonal_zero": init.orthogonal()(key, (0, 3)),
    }
    out = {
        name: {"shape": list(np.shape(v)), "values": np.asarray(v, np.float64).ravel().tolist()}
        for name, v in cases.items()
    }
    path = ROOT / "tests" / "golden" / "nn_init_edges.json"
    path.write_text(json.dumps({"jax": jax.__version__, "cases": out}) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
