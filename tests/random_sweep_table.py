"""docs/random.md's exactness table, computed from ``tests/golden/random_sweep.json``."""

from __future__ import annotations

from typing import Any

from random_sweep_cases import CASES, MEASURED_SIZE, case_id

_SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64"}


def _cell(entry: dict[str, Any]) -> str:
    if "error" in entry:
        return f"error ({entry['error']})"
    if "trellax_sha256" not in entry:
        return "exact"
    share = 100 * entry["differ"] / MEASURED_SIZE
    ulp = entry["ulp_max"]
    return f"{ulp if ulp < 2**62 else 'NaN'} ulp, {share:.3g} %"


def exactness_table(golden: dict[str, Any]) -> str:
    """One row per sampler expression, one column per dtype: ``exact`` when the 100,000-element
    draw is bit-identical to JAX's, else the largest distance in ulps (counts for integers) and
    the share of elements that differ."""
    dtypes = ("float16", "bfloat16", "float32", "float64")
    rows: dict[str, dict[str, str]] = {}
    for expr, dtype, size in CASES:
        if size == MEASURED_SIZE:
            # integer samplers (poisson) sit in the float32 column, their dtype named
            label = expr if dtype in dtypes else f"{expr} [{dtype}]"
            column = dtype if dtype in dtypes else "float32"
            rows.setdefault(label, {})[column] = _cell(golden[case_id(expr, dtype, size)])
    lines = ["| sampler | " + " | ".join(_SHORT[d] for d in dtypes) + " |"]
    lines.append("|---" * (len(dtypes) + 1) + "|")
    for expr, cells in rows.items():
        call = expr.replace("r.", "", 1).replace("k, ", "").replace(", (n,), d", "")
        call = call.replace("(n,), d, ", "").replace("((n,), d)", "()")
        lines.append(f"| `{call}` | " + " | ".join(cells.get(d, "") for d in dtypes) + " |")
    return "\n".join(lines) + "\n"
