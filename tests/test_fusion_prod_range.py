"""docs/performance.md's tolerance for fused products (``prod`` across chunks) holds only while
no partial product leaves the dtype's normal range; these tests pin the cases it excludes, so
that the documented exclusion stays true (and is dropped if fusion ever agrees there too).

The fused program multiplies per chunk and then multiplies the chunk partials; the unfused one
is NumPy's running product; the programs here run two 7-element chunks (tests/test_fusion.py's
``CHUNK``).
"""

from __future__ import annotations

import numpy as np
from test_fusion import CHUNK, acc_eps, fused_and_unfused

import trellax.numpy as tnp


def _prod(values: list[float]) -> tuple[float, float, float]:
    """fused, unfused and exact (float64) products of float32 ``values``."""
    x = np.array(values, np.float32)
    assert len(values) == 2 * CHUNK
    with np.errstate(over="ignore", under="ignore"):
        got, want, text = fused_and_unfused(lambda v: (v * 1.0).prod(), tnp.asarray(x))
    assert "(across chunks)" in text
    return float(got[0]), float(want[0]), float(np.prod(x.astype(np.float64)))


def _within_documented_bound(got: float, want: float, n: int) -> bool:
    rtol = 2 * n * acc_eps("float32") + float(np.finfo(np.float32).eps)
    return bool(np.isfinite(got) and np.isfinite(want) and abs(got - want) <= rtol * abs(want))


ONES = [1.0] * (CHUNK - 2)


def test_in_range_products_meet_the_bound() -> None:
    # partials 1e30 and 1e-10 stay in float32's normal range on both paths
    got, want, exact = _prod([1e20, 1e10, *ONES, 1e-5, 1e-5, *ONES])
    assert _within_documented_bound(got, want, 2 * CHUNK)
    assert abs(got - exact) <= 1e-5 * exact


def test_running_product_overflow_is_inf_unfused_and_finite_fused() -> None:
    # the running product passes 1e40 (inf in float32); the chunk partials are 1e30 and 1e-10
    got, want, exact = _prod([1e30, 1.0, *ONES, 1e10, 1e-20, *ONES])
    assert want == np.inf
    assert np.isfinite(got) and abs(got - exact) <= 1e-5 * exact
    assert not _within_documented_bound(got, want, 2 * CHUNK)


def test_inf_partial_times_zero_partial_is_nan_fused() -> None:
    # the first chunk's partial overflows to inf and the second's underflows to 0, so the fused
    # product is inf * 0 = NaN; the running product overflows to inf and stays there
    got, want, _ = _prod([1e30] * CHUNK + [1e-30] * CHUNK)
    assert np.isnan(got) and want == np.inf


def test_subnormal_partial_loses_relative_precision() -> None:
    # the running product dips to 1e-40, a float32 subnormal with 17 significant bits; the fused
    # partials (1e-30 and 1e10) stay normal
    got, want, exact = _prod([1e-30, 1.0, *ONES, 1e-10, 1e20, *ONES])
    assert abs(got - exact) <= 1e-6 * exact
    assert abs(want - exact) > 1e-6 * exact
    assert not _within_documented_bound(got, want, 2 * CHUNK)
