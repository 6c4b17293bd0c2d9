"""``lax`` behaviour JAX's ``lax_test`` checks that trellax got wrong (branch ``jt15``).

``bitcast_convert_type``'s argument check counted bytes, so a 4-bit type (stored by NumPy in a
byte) widening to 16 bits wanted a trailing axis of 2 where JAX (and the primitive itself) take
4 nibbles: ``int4[4] -> float16`` raised ``ValueError``.
"""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax


def test_bitcast_int4_to_16_bits_takes_four_nibbles() -> None:
    x = tnp.array([1, 2, 3, 4], tnp.int4)
    assert int(lax.bitcast_convert_type(x, tnp.int16)) == 0x4321
    assert lax.bitcast_convert_type(x, tnp.float16).dtype == tnp.float16
    assert float(lax.bitcast_convert_type(x, tnp.float16)) == float(
        np.int16(0x4321).view(np.float16)
    )
    jitted = trellax.jit(lambda v: lax.bitcast_convert_type(v, tnp.int16))(x)
    assert int(jitted) == 0x4321
    with pytest.raises(ValueError, match="4 elements"):
        lax.bitcast_convert_type(tnp.array([1, 2], tnp.int4), tnp.int16)
    # whole bytes as before
    assert int(lax.bitcast_convert_type(tnp.array([1, 2], tnp.int8), tnp.int16)) == 513


_HIGHEST = lax.AccuracyMode.HIGHEST


@pytest.mark.parametrize(
    ("name", "x", "slope", "curvature"),
    [  # JAX 0.10.2's values of grad and grad(grad) in float32 (observed)
        ("expm1", -80.0, 1.8048513285848406e-35, 1.8048513285848406e-35),
        ("expm1", -20.0, 2.06115369216775e-09, 2.06115369216775e-09),
        ("tanh", 10.0, 8.244614768671e-09, -1.6489229537342e-08),
        ("tanh", -20.0, 1.699341652455464e-17, 3.398683304910928e-17),
        ("logistic", 20.0, 2.06115369216775e-09, -2.06115369216775e-09),
    ],
)
def test_highest_accuracy_derivatives_in_the_tails(
    name: str, x: float, slope: float, curvature: float
) -> None:
    """``accuracy=HIGHEST`` picks JAX's tail-accurate derivatives: the default rules (``ans + 1``,
    ``1 - ans**2``, ``ans * (1 - ans)``) give 0 there, which they still do without it."""
    f = getattr(lax, name)
    v = tnp.float32(x)
    g = trellax.grad(lambda u: f(u, accuracy=_HIGHEST))
    np.testing.assert_allclose(float(g(v)), slope, rtol=1e-6)
    np.testing.assert_allclose(float(trellax.grad(g)(v)), curvature, rtol=1e-6)
    assert float(trellax.grad(f)(v)) == 0.0  # the default rule
    # the same under jit and vmap, and the primal value is the operation's own
    batched = trellax.jit(trellax.vmap(g))(tnp.full((2,), x, tnp.float32))
    np.testing.assert_allclose(np.asarray(batched), [slope] * 2, rtol=1e-6)
    assert float(f(v, accuracy=_HIGHEST)) == float(f(v))


def test_ragged_dot_instruction_flag_is_accepted_with_either_value() -> None:
    """``jax_ragged_dot_use_ragged_dot_instruction`` chooses XLA's lowering of ``ragged_dot`` in
    JAX (default True); trellax did not know the flag. Either value gives the same result."""
    lhs, rhs = tnp.arange(16.0).reshape(4, 4), tnp.ones((2, 4, 3))
    sizes = tnp.array([1, 3])
    assert trellax.config.jax_ragged_dot_use_ragged_dot_instruction is True
    want = np.asarray(lax.ragged_dot(lhs, rhs, sizes))
    for value in (False, True):
        trellax.config.update("jax_ragged_dot_use_ragged_dot_instruction", value)
        try:
            assert trellax.config.jax_ragged_dot_use_ragged_dot_instruction is value
            np.testing.assert_array_equal(np.asarray(lax.ragged_dot(lhs, rhs, sizes)), want)
        finally:
            trellax.config.update("jax_ragged_dot_use_ragged_dot_instruction", True)
