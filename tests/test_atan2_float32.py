"""float32 ``arctan2`` is the C library's ``atan2f``, as XLA:CPU calls it: JAX 0.10.2's bits
(golden ``atan2_float32`` of ``tests/golden/xla16_values.json``, ``tools/gen_golden_xla16.py``),
eagerly, fused and under ``jit``. Before, trellax rounded float64's ``arctan2`` once, which
differed from JAX's in 16 % of random inputs; NumPy's own float32 kernel (AVX-512 hosts) is off
by an ulp in ~39 %."""

from __future__ import annotations

import base64
import json
import pathlib

import numpy as np
from xla16_cases import atan2_inputs

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "xla16_values.json").read_text())


def test_float32_atan2_is_jaxs() -> None:
    y, x = atan2_inputs()
    want = np.frombuffer(base64.b64decode(GOLDEN["atan2_float32"]), np.float32)
    got = np.asarray(tnp.arctan2(y, x))
    # XLA flushes subnormal operands and results to zero, trellax keeps them (docs/semantics.md):
    # the 6 pairs with a subnormal operand or result are the only ones that differ
    tiny = np.float32(1.1754944e-38)
    sub = ((np.abs(y) < tiny) & (y != 0)) | ((np.abs(x) < tiny) & (x != 0))
    sub |= (np.abs(got) < tiny) & (got != 0)
    differ = got.view(np.uint32) != want.view(np.uint32)
    assert not (differ & ~sub).any()
    assert int(differ.sum()) == 6
    # a fused chain (large enough to be fused) gives the same bits
    fused = trellax.jit(lambda a, b: tnp.arctan2(a * 1.0, b) + 0.0)(y, x)
    assert np.asarray(fused).tobytes() == (got + np.float32(0.0)).tobytes()
    # the float64 arctan2 rounded once, used before, was not JAX's
    rounded = np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(np.float32)
    assert 0.1 < np.mean(rounded != want) < 0.2


def test_quarter_pi_is_the_nearest_float32() -> None:
    got = tnp.arctan2(-1, tnp.array([1, 2], tnp.uint32))  # -1 does not wrap (JAX 0.10.2)
    assert np.asarray(got).tolist() == np.float32([-np.pi / 4, -0.4636476]).tolist()
