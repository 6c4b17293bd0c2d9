"""Every float sampler x dtype x size x parameter extreme against JAX 0.10.2's bits.

``tests/golden/random_sweep.json`` (``tools/gen_golden_random_sweep.py``) holds JAX's draws
compactly: the SHA-256 of each draw, its first values and, for the 100,000-element draws, a value
every 4,999 positions. A draw whose hash equals JAX's is bit-identical; for the others the
generator compared trellax's and JAX's whole draws and recorded the largest distance in ulps, the
number of differing elements and trellax's own hash. This test recomputes every draw and checks

* the dtype, and that the first values equal JAX's wherever the generator found the draw exact;
* exact draws: the hash equals JAX's (a sampler that matches can never silently drift);
* other draws: trellax's hash equals the one the figures were measured on (so the figures in
  ``docs/random.md`` still describe trellax; re-run the generator after changing a sampler), and
  the recorded JAX values lie within the recorded distance.

``test_docs_table_is_measured`` checks that docs/random.md's exactness table is this file's.
"""

from __future__ import annotations

import json
import pathlib
import warnings
from typing import Any

import numpy as np
import pytest
from host_simd import host_simd
from random_sweep_cases import CASES, MEASURED_SIZE, STRIDE, case_id
from random_sweep_stats import check_kernel_independent, digest, distance, from_hex
from random_sweep_table import exactness_table

import trellax
import trellax.random as tr

GOLDEN: dict[str, Any] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "random_sweep.json").read_text()
)
#: The host the golden file's trellax figures were measured on ("NumPy 2.4.6, AVX-512").
SAME_HOST = GOLDEN.get("host") == host_simd()
DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "random.md"


def _draw(expr: str, dtype: str, size: int) -> np.ndarray:
    with trellax.enable_x64(dtype == "float64"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(eval(expr, {"r": tr, "k": tr.key(7), "n": size, "d": np.dtype(dtype)}))


@pytest.mark.parametrize(("expr", "dtype", "size"), CASES, ids=[case_id(*c) for c in CASES])
def test_draw_matches_jax(expr: str, dtype: str, size: int) -> None:
    want = GOLDEN[case_id(expr, dtype, size)]
    if "error" in want:
        with pytest.raises(Exception) as info:
            _draw(expr, dtype, size)
        assert type(info.value).__name__ == want["error"]
        return
    assert "trellax" not in want, f"trellax gave {want.get('trellax')} when measured"
    got = _draw(expr, dtype, size)
    assert str(got.dtype) == want["dtype"]
    assert got.shape == (size,)
    flat = got.reshape(-1)
    if not SAME_HOST:
        check_kernel_independent(got, want)  # trellax's last bits are the host's kernels'
        return
    if "trellax_sha256" not in want:
        assert digest(got) == want["sha256"], f"{expr} {dtype} n={size}: no longer JAX's bits"
        return
    assert digest(got) != want["sha256"], f"{expr} {dtype} n={size}: now exact, re-measure"
    assert digest(got) == want["trellax_sha256"], (
        f"{expr} {dtype} n={size}: trellax's draw changed since it was measured "
        "(re-run tools/gen_golden_random_sweep.py and update docs/random.md)"
    )
    head = from_hex(want["head"], got.dtype)
    assert distance(flat[: head.size], head).max() <= want["ulp_max"]
    if size == MEASURED_SIZE:
        samples = from_hex(want["samples"], got.dtype)
        assert distance(flat[::STRIDE], samples).max() <= want["ulp_max"]


def test_docs_table_is_measured() -> None:
    """docs/random.md's table of measured differences is generated from the golden file."""
    assert exactness_table(GOLDEN) in DOCS.read_text(encoding="utf-8")


@pytest.mark.parametrize(("lower", "upper"), [(5.0, 6.0), (-6.0, -5.0), (8.0, 9.0)])
def test_float64_far_tail_is_finite(lower: float, upper: float) -> None:
    """float64 erfinv started Newton's method from the float32 polynomial, which is infinite
    where ``u`` rounds to 1 in float32: 4.9 % of ``truncated_normal(5, 6)`` was NaN."""
    with trellax.enable_x64(True):
        x = np.asarray(tr.truncated_normal(tr.key(7), lower, upper, (100000,), "float64"))
    assert np.all((x > lower) & (x < upper))
