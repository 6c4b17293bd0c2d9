"""Loose ends of issue 24 against JAX 0.10.2 (``tests/golden/ends16.json`` from
``tools/gen_golden_ends16.py``; inputs in ``tests/ends16_cases.py``).

- ``fft.fftfreq`` forms its signed indices as JAX does, ``(i + n // 2) % n - n // 2`` in the
  working float type (bfloat16 rounds them above 256, float16 above 2048), and ``fft.rfftfreq``
  of a complex ``dtype`` divides by the complex spacing (XLA's complex quotient: the sign of a
  zero frequency follows a negative ``d``).
- ``gradient`` with a scalar spacing: JAX's compiled function reads it three times, so divides
  by it; under ``jit`` with a constant spacing XLA folds ``(d * 0.5) * (1 / h)`` into
  ``d * (0.5 * (1 / h))`` and drops a product with 1, which decides where a complex result is
  NaN. The fold is general (``interpreters/xla_rewrites.py``), so products by constants are
  checked too. NaN signs and payloads are not compared.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import ends16_cases as cases
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "ends16.json").read_text())


def _diff(got: dict[str, Any], case: dict[str, Any]) -> bool:
    return got != {k: case[k] for k in got}


@pytest.mark.parametrize("fn", ["fftfreq", "rfftfreq"])
def test_frequencies_bits_match_jax(fn: str) -> None:
    todo = [c for c in GOLDEN["freqs"] if c["fn"] == fn]
    assert len(todo) == 7 * 12 * 6
    bad = []
    with trellax.enable_x64(True):
        for c in todo:
            out = getattr(tnp.fft, fn)(c["n"], cases.FREQ_SPACINGS[c["d"]], dtype=c["dtype"])
            if _diff(cases.record(out), c):
                bad.append(f"{c['dtype']}-{c['n']}-{c['d']}")
    assert not bad, f"{len(bad)} of {len(todo)} differ from JAX: {bad[:20]}"


def test_zero_frequency_sign_follows_negative_spacing_for_complex() -> None:
    # JAX divides 0 + 0j by the complex -5 + 0j: both parts of the zero frequency are -0
    z = np.asarray(tnp.fft.rfftfreq(5, -1.0, dtype="complex64"))[0]
    assert np.signbit(z.real) and np.signbit(z.imag)


def test_bfloat16_fftfreq_rounds_its_indices() -> None:
    # n = 300: 149 + 150 is 300 in bfloat16, so JAX's frequency 149 is -0.5, as the 150th is
    f = np.asarray(tnp.fft.fftfreq(300, dtype=tnp.bfloat16)).astype(np.float64)
    assert f[149] == f[150] == -0.5


@pytest.mark.parametrize("mode", cases.GRAD_MODES)
def test_gradient_scalar_spacing_matches_jax(mode: str) -> None:
    inputs = {str(x.dtype): x for x in cases.specials()}
    todo = [c for c in GOLDEN["gradients"] if c["mode"] == mode]
    assert len(todo) == 2 * len(cases.GRAD_SPACINGS)
    bad = []
    for c in todo:
        x, h = inputs[c["input"]], cases.GRAD_SPACINGS[c["h"]]
        if _diff(cases.record(cases.gradient(tnp, trellax.jit, x, h, mode), nan=True), c):
            bad.append(f"{c['input']}/{c['h']}")
    assert not bad, f"{mode}: {bad}"


def test_jit_gradient_of_complex_infinity_keeps_its_real_part() -> None:
    # jit with a constant spacing 3: XLA multiplies by 0.5 * (1/3) once, so (inf + 0j) - 0
    # gives inf + nan j inside; dividing after halving gave nan + nan j
    x = np.array([0, 0, complex(np.inf, 0)], np.complex64)
    g = np.asarray(trellax.jit(lambda v: tnp.gradient(v, 3.0))(x))
    assert np.isinf(g[1].real) and np.isnan(g[1].imag)


def _open_products(dtype: str) -> set[str]:
    """The forms trellax's ``jit`` does not fold yet: chains of products written as products
    (only a product a division became is folded; folding every chain moved optimizer
    trajectories away from the eager golden in ways not yet measured against ``jax.jit``), and
    for complex a bare product with 1, which XLA drops (NaN where a part is infinite)."""
    forms = {"chain", "chain3", "shared", "array"}
    return forms | {"one"} if dtype.startswith("complex") else forms


@pytest.mark.parametrize("dtype", cases.PRODUCT_DTYPES)
def test_jit_products_by_constants_match_jax(dtype: str) -> None:
    x = cases.product_inputs()[dtype]
    todo = [c for c in GOLDEN["products"] if c["dtype"] == dtype]
    assert len(todo) == len(cases.PRODUCTS)
    with trellax.enable_x64(True):
        differ = {
            c["form"]
            for c in todo
            if _diff(cases.record(cases.product(tnp, trellax.jit, c["form"], x), nan=True), c)
        }
    # the division forms (half_div, div_one, div_div) give JAX's bits; the open ones do not
    # (one that starts to agree must leave the open list)
    assert differ == _open_products(dtype), dtype
