"""Golden ``map_coordinates`` values at saturating coordinates
(``tests/map_coordinates_edge_cases.py``) from JAX 0.10.2.

    python tools/gen_golden_map_coordinates_edges.py   # writes tests/golden/map_coordinates_edges.json
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "map_coordinates_edges.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.scipy import ndimage  # noqa: E402
from map_coordinates_edge_cases import outcomes  # noqa: E402


def main() -> None:
    golden = {"jax": jax.__version__, "cases": outcomes(jnp, ndimage)}
    OUT.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(golden['cases'])} cases)")


if __name__ == "__main__":
    main()
