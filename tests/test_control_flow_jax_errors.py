"""Control-flow argument checks with JAX's error types and words, and fori_loop's fixed trip
count when its bounds are known values being differentiated."""

from __future__ import annotations

import re

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.errors import ConcretizationTypeError


def test_callables_are_checked() -> None:
    with pytest.raises(TypeError, match=r"lax\.while_loop.*callable"):
        lax.while_loop(42, 42, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"lax\.switch:.*callable"):
        lax.switch(0, [42])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"lax\.cond.*callable"):
        lax.cond(0, 42, 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"lax\.scan.*callable"):
        lax.scan(42, 0, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"lax\.associative_scan.*callable"):
        lax.associative_scan(42, 0)  # type: ignore[arg-type]


def test_predicate_and_index_checks() -> None:
    with pytest.raises(TypeError, match="cond predicate is None"):
        lax.cond(None, lambda x: x, lambda x: x, 1.0)
    with pytest.raises(TypeError, match="cond predicate is None"):
        trellax.jit(lambda p, x: lax.cond(p, lambda y: y, lambda y: y, x))(None, 1.0)
    with pytest.raises(TypeError, match=re.escape("Pred type must be either boolean or number")):
        lax.cond(lambda x: True, lambda x: 2.0, lambda x: 3.0, 1.0)
    with pytest.raises(TypeError, match=re.escape("Pred must be a scalar, got foo of type")):
        lax.cond("foo", lambda x: 2.0, lambda x: 3.0, 1.0)
    with pytest.raises(TypeError, match=re.escape("Index type must be an integer, got foo.")):
        lax.switch("foo", [lambda x: 2.0, lambda x: 3.0], 1.0)
    with pytest.raises(TypeError, match=re.escape("Branch index must be scalar")):
        lax.switch((1.0, 1.0), [lambda x: 2.0], 1.0)
    with pytest.raises(ValueError, match="Empty branch sequence"):
        lax.switch(0, [], 1.0)


def test_scan_argument_checks() -> None:
    with pytest.raises(ValueError, match="scan got value with no leading axis to scan over: 0, 1"):
        lax.scan(lambda c, x: (c, x), 0, [0, 1])
    with pytest.raises(
        TypeError, match=re.escape("scan body output must be a pair, got ~float32[].")
    ):
        lax.scan(lambda c, x: 0.0, 0.0, tnp.arange(3.0))
    with pytest.raises(ValueError, match="`unroll` must be"):
        lax.scan(lambda c, x: (c, x), 0, tnp.arange(5), unroll=-1)
    f = trellax.jit(lambda n, x: lax.scan(lambda c, z: (c, z), x, None, n))
    with pytest.raises(ConcretizationTypeError, match="The `length` argument to `scan`"):
        f(3, 1.0)
    g = trellax.jit(lambda n, x: lax.scan(lambda c, z: (c, z), x, None, 10, unroll=n))
    with pytest.raises(ConcretizationTypeError, match="The `unroll` argument to `scan`"):
        g(3, 1.0)


def test_zero_length_scan_under_disable_jit_raises() -> None:
    def run() -> object:
        return lax.scan(lambda c, x: (c + x, x), 0.0, np.array([]))[0]

    assert float(run()) == 0.0  # type: ignore[arg-type]
    with trellax.disable_jit():
        with pytest.raises(ValueError, match="zero-length scan"):
            run()
        assert float(lax.fori_loop(0, 0, lambda i, x: x + i, 1.0)) == 1.0


def test_fori_loop_bounds_known_under_differentiation() -> None:
    def f(x: object) -> object:
        return lax.fori_loop(x, x + 2.0, lambda i, c: c * 2.0, x)

    assert float(trellax.grad(f)(1.0)) == 4.0
    out, lin = trellax.linearize(f, 1.0)
    assert (float(out), float(lin(1.0))) == (4.0, 4.0)
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        trellax.grad(trellax.jit(f))(1.0)
