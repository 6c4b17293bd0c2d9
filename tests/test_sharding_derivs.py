"""``reshard`` and ``with_sharding_constraint`` are identities on values: their first and second
derivatives are those of the function without them, eagerly, under ``jit`` and under ``vmap``
(the derivative coverage of ``tests/test_derivs.py`` lists them here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.sharding import AxisType, NamedSharding, reshard
from trellax.sharding import PartitionSpec as P

pytestmark = pytest.mark.usefixtures("eight_devices")


def _plain(x: Any) -> Any:
    return (tnp.sin(x) * x**2).sum()


def _check(f: Callable[[Any], Any], x: Any) -> None:
    want_g = np.asarray(trellax.grad(_plain)(x))
    want_h = np.asarray(trellax.jacfwd(trellax.grad(_plain))(x))
    for wrap in (lambda h: h, trellax.jit):
        np.testing.assert_allclose(np.asarray(wrap(trellax.grad(f))(x)), want_g, rtol=1e-6)
        np.testing.assert_allclose(
            np.asarray(wrap(trellax.jacfwd(trellax.grad(f)))(x)), want_h, rtol=1e-6, atol=1e-6
        )
        np.testing.assert_allclose(
            np.asarray(wrap(trellax.jacrev(trellax.grad(f)))(x)), want_h, rtol=1e-6, atol=1e-6
        )


def test_reshard_derivatives_on_an_explicit_mesh() -> None:
    m = trellax.make_mesh((2, 2), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    with trellax.set_mesh(m):
        x = reshard(tnp.linspace(-1.0, 1.5, 4, dtype=tnp.float32), P(None))

        def f(v: Any) -> Any:
            return (tnp.sin(reshard(v, P("X"))) * v**2).sum()

        _check(f, x)
        per_row = trellax.vmap(trellax.grad(f))(tnp.stack([x, 2 * x]))
        np.testing.assert_allclose(
            np.asarray(per_row[1]), np.asarray(trellax.grad(_plain)(2 * x)), rtol=1e-6
        )


def test_sharding_constraint_derivatives() -> None:
    m = trellax.make_mesh((2, 2), ("A", "B"), axis_types=(AxisType.Auto,) * 2)
    x = tnp.linspace(-1.0, 1.5, 4, dtype=tnp.float32)

    def f(v: Any) -> Any:
        w = lax.with_sharding_constraint(v, NamedSharding(m, P("A")))
        return (tnp.sin(w) * v**2).sum()

    _check(f, x)


def test_reshard_cotangent_takes_the_operands_type() -> None:
    """JAX 0.10.2: the transpose of ``reshard`` reshards the cotangent back to the operand's
    sharding, so ``grad`` returns the argument's type (``float32[4]`` for a replicated argument
    resharded to ``P("X")`` inside, ``float32[4@X]`` the other way)."""
    m = trellax.make_mesh((2, 2), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    with trellax.set_mesh(m):
        for src, dst, want in ((P(None), P("X"), "float32[4]"), (P("X"), P(None), "float32[4@X]")):
            x = reshard(tnp.linspace(-1.0, 1.5, 4, dtype=tnp.float32), src)

            def f(v: Any, dst: Any = dst) -> Any:
                return (tnp.sin(reshard(v, dst)) * v**2).sum()

            assert str(trellax.typeof(trellax.grad(f)(x))) == want


def test_eager_shortcuts_keep_the_type_after_a_plain_warm_up() -> None:
    """The eager shortcuts (unary ufuncs, operators, ``where``) take plain arrays only: after
    they have served plain float32 arrays, a typed array still gets its sharding in the result."""
    plain = tnp.ones((2, 4), dtype=tnp.float32)
    for fn in (tnp.sin, tnp.exp, lambda v: v + v, lambda v: tnp.where(v > 0, v, v)):
        fn(plain)
    m = trellax.make_mesh((2, 2), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    with trellax.set_mesh(m):
        x = reshard(tnp.ones((2, 4), dtype=tnp.float32), P("X", None))
        for fn in (tnp.sin, tnp.exp, lambda v: v + v, lambda v: tnp.where(v > 0, v, v)):
            assert str(trellax.typeof(fn(x))) == "float32[2@X,4]"
