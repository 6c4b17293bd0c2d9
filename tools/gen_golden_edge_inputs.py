"""Golden results of every ``jax.numpy`` function on edge-case arrays (``tests/edge_input_cases.py``).

Writes ``tests/golden/edge_inputs.json``: ``"name(input)" -> "shape dtype weak=..."`` or
``"ERR <class>"``.

    python tools/gen_golden_edge_inputs.py       # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax
import jax.numpy as jnp

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "edge_inputs.json"
sys.path.insert(0, str(OUT.parent.parent))
from edge_input_cases import INPUTS, describe, names  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {f"{n}({tag})": describe(jnp, n, tag) for n in names(jnp) for tag in INPUTS}
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} calls)")


if __name__ == "__main__":
    main()
