"""Golden data for scatters with unique indices from JAX: for every case and point of
``tests/scatter_unique_cases.py``, the value and derivatives (JVP, gradient eagerly / ``jit`` /
``vmap``, forward-over-reverse and reverse-over-reverse second derivatives), the
``unique_indices``/``indices_are_sorted`` flags of ``.at[...].multiply`` for each index
expression (plain and under ``vmap``), and the errors of the programs JAX refuses. Writes
``tests/golden/scatter_unique.json``.

    python tools/gen_golden_scatter_unique.py   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "scatter_unique.json"
sys.path.insert(0, str(OUT.parent.parent))
import scatter_unique_cases as sc  # noqa: E402


def main() -> None:
    data: dict[str, object] = {"jax_version": jax.__version__}
    cases: dict[str, list[object]] = {}
    for name, source in sc.CASES.items():
        f = sc.build(source, jax)
        rows: list[object] = []
        for x, y in sc.POINTS:
            try:
                rows.append(sc.measure(f, x, y, jax))
            except Exception as e:  # recorded: the test expects the same
                rows.append({"error": [type(e).__name__, str(e).split("\n")[0]]})
        cases[name] = rows
    data["cases"] = cases
    data["flags"] = {idx: sc.flags_of(idx, jax) for idx in sc.FLAGS}
    data["flags_vmap"] = {idx: sc.flags_of(idx, jax, vmapped=True) for idx in sc.FLAGS}
    data["errors"] = {name: sc.error_of(src, jax) for name, src in sc.ERRORS.items()}
    OUT.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
