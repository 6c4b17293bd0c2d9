"""The compiled float32 exp/tanh/logistic/erf/erfc/log (``backend/compiled_math.py``, ``compiled_erf.py``,
``compiled_log.py``) against their stated ulp
bound, and fused programs that use them (``compiled="auto"``, the default with the extra).

The bound (``compiled_math.ULP_BOUND``) is the distance to the float64 function of the input
rounded to float32; ``tools/check_compiled_math.py`` measured it over all 2**32 inputs, these
tests check it on every 4099th bit pattern (about a million inputs, every binade of both signs)
and on the special values: NaN (both signs, another payload), +-inf, +-0.0, subnormals, and the
overflow and underflow thresholds. Skipped without Numba.
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
from trellax._src.backend import compiled, compiled_erf, compiled_log, compiled_math
from trellax._src.interpreters.fusion_runtime import fusion_options

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import check_compiled_math as ccm

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)

F32 = np.float32
BOUND = {**compiled_math.ULP_BOUND, **compiled_erf.ULP_BOUND, **compiled_log.ULP_BOUND}
TINY = float(np.finfo(F32).tiny)
SPECIAL = np.array(
    [  # noqa: RUF005 (commented groups)
        np.inf,
        -np.inf,
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        TINY,
        -TINY,
        TINY / 2,
        -TINY / 2,
    ]
    + [1.4e-45, -1.4e-45, float(np.finfo(F32).max), float(np.finfo(F32).min), 1e-8, -1e-8]
    # exp: the largest finite result, the first inf, the last normal and the last nonzero
    + [88.72283, 88.72284, 88.7228317, 88.7228394, -87.33654, -87.33655, -103.27893]
    + [-103.972076, -103.97208, -103.972084, -104.0, -110.0, 89.0, 100.0, -88.0, 88.0]
    # tanh: the switch between its two formulas, saturation to +-1, large arguments
    + [0.625, -0.625, 0.62499994, -0.62499994, 8.66, 9.01, -9.01, 44.0, 45.0, 1e30, -1e30]
    # logistic: where exp(-x) overflows
    + [-88.72283, -88.72284, -89.0, -100.0],
    dtype=F32,
)
QUIET = np.array(np.nan, F32).view(np.uint32)
NANS = np.array([QUIET, QUIET | (1 << 31), QUIET | 5, 0x7F800001], np.uint32).view(F32)


def _run(name: str, x: np.ndarray) -> np.ndarray:
    k = compiled.kernel(compiled.math_kernel_source(name)).load()
    x = np.ascontiguousarray(x, F32)
    out = np.empty_like(x)
    k(x.size, x, out)
    return out


def _dense() -> np.ndarray:
    bits = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32)
    return np.concatenate([bits.view(F32), SPECIAL])


@pytest.mark.parametrize("name", ccm.FUNCS)
def test_within_the_stated_ulp_bound(name: str) -> None:
    x = _dense()
    got = _run(name, x)
    d = ccm.ulps(got, ccm.reference(name, x))
    bad = d > BOUND[name]
    assert not bad.any(), (name, x[bad][:5], got[bad][:5], d[bad][:5])


def test_the_bound_is_not_loose_for_exp() -> None:
    # the check can fail: a kernel one ulp off everywhere would not pass
    x = _dense()
    got = _run("exp", x)
    shifted = np.nextafter(got, F32(np.inf))
    assert (ccm.ulps(shifted, ccm.reference("exp", x)) > compiled_math.ULP_BOUND["exp"]).any()


@pytest.mark.parametrize("name", ccm.FUNCS)
def test_nans_stay_nans(name: str) -> None:
    got = _run(name, NANS)
    assert np.isnan(got).all()
    want = ccm.numpy_f32(name, NANS)  # NumPy's: its default quiet NaN, whatever the input
    if name != "logistic":  # 1 / (1 + NaN): the input's NaN, quieted, on both paths
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_exact_values() -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, 1e-30, -1e-30, 1.4e-45, -1.4e-45], F32)
    e = _run("exp", x)
    assert e.tolist() == [1.0, 1.0, np.inf, 0.0, 1.0, 1.0, 1.0, 1.0]
    t = _run("tanh", x)
    assert np.array_equal(
        t.view(np.uint32), np.array([0.0, -0.0, 1, -1, *x[4:]], F32).view(np.uint32)
    )
    s = _run("logistic", x)
    assert s.tolist() == [0.5, 0.5, 1.0, 0.0, 0.5, 0.5, 0.5, 0.5]


def test_overflow_and_underflow_thresholds_of_exp() -> None:
    big = np.array([88.72283, 88.7228394, 88.72284, 89.0, 1e10], F32)
    assert np.isfinite(_run("exp", big[:1])).all()
    assert np.array_equal(np.isinf(_run("exp", big)), np.isinf(np.exp(big)))
    small = np.array([-87.33654, -87.33655, -100.0, -103.97207, -103.9721, -200.0], F32)
    got = _run("exp", small)
    assert np.array_equal(got == 0, ccm.reference("exp", small) == 0)
    assert (ccm.ulps(got, ccm.reference("exp", small)) <= 1).all()  # subnormal results


# -- in fused programs -----------------------------------------------------------------------------


def _lower(f: Any, args: tuple[Any, ...], **opts: Any) -> tuple[Any, str]:
    with fusion_options(**opts):
        lowered = trellax.jit(f).lower(*args)
        return lowered.compile(), lowered.as_text()


def _softmax(x: Any) -> Any:
    e = tnp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_softmax_and_gelu_compile_their_transcendental_functions() -> None:
    rng = np.random.default_rng(3)
    x = tnp.asarray(rng.standard_normal((33, 20)).astype(F32) * 4)
    b = tnp.asarray(rng.standard_normal(20).astype(F32))
    eps = float(np.finfo(F32).eps)
    # (program, args, function, ulps of the result, absolute slack): GELU's 1 + tanh cancels for
    # negative inputs, so there the error is tanh's (absolute, ~1 ulp of 1) times |x|
    cases = [
        (_softmax, (x,), "exp", 2, 0.0),  # exp's bound, then a sum of 20 and a division
        (lambda h, b: trellax.nn.gelu(h + b), (x, b), "tanh", 2, 2 * BOUND["tanh"] * eps * 20),
        (lambda h, b: trellax.nn.sigmoid(h * b), (x, b), "logistic", 4, 0.0),
    ]
    for f, args, name, rel_ulps, atol in cases:
        on, text = _lower(f, args, **AUTO)
        exact, text_exact = _lower(f, args, **{**AUTO, "compiled": "exact"})
        assert any("# compiled:" in ln and name in ln for ln in text.splitlines()), text
        assert not any("# compiled:" in ln and name in ln for ln in text_exact.splitlines())
        got, want = np.asarray(on(*args)), np.asarray(exact(*args))
        assert got.dtype == want.dtype == F32
        scale = np.maximum(np.abs(want), np.finfo(F32).tiny)
        assert (np.abs(got - want) <= rel_ulps * 4 * np.spacing(scale) + atol).all()
        if name == "exp":  # softmax rows still sum to one
            np.testing.assert_allclose(got.sum(-1), 1, rtol=1e-5)


def test_float64_and_narrow_types_keep_numpys_functions() -> None:
    for dtype in ("float64", "float16", "bfloat16"):
        with trellax.enable_x64(dtype == "float64"):
            x = tnp.asarray(np.linspace(-5, 5, 40)).astype(dtype)
            _, text = _lower(lambda x: tnp.exp(x * 2) + 1, (x,), **AUTO)
        assert not any("# compiled:" in ln and "exp" in ln for ln in text.splitlines())


def test_compiled_option_accepts_exact() -> None:
    with pytest.raises(ValueError, match="compiled must be one of"), fusion_options(compiled="x"):
        pass
    with fusion_options(compiled="exact") as opts:
        assert opts.compiled == "exact"
