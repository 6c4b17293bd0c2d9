"""``checkpoint``/``remat`` against JAX: values, gradients, grad-of-grad, and what the backward
pass recomputes under each policy (the counts of ``sin``/``cos``/``dot_general`` equations in
the linear and transposed functions, the number of saved residuals). Golden data:
``tests/golden/checkpoint.json`` from ``tools/gen_golden_checkpoint.py``."""

from __future__ import annotations

import json
import pathlib

import checkpoint_cases as cc
import numpy as np
import pytest

import trellax
import trellax.ad_checkpoint

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "checkpoint.json").read_text())


@pytest.mark.parametrize("name", sorted(cc.CASES))
def test_checkpoint_case(name: str) -> None:
    source, shape = cc.CASES[name]
    want = GOLDEN["cases"][name]
    f = cc.build(source, trellax)
    x = trellax.numpy.asarray(cc.point(shape))
    got = cc.measure(f, x, trellax, name in cc.LINEARIZE_ONLY)
    for key in ("value", "grad", "tangent"):
        if key in want:
            np.testing.assert_allclose(got[key], want[key], rtol=2e-5, atol=1e-6, err_msg=key)
    if isinstance(want.get("grad_grad"), list):
        np.testing.assert_allclose(got["grad_grad"], want["grad_grad"], rtol=2e-4, atol=1e-5)
    for key in ("linear", "transposed", "residuals"):
        if key in want:
            expected = cc.KNOWN_DIFFERENCES.get(name, {}).get(key, want[key])
            assert got[key] == expected, f"{key}: trellax {got[key]}, JAX {want[key]}"
