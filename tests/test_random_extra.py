"""trellax.random against more golden data from JAX 0.10.2 (tools/gen_golden_random_extra.py):
binomial/multinomial counts, vmap over keys, gradients w.r.t. shape parameters, dtype errors and
the x64 warnings."""

from __future__ import annotations

import json
import pathlib
import warnings
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.random as tr

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "random_extra.json").read_text())
CASES = GOLDEN["cases"]


def _ids(case: dict[str, Any]) -> str:
    return f"{case['call']}-seed{case['seed']}-x64={case['x64']}"


def _eval(case: dict[str, Any]) -> Any:
    k = tr.key(case["seed"])
    return eval(case["call"], {"r": tr, "jnp": tnp, "jax": trellax, "k": k})


def _first(message: str) -> str:
    return message.split(" To enable more dtypes")[0]


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_golden(case: dict[str, Any]) -> None:
    with trellax.enable_x64(case["x64"]), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if "error" in case:
            kind, msg = case["error"]
            with pytest.raises(Exception) as info:
                _eval(case)
            assert type(info.value).__name__ == kind
            assert str(info.value) == msg
            return
        x = _eval(case)
    # trellax's x64 warning names its own option and variable after the first sentence
    assert [_first(str(w.message)) for w in caught] == [_first(w) for w in case["warnings"]]
    assert str(x.dtype) == case["dtype"]
    assert list(x.shape) == case["shape"]
    assert x.weak_type is case["weak_type"]
    want = np.array([np.nan if v is None else v for v in case["values"]], np.float64)
    got = np.asarray(x).astype(np.float64).reshape(-1)
    if case["kind"] == "exact":
        np.testing.assert_array_equal(got, want)
    else:
        rtol = 1e-10 if x.dtype == np.float64 else 1e-5
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6)
