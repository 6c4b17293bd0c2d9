"""Initializers on complex64 kernels against JAX 0.10.2 (``tests/golden/nn_init_complex.json``,
from ``tools/gen_golden_nn_init_complex.py``; same key, 32 x 32 kernels).

The complex normal and uniform-family draws are JAX's bits. The truncated-normal family (the
default of ``lecun_normal``, ``glorot_normal``, ``he_normal``) builds a complex value from a
radius and an angle with complex ``log``, ``sqrt`` and ``exp`` (``cos``/``sin`` of the angle),
which are NumPy's in trellax and XLA's in JAX: 117 of the 1,024 elements differ, by at most 3
float32 ulps in either part. ``orthogonal`` is LAPACK's QR against XLA's (absolute difference).
Both figures are in docs/nn.md; a change either way fails here.
"""

from __future__ import annotations

import base64
import json
import pathlib
import zlib

import numpy as np
import pytest
from nn_init_complex_cases import CASES, SEED, SHAPE

import trellax
import trellax.nn as tnn

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "nn_init_complex.json").read_text())

#: case -> ("exact",) | ("ulps", elements that differ, largest ulp distance) | ("abs", bound)
EXPECT: dict[str, tuple[object, ...]] = {
    "normal(0.5)": ("exact",),
    "lecun_normal()": ("ulps", 117, 3),
    "glorot_normal()": ("ulps", 117, 3),
    "he_uniform()": ("exact",),
    "variance_scaling(2.0, 'fan_avg', 'normal')": ("exact",),
    "variance_scaling(1.0, 'fan_out', 'truncated_normal')": ("ulps", 117, 3),
    "variance_scaling(1.0, 'fan_in', 'uniform')": ("exact",),
    "orthogonal()": ("abs", 3e-7),
}


def test_every_case_has_an_expectation() -> None:
    errors = {c for c in CASES if "error" in GOLDEN[c]}
    assert set(EXPECT) | errors == set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_complex64_draw(case: str) -> None:
    init = eval(f"tnn.initializers.{case}", {"tnn": tnn})
    rec = GOLDEN[case]
    if "error" in rec:
        with pytest.raises(Exception) as info:
            init(trellax.random.key(SEED), SHAPE, np.complex64)
        assert type(info.value).__name__ == rec["error"]
        return
    want = np.frombuffer(zlib.decompress(base64.b64decode(rec["bits"])), np.complex64)
    got = np.asarray(init(trellax.random.key(SEED), SHAPE, np.complex64))
    assert got.dtype == np.complex64 and got.shape == SHAPE
    got = got.ravel()
    kind = EXPECT[case]
    if kind[0] == "exact":
        assert got.tobytes() == want.tobytes()
    elif kind[0] == "ulps":
        ours = np.stack([got.real, got.imag]).view(np.int32).astype(np.int64)
        theirs = np.stack([want.real, want.imag]).view(np.int32)
        gap = np.abs(ours - theirs)
        assert int((gap != 0).any(0).sum()) == kind[1]
        assert int(gap.max()) == kind[2]
    else:
        assert float(np.abs(got - want).max()) <= float(kind[1])  # type: ignore[arg-type]
