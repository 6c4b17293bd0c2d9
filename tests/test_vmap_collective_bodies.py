"""A collective inside a body (``cond``, loops, ``jit``, custom functions, ``checkpoint``) whose
operands are not batched still sees the named ``vmap`` axis, as in JAX 0.10.2 (it raised
``NameError: unbound axis name`` before): ``psum`` of a value every example shares is that value
times the axis size, and ``axis_index`` is each example's index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax


@trellax.custom_jvp
def _psum_jvp(x: Any) -> Any:
    return lax.psum(x, "i")


_psum_jvp.defjvp(lambda p, t: (lax.psum(p[0], "i"), t[0]))


@trellax.custom_vjp
def _psum_vjp(x: Any) -> Any:
    return lax.psum(x, "i")


_psum_vjp.defvjp(lambda x: (lax.psum(x, "i"), None), lambda r, g: (g,))

BODIES: dict[str, tuple[Callable[[Any], Any], list[float]]] = {
    "cond": (lambda x: lax.cond(True, lambda y: lax.psum(y, "i"), lambda y: y, x), [8.0] * 4),
    "scan": (
        lambda x: lax.scan(lambda c, _: (lax.psum(c, "i"), None), x, None, length=2)[0],
        [32.0] * 4,
    ),
    "while_loop": (
        lambda x: lax.while_loop(lambda c: c < 10, lambda c: lax.psum(c, "i"), x),
        [32.0] * 4,
    ),
    "fori_loop": (lambda x: lax.fori_loop(0, 2, lambda i, c: lax.psum(c, "i"), x), [32.0] * 4),
    "custom_jvp": (_psum_jvp, [8.0] * 4),
    "jit(custom_jvp)": (trellax.jit(_psum_jvp), [8.0] * 4),
    "custom_vjp": (_psum_vjp, [8.0] * 4),
    "jit(custom_vjp)": (trellax.jit(_psum_vjp), [8.0] * 4),
    "checkpoint": (trellax.checkpoint(lambda x: lax.psum(x, "i")), [8.0] * 4),
    "jit(axis_index)": (trellax.jit(lambda x: x + lax.axis_index("i")), [2.0, 3.0, 4.0, 5.0]),
    "cond(axis_index)": (
        lambda x: lax.cond(True, lambda y: y + lax.axis_index("i"), lambda y: y, x),
        [2.0, 3.0, 4.0, 5.0],
    ),
}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_unbatched_body_sees_the_named_axis(name: str) -> None:
    body, expected = BODIES[name]
    out = trellax.vmap(lambda _, x: body(x), axis_name="i", in_axes=(0, None))(
        tnp.arange(4.0), tnp.float32(2.0)
    )
    np.testing.assert_array_equal(np.asarray(out), np.asarray(expected, np.float32))


def test_unnamed_vmap_leaves_unbatched_bodies_alone() -> None:
    out = trellax.vmap(
        lambda _, x: lax.cond(True, lambda y: y * 2, lambda y: y, x), in_axes=(0, None)
    )(tnp.arange(3.0), tnp.float32(2.0))
    np.testing.assert_array_equal(np.asarray(out), [4.0, 4.0, 4.0])
