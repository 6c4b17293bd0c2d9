"""Loose ends of issue 24 against JAX 0.10.2 (``tests/golden/ends16.json`` from
``tools/gen_golden_ends16.py``).

- ``fft.fftfreq`` forms its signed indices as JAX does, ``(i + n // 2) % n - n // 2`` in the
  working float type (bfloat16 rounds them above 256, float16 above 2048), and ``fft.rfftfreq``
  of a complex ``dtype`` divides by the complex spacing (XLA's complex quotient: the sign of a
  zero frequency follows a negative ``d``).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "ends16.json").read_text())

SPACINGS: dict[str, Any] = {
    "1.0": 1.0,
    "-0.3": -0.3,
    "2": 2,
    "-1": -1,
    "0.0": 0.0,
    "f32:-0.7": np.float32(-0.7),
}


def _record(a: Any) -> dict[str, Any]:
    x = np.asarray(a)
    rec: dict[str, Any] = {"out": str(x.dtype), "shape": list(x.shape)}
    if x.dtype.kind == "c":
        x = np.concatenate([x.real.ravel(), x.imag.ravel()])
    x = np.ascontiguousarray(x).ravel()
    rec["sha256"] = hashlib.sha256(x.tobytes()).hexdigest()
    if x.size <= 16:
        rec["bits"] = [format(int(v), "x") for v in x.view(f"uint{8 * x.dtype.itemsize}")]
    return rec


def _key(case: dict[str, Any]) -> str:
    return f"{case['fn']}-{case['dtype']}-{case['n']}-{case['d']}"


@pytest.mark.parametrize("fn", ["fftfreq", "rfftfreq"])
def test_frequencies_bits_match_jax(fn: str) -> None:
    bad = []
    cases = [c for c in GOLDEN["freqs"] if c["fn"] == fn]
    assert len(cases) == 7 * 12 * 6
    with trellax.enable_x64(True):
        for case in cases:
            got = _record(getattr(tnp.fft, fn)(case["n"], SPACINGS[case["d"]], dtype=case["dtype"]))
            want = {k: case[k] for k in got}
            if got != want:
                bad.append(_key(case))
    assert not bad, f"{len(bad)} of {len(cases)} differ from JAX: {bad[:20]}"


def test_zero_frequency_sign_follows_negative_spacing_for_complex() -> None:
    # JAX divides 0 + 0j by the complex -5 + 0j: both parts of the zero frequency are -0
    z = np.asarray(tnp.fft.rfftfreq(5, -1.0, dtype="complex64"))[0]
    assert np.signbit(z.real) and np.signbit(z.imag)


def test_bfloat16_fftfreq_rounds_its_indices() -> None:
    # n = 300: 149 + 150 is 300 in bfloat16, so JAX's frequency 149 is -0.5, as the 150th is
    f = np.asarray(tnp.fft.fftfreq(300, dtype=tnp.bfloat16)).astype(np.float64)
    assert f[149] == f[150] == -0.5
