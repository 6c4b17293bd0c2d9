"""grad through a scan whose carry's tangent starts as concrete zeros and is fed only by
non-differentiable values (``one_hot(argmax(h))``, as a sampling decoder does): every carry of
the transposed scan is linear, as in JAX (it raised a KeyError in the backward pass)."""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax
import trellax.numpy as tnp
from trellax import lax


def _step(w: Any, c: Any) -> tuple[Any, Any]:
    h, last = c
    h = tnp.tanh(last @ w + h)
    pred = trellax.nn.one_hot(tnp.argmax(h, -1), 3, dtype=tnp.float32)
    return (h, pred), h


def test_grad_of_scan_with_a_carry_fed_by_argmax() -> None:
    x0 = tnp.ones((2, 3))

    def scanned(w: Any) -> Any:
        _, ys = lax.scan(lambda c, _: _step(w, c), (tnp.zeros((2, 3)), x0), None, length=4)
        return ys.sum()

    def unrolled(w: Any) -> Any:
        c, total = (tnp.zeros((2, 3)), x0), 0.0
        for _ in range(4):
            c, y = _step(w, c)
            total = total + y.sum()
        return total

    w = tnp.eye(3) * 0.5
    np.testing.assert_allclose(
        np.asarray(trellax.grad(scanned)(w)), np.asarray(trellax.grad(unrolled)(w)), rtol=1e-6
    )
