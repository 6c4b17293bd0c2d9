"""The samplers' tails against JAX 0.10.2's bits (``tests/random_tail_cases.py``,
``tests/golden/random_tails.json`` from ``tools/gen_golden_random_tails.py``): poisson at tiny,
huge and invalid rates in every integer dtype, the gamma family at shapes down to subnormal and
0 and huge, truncated normals at +-30, wald at extreme means, float64 normals.

As in ``test_random_sweep.py``: an exact draw must keep JAX's hash; another keeps the hash of
trellax's draw that the recorded distance was measured on (re-run the generator after changing a
sampler), and JAX's first values lie within that distance. ``test_docs_table_is_measured``
checks docs/random.md's table of these draws."""

from __future__ import annotations

import json
import pathlib
import warnings
from typing import Any

import numpy as np
import pytest
from host_simd import host_simd
from random_sweep_stats import check_kernel_independent, digest, distance, from_hex
from random_tail_cases import CASES, case_id

import trellax
import trellax.random as tr

GOLDEN: dict[str, Any] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "random_tails.json").read_text()
)
#: The host the golden file's trellax figures were measured on ("NumPy 2.4.6, AVX-512").
SAME_HOST = GOLDEN.get("host") == host_simd()
DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "random.md"
_SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64"}


def _draw(expr: str, dtype: str, size: int) -> np.ndarray:
    x64 = dtype in ("float64", "int64", "uint64")
    env = {"r": tr, "k": tr.key(7), "n": size, "d": np.dtype(dtype), "np": np}
    with trellax.enable_x64(x64), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(eval(expr, env | {"inf": np.inf, "nan": np.nan}))


@pytest.mark.parametrize(("expr", "dtype", "size"), CASES, ids=[case_id(*c) for c in CASES])
def test_tail_draw_matches_jax(expr: str, dtype: str, size: int) -> None:
    want = GOLDEN[case_id(expr, dtype, size)]
    if "error" in want:
        with pytest.raises(Exception) as info:
            _draw(expr, dtype, size)
        assert type(info.value).__name__ == want["error"]
        return
    assert "trellax" not in want, f"trellax gave {want.get('trellax')} when measured"
    got = _draw(expr, dtype, size)
    assert str(got.dtype) == want["dtype"]
    assert list(got.shape) == want["shape"]
    if not SAME_HOST:
        check_kernel_independent(got, want)  # trellax's last bits are the host's kernels'
        return
    if "trellax_sha256" not in want:
        assert digest(got) == want["sha256"], f"{expr} {dtype} n={size}: no longer JAX's bits"
        return
    assert digest(got) != want["sha256"], f"{expr} {dtype} n={size}: now exact, re-measure"
    assert digest(got) == want["trellax_sha256"], (
        f"{expr} {dtype} n={size}: trellax's draw changed since it was measured "
        "(re-run tools/gen_golden_random_tails.py and update docs/random.md)"
    )
    head = from_hex(want["head"], got.dtype)
    assert distance(got.reshape(-1)[: head.size], head).max() <= want["ulp_max"]


def tails_table(golden: dict[str, Any]) -> str:
    """docs/random.md's table of the tails: one row per expression (and integer dtype), the
    float dtypes as columns; each cell the worst case over the sizes 1, 7, 1,000 and 65,537:
    ``exact``, or the largest distance (ulps; counts for integers) and the share of elements
    that differ in the largest draw that differs."""
    cols = ("float16", "bfloat16", "float32", "float64")
    rows: dict[str, dict[str, str]] = {}
    worst: dict[tuple[str, str], tuple[int, float]] = {}
    for expr, dtype, size in CASES:
        e = golden[case_id(expr, dtype, size)]
        label = expr if dtype in cols else f"{expr} [{dtype}]"
        col = dtype if dtype in cols else "float32"
        rows.setdefault(label, {})
        if "error" in e:
            rows[label][col] = f"error ({e['error']})"
            continue
        ulp, share = worst.get((label, col), (0, 0.0))
        if "trellax_sha256" in e:
            ulp = max(ulp, e["ulp_max"])
            share = max(share, 100 * e["differ"] / e["size"]) if size >= 1000 else share
        worst[(label, col)] = (ulp, share)
        if ulp == 0:
            rows[label][col] = "exact"
        else:
            shown = "NaN" if ulp >= 2**62 else str(ulp)
            rows[label][col] = f"{shown} ulp, {share:.3g} %" if share else f"{shown} ulp"
    lines = ["| tail draw | " + " | ".join(_SHORT[c] for c in cols) + " |"]
    lines.append("|---" * (len(cols) + 1) + "|")
    for label, cells in rows.items():
        call = label.replace("r.", "", 1).replace("k, ", "").replace(", (n,), d", "")
        call = call.replace(", (n // 3 + 1,), d", "").replace("np.array", "")
        lines.append(f"| `{call}` | " + " | ".join(cells.get(c, "") for c in cols) + " |")
    return "\n".join(lines) + "\n"


def test_docs_table_is_measured() -> None:
    """docs/random.md's table of the tails is generated from the golden file."""
    assert tails_table(GOLDEN) in DOCS.read_text(encoding="utf-8")
