"""JAX's words for mistakes around vmap/pmap arguments and tracer attributes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp


def test_vmap_docstring_and_empty_arguments() -> None:
    def superfun(a: Any) -> Any:
        """Does things with stuff."""
        return a

    doc = trellax.vmap(superfun).__doc__
    assert doc is not None and doc.startswith("Vectorized version of superfun.")
    assert doc.endswith("\n\nOriginal documentation:\n\nDoes things with stuff.")
    with pytest.raises(ValueError, match=r"got empty \*args=\(\{\},\) and \*\*kwargs=\{\}"):
        trellax.vmap(lambda x: x)({})
    with pytest.raises(ValueError, match=r"vmap has mapped output \(axis_name=foo\)"):
        trellax.vmap(lambda x: x, out_axes=None, axis_name="foo")(jnp.ones(2))


def test_pmap_arguments() -> None:
    with pytest.raises(ValueError, match="pmap requires at least one argument with a mapped axis"):
        trellax.pmap(lambda x: x)({})
    g = trellax.pmap(lambda a, b: a + b, static_broadcasted_argnums=(1,))
    with pytest.raises(
        ValueError,
        match=r"static_broadcasted_argnums=\(1,\) but was called with "
        r"only 1 positional argument",
    ):
        g(jnp.ones((1, 1)), b=1)
    np.testing.assert_array_equal(np.asarray(g(jnp.ones((1, 2)), 2)), [[3.0, 3.0]])


def test_tracer_sharding_points_to_typeof() -> None:
    @trellax.jit
    def f(x: Any) -> Any:
        with pytest.raises(AttributeError, match="typeof"):
            _ = x.sharding
        return x

    f(jnp.arange(2.0))
