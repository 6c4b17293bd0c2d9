"""The compiled float32 ``log`` (``backend/compiled_log.py``) against its stated ulp bound, its
special values, and fused programs that use it (``log_softmax`` as one row kernel).

The bound (``compiled_log.ULP_BOUND``) is the distance to NumPy's float64 ``log`` of the input
rounded to float32; ``tools/check_compiled_math.py --funcs log`` measured it on every 7th bit
pattern. ``tests/test_compiled_math.py`` checks every 4099th pattern; here every binade is swept
densely (including the subnormals) and the exact values are pinned. Skipped without Numba.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from compiled_kernel_helpers import AUTO

import trellax
import trellax.numpy as tnp
from trellax._src.backend import compiled, compiled_log
from trellax._src.interpreters.fusion_runtime import fusion_options

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import check_compiled_math as ccm

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)

F32 = np.float32
BOUND = compiled_log.ULP_BOUND["log"]


def _run(x: np.ndarray) -> np.ndarray:
    k = compiled.kernel(compiled.math_kernel_source("log")).load()
    x = np.ascontiguousarray(x, F32)
    out = np.empty_like(x)
    k(x.size, x, out)
    return out


def _bits(x: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(x, F32).view(np.uint32)]


def test_exact_values() -> None:
    x = np.array([0.0, -0.0, np.inf, 1.0, -1.0, -np.inf, -1e-45, -3e38, 2.0, 0.5], F32)
    got = _run(x)
    assert _bits(got[:4]) == _bits(np.array([-np.inf, -np.inf, np.inf, 0.0], F32))
    assert np.isnan(got[4:8]).all()
    assert (got[4:8].view(np.uint32) >> 31 == 1).all()  # x86's invalid-operation NaN
    assert (ccm.ulps(got[8:], np.log(x[8:].astype(np.float64)).astype(F32)) == 0).all()


def test_every_binade_densely_and_the_subnormals() -> None:
    # 2**12 evenly spaced mantissas in each of the 255 exponent fields of positive floats
    # (the subnormals' field included), and the powers of two and their neighbours
    exps = np.arange(0, 255, dtype=np.uint32) << 23
    mant = np.arange(0, 1 << 23, 1 << 11, dtype=np.uint32)
    bits = (exps[:, None] | mant[None, :]).ravel()
    edges = np.concatenate([exps, exps + 1, np.maximum(exps, 1) - 1, np.arange(1, 4097)])
    x = np.concatenate([bits, edges.astype(np.uint32)]).view(F32)
    got = _run(x)
    d = ccm.ulps(got, ccm.reference("log", x))
    assert d.max() <= BOUND, (x[d > BOUND][:5], d.max())
    assert (d == BOUND).any()  # the bound is reached: a looser kernel would be noticed
    shifted = np.nextafter(got, F32(np.inf))
    assert (ccm.ulps(shifted, ccm.reference("log", x)) > BOUND).any()


def test_negative_inputs_give_nan() -> None:
    x = -np.arange(1, 1 << 32, 65537, dtype=np.uint64).astype(np.uint32).view(F32)
    x = x[np.isfinite(x) & (x < 0)]
    assert np.isnan(_run(x)).all()


# -- in fused programs -----------------------------------------------------------------------------


def _lower(f: Any, args: tuple[Any, ...], **opts: Any) -> tuple[Any, str]:
    with fusion_options(**opts):
        lowered = trellax.jit(f).lower(*args)
        return lowered.compile(), lowered.as_text()


def _compiled_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if "# compiled:" in ln]


def _cross_entropy(x: Any) -> Any:
    return -trellax.nn.log_softmax(x).mean(axis=-1)


def _log_alone(x: Any) -> Any:  # a one-equation program is not a region: a copy joins it
    return tnp.log(x) * 1.0


@pytest.mark.parametrize("f", [trellax.nn.log_softmax, _cross_entropy, _log_alone])
def test_log_in_fused_programs(f: Any) -> None:
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((40, 33)) * 4).astype(F32)
    if f is _log_alone:
        x = np.abs(x) * F32(1e-3) ** rng.integers(0, 13, x.shape)
    on, text = _lower(f, (tnp.asarray(x),), **AUTO)
    exact, text_exact = _lower(f, (tnp.asarray(x),), **{**AUTO, "compiled": "exact"})
    assert any("log" in ln for ln in _compiled_lines(text)), text
    assert not any(" log" in ln for ln in _compiled_lines(text_exact)), text_exact
    got, want = np.asarray(on(tnp.asarray(x))), np.asarray(exact(tnp.asarray(x)))
    assert got.dtype == want.dtype == F32
    if f is _log_alone:  # alone: within the bound of NumPy's float64 log rounded
        assert (ccm.ulps(got, ccm.reference("log", x)) <= BOUND).all()
    else:  # log of the row sum differs by at most BOUND ulps of it, then subtracted
        eps = float(np.finfo(F32).eps)
        assert (np.abs(got - want) <= 4 * (BOUND + 1) * eps * np.maximum(np.abs(want), 8)).all()


def test_float64_log_stays_numpy() -> None:
    with trellax.enable_x64(True):
        x = tnp.asarray(np.random.default_rng(1).uniform(0.1, 10, (40, 33)))
        on, text = _lower(tnp.log, (x,), **AUTO)
        assert not any("log" in ln for ln in _compiled_lines(text))
        assert np.array_equal(np.asarray(on(x)), np.log(np.asarray(x)))
