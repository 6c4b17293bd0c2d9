"""A ``custom_jvp`` traced into a jaxpr (under ``jit``/``scan``) checks its rule's primal output
against the traced function's, as JAX: the same tree, then the same shapes/dtypes.

Before branch ``jt15`` a rule returning ``(x, x)`` for a function returning ``x`` was silently cut
to its first output under ``scan``/``jit`` (a wrong result, where JAX raises ``TypeError``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax


def _scan_apply(f: Any, x: Any) -> Any:
    y, _ = lax.scan(lambda c, _: (f(c), None), x, None, length=1)
    return y


def _f_with(rule: Any) -> Any:
    @trellax.custom_jvp
    def f(x: Any) -> Any:
        return x

    f.defjvp(rule)
    return f


def _two_outputs(primals: Any, tangents: Any) -> Any:
    (x,), (xdot,) = primals, tangents
    return (x, x), (xdot, xdot)


def _wrong_shape(primals: Any, tangents: Any) -> Any:
    (x,), (xdot,) = primals, tangents
    return tnp.zeros((3, *x.shape), x.dtype), xdot


@pytest.mark.parametrize("stage", ["scan", "jit"])
def test_rule_output_tree_must_match(stage: str) -> None:
    f = _f_with(_two_outputs)
    g = (lambda x: _scan_apply(f, x)) if stage == "scan" else trellax.jit(f)
    x = np.float32(1.0)
    with pytest.raises(
        TypeError, match="container/pytree structure:\n    \\(float32\\[\\], float32\\[\\]\\)"
    ):
        trellax.jvp(g, (x,), (x,))


def test_rule_output_shapes_must_match() -> None:
    f = _f_with(_wrong_shape)
    x = np.float32(1.0)
    with pytest.raises(TypeError, match="shapes/dtypes of:\n    float32\\[3\\]\nwhile"):
        trellax.jvp(lambda x: _scan_apply(f, x), (x,), (x,))


def test_a_matching_rule_still_applies_when_staged() -> None:
    @trellax.custom_jvp
    def f(x: Any) -> Any:
        return tnp.sin(x)

    @f.defjvp
    def rule(primals: Any, tangents: Any) -> Any:
        (x,), (xdot,) = primals, tangents
        return f(x), 2.0 * xdot

    p, t = trellax.jvp(lambda x: _scan_apply(f, x), (np.float32(1.0),), (np.float32(1.0),))
    np.testing.assert_allclose(p, np.sin(1.0), rtol=1e-6)
    assert float(t) == 2.0
    _, t2 = trellax.jvp(trellax.jit(f), (np.float32(1.0),), (np.float32(1.0),))
    assert float(t2) == 2.0
    # under vmap too (the staged call's batched rule)
    _, t3 = trellax.jvp(trellax.vmap(trellax.jit(f)), (tnp.ones(3),), (tnp.ones(3),))
    np.testing.assert_array_equal(t3, [2.0, 2.0, 2.0])
