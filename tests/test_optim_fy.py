"""The Fenchel-Young losses against optax 0.2.8 (golden data ``tests/golden/optim_fy.json``
from ``tools/gen_golden_optim_fy.py``, eager optax): ``make_fenchel_young_loss`` (with
``logsumexp``) and ``multiclass_sparsemax_loss``, values and gradients in float32, bfloat16
and float16, same dtypes and shapes, the bits equal but for the ulps in ``ULPS`` (measured).
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from optim_fy_cases import CASES, DTYPES, inputs

import trellax
import trellax.numpy as jnp
import trellax.optim as optim
from trellax.scipy.special import logsumexp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_fy.json").read_text())
KEYS = sorted(f"{n}|{d}" for n in CASES for d in DTYPES)
#: runs that are not bit-identical: the largest distance in ulps of the result's dtype, measured
ULPS: dict[str, int] = {
    # the softmax in the derivative of logsumexp: trellax's order of summation (3.1e-8 relative)
    "grad_fy_lse|float32": 4,
    # the simplex projection: optax's threshold search differs from ours (a sort and a cumulative
    # sum in float32); 5.7e-8 relative in float32. From half-precision scores optax's float32
    # result carries the half-precision rounding of its intermediate sums: 1.2e-5 (bfloat16)
    # and 6.2e-4 and 1.9e-4 (the spread case, bfloat16 and float16) relative to the largest loss
    "sparsemax_spread|float32": 1,
    "grad_sparsemax_spread|float32": 8,
    "sparsemax|bfloat16": 1728,
    "sparsemax_spread|bfloat16": 87808,
    "sparsemax_spread|float16": 27460,
}
#: where optax raises (its projection's custom derivative returns a half-precision tangent for
#: a float32 output, a TypeError) and trellax computes the gradient
OPTAX_RAISES = {f"{n}|{d}" for n in ("grad_sparsemax", "grad_sparsemax_spread") for d in DTYPES[1:]}


def _record(v: Any) -> list[Any]:
    a = np.asarray(v)
    return [str(a.dtype), list(a.shape), a.tobytes().hex()]


def _ulps(got: list[Any], want: list[Any]) -> int:
    if got[2] == want[2]:
        return 0
    ints = {2: np.int16, 4: np.int32}[np.dtype(jnp.dtype(got[0])).itemsize]
    a, b = (np.frombuffer(bytes.fromhex(r[2]), ints).astype(np.int64) for r in (got, want))
    return int(np.abs(a - b).max())


def test_golden_covers_every_case() -> None:
    assert sorted(GOLDEN) == KEYS
    assert set(ULPS) <= set(KEYS)
    assert {k for k in KEYS if isinstance(GOLDEN[k], dict)} == OPTAX_RAISES


@pytest.mark.parametrize("key", KEYS)
def test_loss_matches_optax(key: str) -> None:
    name, dtype = key.split("|")
    env: dict[str, Any] = {"o": optim, "jnp": jnp, "lse": logsumexp,
                           "G": lambda f, v: trellax.grad(f)(v)}  # fmt: skip
    env.update({k: jnp.asarray(v, None if k == "k" else dtype) for k, v in inputs().items()})
    want = GOLDEN[key]
    if isinstance(want, dict):
        assert key in OPTAX_RAISES and want["error"] == "TypeError"
        grad = np.asarray(eval(CASES[name], env)).astype(np.float32)
        assert np.isfinite(grad).all()
        # each row of the gradient is sparsemax(scores) minus the label's one-hot: sums to 0
        assert np.abs(grad.sum(-1)).max() < 1e-2
        return
    got = _record(eval(CASES[name], env))
    assert got[:2] == want[:2]
    assert _ulps(got, want) == ULPS.get(key, 0)
    mine, theirs = (
        np.frombuffer(bytes.fromhex(r[2]), got[0]).astype(np.float64) for r in (got, want)
    )
    if dtype != "float32":  # measured: 6.2e-4 of the largest loss at most (sparsemax_spread)
        assert np.abs(mine - theirs).max() <= 6.3e-4 * np.abs(theirs).max()


def test_sparsemax_loss_is_zero_on_a_confident_label() -> None:
    scores = jnp.array([[0.0, 5.0, 0.0], [3.0, 0.0, 0.0]])
    assert np.asarray(
        optim.losses.multiclass_sparsemax_loss(scores, jnp.array([1, 0]))
    ).tolist() == [0.0, 0.0]
