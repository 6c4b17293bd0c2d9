"""float32 ``arctan2`` is float64's rounded once, on every host (NumPy's own float32 kernel is
off by an ulp in ~39 % of inputs on AVX-512 hosts), eagerly, fused and under ``jit``."""

from __future__ import annotations

import numpy as np

import trellax
import trellax.numpy as tnp


def _want(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(np.float32)


def test_float32_atan2_is_rounded_float64() -> None:
    r = np.random.default_rng(3)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 3.4e38, 1.0, -1.0])
    y = np.concatenate([r.standard_normal(70000), np.repeat(special, special.size)])
    x = np.concatenate([r.standard_normal(70000), np.tile(special, special.size)])
    y, x = y.astype(np.float32), x.astype(np.float32)
    want = _want(y, x).tobytes()
    assert np.asarray(tnp.arctan2(y, x)).tobytes() == want
    # a fused chain (large enough to be fused) gives the same bits
    got = trellax.jit(lambda a, b: tnp.arctan2(a * 1.0, b) + 0.0)(y, x)
    assert np.asarray(got).tobytes() == (_want(y, x) + np.float32(0.0)).tobytes()


def test_quarter_pi_is_the_nearest_float32() -> None:
    got = tnp.arctan2(-1, tnp.array([1, 2], tnp.uint32))  # -1 does not wrap (JAX 0.10.2)
    assert np.asarray(got).tolist() == np.float32([-np.pi / 4, -0.4636476]).tolist()
