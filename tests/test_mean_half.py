"""Half-precision ``mean``/``var`` against JAX 0.10.2 (golden ``tests/golden/mean_half.json``,
``tools/gen_golden_mean_half.py``): float16 and bfloat16 arrays give JAX's bits eagerly, along an
axis and under ``jit``; an int8 mean narrowed by ``dtype=float16`` differs by at most 1 ulp (XLA
rounds the count's reciprocal to float16 first), by ``dtype=bfloat16`` by at most 0.0125 (XLA
sums in bfloat16 there): docs/semantics.md."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
from mean_half_cases import outcomes

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "mean_half.json").read_text())
GOT = outcomes(trellax, tnp)


@pytest.mark.parametrize("form", sorted(GOLDEN["cases"]))
def test_half_precision_means(form: str) -> None:
    dt = form.split()[0]
    want = np.array(GOLDEN["cases"][form], np.float32).astype(dt)
    got = np.array(GOT[form], np.float32).astype(dt)
    if form == "float16 int8 mean dtype=":
        ulps = np.abs(got.view(np.int16).astype(np.int32) - want.view(np.int16).astype(np.int32))
        assert ulps.max() <= 1, form
    elif "dtype=" in form:  # JAX's bfloat16 value: a sum XLA accumulates in bfloat16
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        assert diff.max() <= 0.0125, form
    else:
        np.testing.assert_array_equal(got.view(np.int16), want.view(np.int16), err_msg=form)
