"""The compiled float32 erf/erfc (``backend/compiled_erf.py``) at the special values and in the
tails, fused GELU programs (both forms, and their gradients) that use them, and the folds that
keep a GELU gradient one compiled loop.

The dense bound check over every 4099th float32 bit pattern is ``tests/test_compiled_math.py``'s
(its functions are ``tools/check_compiled_math.py``'s ``FUNCS``, erf and erfc among them).
Skipped without Numba.
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
from trellax import lax
from trellax._src.backend import compiled, compiled_erf
from trellax._src.backend import numpy as backend
from trellax._src.interpreters import tracing
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


def _bits(a: np.ndarray) -> list[int]:
    return np.asarray(a, F32).view(np.uint32).tolist()  # type: ignore[no-any-return]


def test_exact_values() -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, 1.4e-45, -1.4e-45, TINY, -TINY, 11.0, 1e30], F32)
    assert _run("erfc", x).tolist() == [1, 1, 0, 2, 1, 1, 1, 1, 0, 0]
    e = _run("erf", x)
    assert _bits(e[:4]) == _bits(np.array([0.0, -0.0, 1.0, -1.0], F32))
    assert _bits(e[4:8]) == _bits(backend.erf(x[4:8]))  # subnormal and tiny: x * 2/sqrt(pi)
    assert e[8:].tolist() == [1.0, 1.0]
    assert _run("erf", np.array([-11.0, -1e30], F32)).tolist() == [-1.0, -1.0]


def test_tails_where_erfc_becomes_subnormal_and_underflows() -> None:
    # erfc(x) is subnormal from x ~ 9.19 and rounds to 0 from 10.0542; 2 - erfc(-x) rounds to 2
    x = np.concatenate([np.linspace(8.5, 10.5, 300_001, dtype=F32), [10.0542, 10.0543]])
    got, want = _run("erfc", x), ccm.reference("erfc", x)
    assert (ccm.ulps(got, want) <= BOUND["erfc"]).all()
    assert np.array_equal(got == 0, want == 0)
    assert (_run("erfc", -x) == 2).all()
    assert (_run("erf", x) == 1).all() and (_run("erf", -x) == -1).all()


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_dense_sample_of_the_working_range(name: str) -> None:
    # both formulas and the switch at |x| = 0.5, densely
    x = np.concatenate(
        [np.linspace(-6, 6, 600_001, dtype=F32), np.linspace(0.49, 0.51, 20_001, dtype=F32)]
    )
    x = np.concatenate([x, -x[-20_001:]])
    d = ccm.ulps(_run(name, x), ccm.reference(name, x))
    assert d.max() <= BOUND[name]
    assert d.max() >= BOUND[name] - 3  # the check can fail: the bound is near what is seen


def test_the_check_catches_a_wrong_kernel() -> None:
    x = np.linspace(0.5, 4, 10_001, dtype=F32)
    got = _run("erfc", x)
    off = got
    for _ in range(BOUND["erfc"] + 1):
        off = np.nextafter(off, F32(np.inf))
    assert (ccm.ulps(off, ccm.reference("erfc", x)) > BOUND["erfc"]).any()


# -- in fused programs -----------------------------------------------------------------------------


def _lower(f: Any, args: tuple[Any, ...], **opts: Any) -> tuple[Any, str]:
    with fusion_options(**opts):
        lowered = trellax.jit(f).lower(*args)
        return lowered.compile(), lowered.as_text()


def _gelu_erf(h: Any, b: Any) -> Any:
    return trellax.nn.gelu(h + b, approximate=False)


def _grad(approximate: bool) -> Any:
    return trellax.grad(
        lambda h, b: trellax.nn.gelu(h + b, approximate=approximate).sum(), argnums=(0, 1)
    )


def _compiled_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if "# compiled:" in ln]


def test_gelu_erf_form_and_gradients_compile_as_one_loop() -> None:
    rng = np.random.default_rng(5)
    x = tnp.asarray((rng.standard_normal((33, 20)) * 3).astype(F32))
    b = tnp.asarray(rng.standard_normal(20).astype(F32))
    eps = float(np.finfo(F32).eps)
    for f, name in ((_gelu_erf, "erfc"), (_grad(False), "erfc"), (_grad(True), "tanh")):
        on, text = _lower(f, (x, b), **AUTO)
        exact, text_exact = _lower(f, (x, b), **{**AUTO, "compiled": "exact"})
        assert any(name in ln for ln in _compiled_lines(text)), text
        if f is not _gelu_erf:  # add_any (the derivative's two paths summed) is in the loop
            assert any("add_any" in ln for ln in _compiled_lines(text)), text
        got, want = on(x, b), exact(x, b)
        for g, w in zip(trellax.tree_util.tree_leaves(got), trellax.tree_util.tree_leaves(want)):
            g, w = np.asarray(g), np.asarray(w)
            assert g.dtype == w.dtype == F32
            scale = np.maximum(np.abs(w), 1.0) * (33 if w.ndim == 1 else 1)
            assert (np.abs(g - w) <= 4 * BOUND["erfc"] * eps * scale).all(), g - w
    _, text_exact = _lower(_gelu_erf, (x, b), **{**AUTO, "compiled": "exact"})
    assert any("erfc" in ln for ln in _compiled_lines(text_exact))  # libm's, the impl's bits


def test_float64_erf_and_erfc_are_libm_bit_for_bit() -> None:
    with trellax.enable_x64(True):
        x = np.concatenate([np.linspace(-12, 12, 4001), [0.0, -0.0, np.inf, -np.inf, 5e-324]])
        tx = tnp.asarray(x)
        for fn in (lax.erf, lax.erfc):
            f = lambda v, fn=fn: fn(v * 1.0) + 0.0  # noqa: E731 (a fused region of three)
            on, text = _lower(f, (tx,), **{**AUTO, "compiled": "exact"})
            assert any(fn.__name__ in ln for ln in _compiled_lines(text)), text
            want = getattr(backend, fn.__name__)(x * 1.0) + 0.0
            assert np.array_equal(np.asarray(on(tx)).view(np.uint64), want.view(np.uint64))


def test_a_scalar_broadcast_read_by_several_ufuncs_is_folded() -> None:
    c = tnp.asarray(np.array([1.0, -0.0, np.nan, np.inf], F32))

    def f(c: Any, s: Any) -> Any:
        b = lax.broadcast_in_dim(s, c.shape, ())
        return lax.mul(c, b) + lax.add(b, c), lax.mul(b, b)  # mul(b, b): b read twice, kept

    def g(c: Any, s: Any) -> Any:
        b = lax.broadcast_in_dim(s, c.shape, ())
        return (lax.mul(c, b) + lax.add(b, c),)

    s = tnp.float32(-0.0)
    for fn, kept in ((f, 1), (g, 0)):
        closed = trellax.make_jaxpr(fn)(c, s)
        run = tracing.compile_jaxpr(closed)
        assert (run.__doc__ or "").count("broadcast_in_dim") == kept
        got = run(np.asarray(c), np.asarray(s))
        want = [np.asarray(o) for o in trellax.tree_util.tree_leaves(fn(c, s))]
        for a, w in zip(got, want):
            assert np.array_equal(np.asarray(a).view(np.uint32), w.view(np.uint32))
