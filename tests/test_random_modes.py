"""Samplers met in JAX's own ``random_lax_test``: Gumbel's "highest" mode (64 bits per float32
sample), categorical with logits whose batch axes broadcast against ``shape``, samplers under
``numpy_rank_promotion="raise"`` (library code never relies on rank promotion), and
permutation's axis check. Compared with JAX 0.10.2 (``tests/golden/random_modes.json``, written
by ``tools/gen_golden_random_modes.py``): integers exactly, floats within 1e-5 relative and 1e-6 absolute (the logs
are NumPy's, not XLA's)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from random_modes_cases import CASES

import trellax

GOLDEN = json.loads((Path(__file__).parent / "golden" / "random_modes.json").read_text())["cases"]


def _rank_raise(f: Callable[[], Any]) -> Any:
    with trellax.numpy_rank_promotion("raise"):
        return f()


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name: str) -> None:
    want = GOLDEN[name]
    env = {"X": trellax, "RANK_RAISE": _rank_raise}
    if "error" in want:
        with pytest.raises(getattr(__builtins__, want["error"], Exception)) as info:
            eval(CASES[name], env)
        assert type(info.value).__name__ == want["error"]
        assert str(info.value).split("\n")[0] == want["message"]
        return
    got = np.asarray(eval(CASES[name], env))
    assert str(got.dtype) == want["dtype"]
    assert list(got.shape) == want["shape"]
    expected = np.asarray(want["values"], dtype=np.float64)
    if got.dtype.kind in "iu":
        np.testing.assert_array_equal(got.ravel(), expected)
    else:
        np.testing.assert_allclose(got.ravel().astype(np.float64), expected, rtol=1e-5, atol=1e-6)


def test_golden_covers_every_case() -> None:
    assert set(GOLDEN) == set(CASES)


def test_highest_reaches_further_into_the_upper_tail() -> None:
    # 64-bit fractions: the largest sample of many exceeds what 32-bit uniforms can give
    x = trellax.random.gumbel(trellax.random.key(0), (4096,), mode="highest")
    assert x.dtype == np.float32 and bool(trellax.numpy.isfinite(x).all())
