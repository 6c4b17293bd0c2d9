"""A ``custom_vjp`` traced inside a jaxpr (``scan``/``jit`` body) and differentiated later: its
``fwd`` rule's primal output is checked against the traced function's output, with JAX's
``TypeError`` (texts observed with JAX 0.10.2)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp


def _scan_apply(f: Any, x: Any) -> Any:
    y, _ = trellax.lax.scan(lambda c, _: (f(c), None), x, None, length=1)
    return y


def _with_fwd(fwd: Any) -> Any:
    @trellax.custom_vjp
    def f(x: Any) -> Any:
        return x

    f.defvjp(fwd, lambda _, g: (g,))
    return f


def test_fwd_primal_out_of_another_structure() -> None:
    def f_fwd(x: Any) -> Any:
        return (x, x), None

    f = _with_fwd(f_fwd)
    want = (
        "Custom VJP fwd rule f_fwd for function f must produce a pair (list or tuple of length "
        "two) where the first element represents the primal output (equal to the output of the "
        "custom_vjp-decorated function f) and the second element represents residuals (i.e. "
        "values stored from the forward pass for use on the backward pass), but instead the fwd "
        "rule output's first element had container/pytree structure:\n"
        "    (float32[], float32[])\n"
        "while the custom_vjp-decorated function f had output container/pytree structure:\n"
        "    float32[]."
    )
    with pytest.raises(TypeError) as e:
        trellax.grad(lambda x: _scan_apply(f, x))(np.float32(1.0))
    assert str(e.value) == want


def test_fwd_primal_out_of_another_shape() -> None:
    def f_fwd2(x: Any) -> Any:
        return tnp.zeros((3, *x.shape), x.dtype), None

    f = _with_fwd(f_fwd2)
    with pytest.raises(TypeError) as e:
        trellax.grad(lambda x: _scan_apply(f, x))(np.float32(1.0))
    assert str(e.value).endswith(
        "first element had shapes/dtypes of:\n    float32[3]\n"
        "while the custom_vjp-decorated function f had output shapes/dtypes of:\n"
        "    float32[]"
    )
    with pytest.raises(TypeError, match="fwd rule f_fwd2 for function f"):
        trellax.grad(lambda x: trellax.jit(f)(x))(np.float32(1.0))


def test_matching_fwd_still_differentiates() -> None:
    @trellax.custom_vjp
    def f(x: Any) -> Any:
        return tnp.sin(x)

    f.defvjp(lambda x: (tnp.sin(x), tnp.cos(x)), lambda c, g: (3.0 * c * g,))
    got = trellax.grad(lambda x: _scan_apply(f, x))(np.float32(0.5))
    np.testing.assert_allclose(got, 3.0 * np.cos(np.float32(0.5)), rtol=1e-6)


def test_disable_bwd_checks_passes_a_mismatched_cotangent_on() -> None:
    """JAX's ``jax_disable_bwd_checks``: a ``bwd`` output of another shape than its argument
    is returned as it is instead of raising (the flag did not exist in trellax)."""
    from trellax._src.config import jax_option_flags

    @trellax.custom_vjp
    def foo(x: Any, y: Any) -> Any:
        return x

    foo.defvjp(lambda x, y: (x, None), lambda _, g: (tnp.zeros(3), tnp.zeros(3)))

    def loss(x: Any, y: Any) -> Any:
        return foo(x, y).sum()

    with pytest.raises(ValueError, match="so the shapes do not match"):
        trellax.grad(loss, 1)(tnp.ones(3), tnp.ones(4))
    with jax_option_flags.disable_bwd_checks(True):
        g = trellax.grad(loss, 1)(tnp.ones(3), tnp.ones(4))
        assert g.shape == (3,)
        gx, gy = trellax.jit(trellax.grad(loss, (0, 1)))(tnp.ones(3), tnp.ones(4))
        assert gx.shape == gy.shape == (3,)
    with pytest.raises(ValueError, match="so the shapes do not match"):
        trellax.grad(loss, 1)(tnp.ones(3), tnp.ones(4))
