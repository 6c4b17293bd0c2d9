"""``trellax.nn``'s lifted transforms, extra layers and module API against Flax 0.12.8: every case
of ``tests/linen_cases.py`` runs here with trellax and must give the tree Flax gave
(``tests/golden/linen.json``, written by ``tools/gen_golden_linen.py``): the same paths, the
same parameter values from the same keys (so Flax's key derivation through ``nn.vmap``,
``nn.scan``, ``nn.jit`` ...), output values and dtypes, or the same error.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import linen_cases
import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as tnp
import trellax.random as random

GOLDEN = json.loads((Path(__file__).parent / "golden" / "linen.json").read_text())["cases"]
NS = SimpleNamespace(
    nn=nn,
    jnp=tnp,
    jax=trellax,
    random=random,
    x=lambda s, seed=0: tnp.asarray(linen_cases.data(s, seed)),
)


def _decode(enc: dict[str, Any]) -> np.ndarray:
    name = enc["dtype"]
    d = np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)
    vals = enc["values"]
    arr = np.array(
        [complex(*v) for v in vals] if d.kind == "c" else vals, np.float64 if d.kind != "c" else d
    )
    return arr.astype(d).reshape(enc["shape"])


def test_every_case_has_golden_data() -> None:
    assert sorted(linen_cases.CASES) == sorted(GOLDEN)


@pytest.mark.parametrize("name", sorted(linen_cases.CASES))
def test_case(name: str) -> None:
    want = GOLDEN[name]
    build = linen_cases.CASES[name]
    if "error" in want:
        with pytest.raises(Exception) as info:
            build(NS)
        assert type(info.value).__name__ == want["error"]["type"]
        return
    got = linen_cases.flatten(build(NS))
    assert sorted(got) == sorted(want)
    for path, enc in want.items():
        g = got[path]
        if isinstance(enc, dict) and "dtype" in enc:
            w = _decode(enc)
            assert isinstance(g, np.ndarray), path
            assert g.dtype == w.dtype and g.shape == w.shape, (path, g.dtype, g.shape, w.dtype)
            if w.dtype.kind in "fc":
                np.testing.assert_allclose(
                    g.astype(np.float64), w.astype(np.float64), rtol=2e-5, atol=2e-6, err_msg=path
                )
            else:
                np.testing.assert_array_equal(g, w, err_msg=path)
        else:
            assert g == enc, path
