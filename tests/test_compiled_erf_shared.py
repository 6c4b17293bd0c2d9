"""The compiled float32 erfc that shares its exp with erfc's derivative (``_erfcf_e`` of
``backend/compiled_erf.py``), the fused multiply-add it and ``_erfcf`` are written with, and the
value numbering of compiled kernels (``interpreters/fusion_compiled.py``) that finds the shared
exp and merges equal statements.

The dense bound check of ``erfc_e`` over every 4099th float32 bit pattern is
``tests/test_compiled_math.py``'s (``tools/check_compiled_math.py``'s ``FUNCS``). Skipped
without Numba.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from compiled_kernel_helpers import AUTO, run_math_kernel

import trellax
import trellax.numpy as tnp
from trellax._src.backend import compiled, compiled_erf
from trellax._src.interpreters import fusion_compiled as fc
from trellax._src.interpreters.fusion_runtime import fusion_options

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import check_compiled_math as ccm

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="needs the optional extra trellax[compiled] (numba)"
)

F32 = np.float32
BOUND = compiled_erf.ULP_BOUND
TINY = float(np.finfo(F32).tiny)


_run = run_math_kernel


def test_fma_rounds_once() -> None:
    # (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly: one rounding keeps it; rounding the product
    # first (to 1 + 2^-11, a tie to even) loses it
    src = "@_kernel\ndef kernel(r, a, b, c, o):\n    for i in range(r):\n"
    src += "        o[i] = _fma(a[i], b[i], c[i])\n"
    k = compiled.kernel(src).load()
    a = np.array([1 + 2**-12, 3.0, np.inf, 1e30], F32)
    b = np.array([1 + 2**-12, 0.1, 0.0, 1e30], F32)
    c = np.array([-(1 + 2**-11), -0.3, 1.0, -np.inf], F32)
    out = np.empty_like(a)
    k(a.size, a, b, c, out)
    assert out[0] == F32(2.0**-24)
    assert F32(a[0] * b[0]) + c[0] == 0  # unfused
    assert out[1] == F32(np.float64(a[1]) * np.float64(b[1]) + np.float64(c[1]))
    assert np.isnan(out[2]) and out[3] == -np.inf  # inf * 0 + 1; 1e60 overflows, + -inf


def test_exact_values() -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, 1.4e-45, -1.4e-45, TINY, -TINY, 11.0, 1e30], F32)
    assert _run("erfc_e", x).tolist() == [1, 1, 0, 2, 1, 1, 1, 1, 0, 0]
    assert _run("erfc_e", np.array([-11.0, -1e30, 2e19, -2e19], F32)).tolist() == [2, 2, 0, 2]


def test_tails_where_erfc_becomes_subnormal_and_underflows() -> None:
    # the shared exp(-fl(x^2)) is itself subnormal from x ~ 9.35 and 0 from x ~ 10.2, so where
    # erfc rounds to 0 (from 10.0542) this one may still give the smallest subnormal (1 ulp)
    x = np.concatenate([np.linspace(8.5, 11.5, 300_001, dtype=F32), [10.0542, 10.0543]])
    got, want = _run("erfc_e", x), ccm.reference("erfc", x)
    d = ccm.ulps(got, want)
    assert (d <= BOUND["erfc_e"]).all()
    assert (d[x >= 9.9] <= 1).all() and (got[x >= 10.06] == 0).all()
    assert (_run("erfc_e", -x) == 2).all()


def test_dense_sample_of_the_working_range() -> None:
    x = np.concatenate(
        [np.linspace(-6, 6, 600_001, dtype=F32), np.linspace(0.49, 0.51, 20_001, dtype=F32)]
    )
    x = np.concatenate([x, -x[-20_001:]])
    d = ccm.ulps(_run("erfc_e", x), ccm.reference("erfc", x))
    assert d.max() <= BOUND["erfc_e"]
    assert d.max() >= BOUND["erfc_e"] - 3  # the check can fail: the bound is near what is seen


def test_the_check_catches_a_wrong_kernel() -> None:
    x = np.linspace(0.5, 4, 10_001, dtype=F32)
    off = _run("erfc_e", x)
    for _ in range(BOUND["erfc_e"] + 1):
        off = np.nextafter(off, F32(np.inf))
    assert (ccm.ulps(off, ccm.reference("erfc", x)) > BOUND["erfc_e"]).any()


# -- in fused programs -----------------------------------------------------------------------------


def _kernel_texts(f: Any, args: tuple[Any, ...], **opts: Any) -> tuple[Any, list[str]]:
    """The compiled program and the sources of the kernels it loaded."""
    before = set(compiled._KERNELS)
    with fusion_options(**opts):
        run = trellax.jit(f).lower(*args).compile()
    new = [src for src, _ in set(compiled._KERNELS) - before]
    return run, new


def _grad_erf(h: Any, b: Any) -> Any:
    g = trellax.grad(lambda h, b: trellax.nn.gelu(h + b, approximate=False).sum(), (0, 1))
    return g(h, b)


def _calls(text: str, fn: str) -> int:
    body = text[text.index("@_kernel") :]  # the loop, not the helpers before it
    return body.count(fn + "(")


def test_the_gradient_computes_one_exp_for_erfc_and_its_derivative() -> None:
    rng = np.random.default_rng(11)
    x = tnp.asarray((rng.standard_normal((21, 30)) * 4).astype(F32))
    b = tnp.asarray(rng.standard_normal(30).astype(F32))
    run, texts = _kernel_texts(_grad_erf, (x, b), **AUTO)
    (text,) = [t for t in texts if "# erfc" in t]
    assert _calls(text, "_erfcf_e") == 1 and _calls(text, "_expf") == 1, text
    assert _calls(text, "_erfcf") == 0
    exact = trellax.jit(_grad_erf)
    with fusion_options(**{**AUTO, "compiled": "exact"}):
        want = exact.lower(x, b).compile()(x, b)
    eps = float(np.finfo(F32).eps)
    for g, w in zip(run(x, b), want):
        g, w = np.asarray(g), np.asarray(w)
        scale = np.maximum(np.abs(w), 1.0) * (21 if w.ndim == 1 else 1)
        assert (np.abs(g - w) <= 4 * BOUND["erfc_e"] * eps * scale).all(), g - w
    # the forward alone has no exp to share: the erfc that computes its own
    fwd = lambda h, b: trellax.nn.gelu(h + b, approximate=False)  # noqa: E731
    _, texts = _kernel_texts(fwd, (x, b), **AUTO)
    (text,) = [t for t in texts if "# erfc" in t]
    assert _calls(text, "_erfcf") == 1 and _calls(text, "_erfcf_e") == 0, text


def test_an_exp_of_another_square_is_not_shared() -> None:
    x = tnp.asarray(np.linspace(-3, 3, 64, dtype=F32))
    f = lambda v: trellax.lax.erfc(v) * tnp.exp(-(v * 2) * (v * 2))  # noqa: E731
    _, texts = _kernel_texts(f, (x,), **AUTO)
    (text,) = [t for t in texts if "# erfc" in t]
    assert _calls(text, "_erfcf") == 1 and _calls(text, "_erfcf_e") == 0, text


def test_value_numbering_merges_equal_statements_and_forgets_reassigned_names() -> None:
    n = fc._Numbering()
    assert n.add("u1", "np.float32(l0 * l1)") == "u1 = np.float32(l0 * l1)"
    assert n.add("u2", "np.float32(l0 * l1)") == "u2 = u1"
    assert n.add("u3", "np.float32(-u2)") == "u3 = np.float32(-u1)"  # reads u2 as u1
    assert n.add("u4", "u3") == "u4 = u3"
    assert n.add("u5", "np.float32(-u1)") == "u5 = u3"
    # integer_pow's buffers are assigned again: what was known of the old value is dropped
    assert n.add("u6", "np.float32(u3 * u3)") == "u6 = np.float32(u3 * u3)"
    assert n.add("u6", "np.float32(u6 * u6)") == "u6 = np.float32(u6 * u6)"
    assert n.add("u7", "np.float32(u3 * u3)") == "u7 = np.float32(u3 * u3)"  # not u6 now
    assert n.add("u8", "np.float32(u6 * u6)") == "u8 = np.float32(u6 * u6)"


def test_programs_with_repeated_work_keep_the_impls_bits() -> None:
    # equal subexpressions and integer_pow chains whose buffers are reused, compiled with value
    # numbering under "exact", against the NumPy path, bit for bit (NaN, inf, -0.0 planted)
    rng = np.random.default_rng(3)
    v = (rng.standard_normal(300) * 3).astype(F32)
    v[:5] = [np.nan, np.inf, -np.inf, -0.0, 1e-40]
    x = tnp.asarray(v)

    def f(x: Any) -> Any:
        a = x**7 + x**7 * (x * x) + x**5
        b = (x * x) * (x * x) - x**4
        return a * b + (-(x * x)) + tnp.exp(-(x * x)), x**13 - x**11

    _, texts = _kernel_texts(f, (x,), **{**AUTO, "compiled": "exact"})
    assert texts and any("= u" in t.split("@_kernel")[1] for t in texts)  # copies were merged
    with fusion_options(**{**AUTO, "compiled": "exact"}):
        got = trellax.jit(f).lower(x).compile()(x)
    with fusion_options(**{**AUTO, "compiled": "off"}):
        want = trellax.jit(f).lower(x).compile()(x)
    for g, w in zip(got, want):
        assert np.array_equal(np.asarray(g).view(np.uint32), np.asarray(w).view(np.uint32))
