"""``trellax.optim``'s losses against optax 0.2.8 (golden data of ``tools/gen_golden_losses.py``):
value, dtype, weak flag, shape and the gradient of the summed loss, on the cases of
``tests/loss_cases.py`` (large logits, ties, zero targets, masks, ``-inf`` logits, narrow floats)."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from loss_cases import cases

import trellax
import trellax.numpy as tnp
import trellax.optim as optim

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "optim_losses.json").read_text())
CASES = {c[0]: c for c in cases()}


def decode(values: list[Any]) -> Any:
    return np.array([float(v) for v in values], np.float64)


def _close(got: Any, want: Any, dtype: str) -> None:
    got = np.asarray(got, np.float64).reshape(-1)
    # float32 results within a few ulps (XLA and NumPy round exp/log differently); narrow floats
    # within a few of their own ulps. The absolute part is 2 ulps of 1.0: losses that subtract
    # numbers near 1 (1 - cos, logaddexp(e, -e) - log 2 at small e) keep that absolute error.
    rtol = {"float16": 4e-3, "bfloat16": 3e-2}.get(dtype, 4e-6)
    atol = {"float16": 2e-3, "bfloat16": 1.6e-2}.get(dtype, 2.4e-7)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    # NaN where optax has NaN (assert_allclose checks that), and the sign of every zero
    zeros = want == 0
    assert (np.signbit(got[zeros]) == np.signbit(want[zeros])).all(), "the sign of a zero differs"


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_loss_matches_optax(case_id: str) -> None:
    _, name, args, kwargs, with_grad = CASES[case_id]
    want = GOLDEN["cases"][case_id]
    fn = getattr(optim.losses, name)
    targs = [tnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    if "error" in want:
        with pytest.raises(Exception) as info:
            fn(*targs, **kwargs)
        assert type(info.value).__name__ == want["error"]
        return
    out = fn(*targs, **kwargs)
    assert str(out.dtype) == want["dtype"]
    assert out.weak_type == want["weak"]
    assert list(out.shape) == want["shape"]
    _close(out, decode(want["value"]), want["dtype"])
    if with_grad:
        g = trellax.grad(lambda a: tnp.sum(fn(a, *targs[1:], **kwargs)))(targs[0])
        _close(g, decode(want["grad"]), want["dtype"])


def test_every_optax_top_level_loss_is_exported() -> None:
    for name in ("softmax_cross_entropy", "l2_loss", "huber_loss", "sigmoid_binary_cross_entropy"):
        assert getattr(optim, name) is getattr(optim.losses, name)


def test_integer_logits_and_float_labels_are_refused() -> None:
    with pytest.raises(TypeError, match="floating"):
        optim.losses.softmax_cross_entropy(tnp.arange(3), tnp.ones(3))
    with pytest.raises(TypeError, match="integer"):
        optim.losses.softmax_cross_entropy_with_integer_labels(tnp.ones((2, 3)), tnp.ones(2))
    with pytest.raises(ValueError, match="one shape"):
        optim.losses.squared_error(tnp.ones(3), tnp.ones(2))
    with pytest.raises(ValueError, match="out of bounds"):
        optim.losses.softmax_cross_entropy_with_integer_labels(
            tnp.ones((2, 3)), tnp.zeros(2, dtype="int32"), axis=2
        )


def test_losses_trace_under_jit() -> None:
    x = tnp.asarray(np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4))
    labels = tnp.asarray(np.array([0, 3, 1], np.int32))
    eager = optim.losses.softmax_cross_entropy_with_integer_labels(x, labels)
    jitted = trellax.jit(optim.losses.softmax_cross_entropy_with_integer_labels)(x, labels)
    np.testing.assert_array_equal(np.asarray(eager), np.asarray(jitted))
