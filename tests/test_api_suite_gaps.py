"""Public-API behaviour JAX's ``api_test`` checks that trellax got wrong (branch ``jt16``).

``jnp.asarray``/``jnp.array`` of a value being differentiated by ``jvp`` bind a conversion in
JAX (the tracer knows its value), so a Python-scalar tangent comes out as an array: trellax
returned the tracer as it was, and ``jvp(jnp.asarray, (1.,), (2.,))`` gave the tangent back
as the Python float ``2.0``.

A ``ShapeDtypeStruct`` given to a ``jit``-wrapped function while a jaxpr is being staged
(``eval_shape``, ``make_jaxpr``, ``jit(...).trace()``) is a constant of that jaxpr without a
value, as in JAX: trellax tried to read its value (``float()`` of it raised ``TypeError``).
Running a program that holds one (an outer ``jit``'s call or ``lower``) raises JAX's
``TypeError``, and so does calling the function with one outside any staging, naming the
argument.
"""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.core.basearray import Array


@pytest.mark.parametrize("convert", [tnp.asarray, tnp.array])
def test_jvp_of_asarray_gives_array_tangent(convert: object) -> None:
    p, t = trellax.jvp(convert, (1.0,), (2.0,))  # type: ignore[arg-type]
    assert isinstance(p, Array) and isinstance(t, Array)
    assert p.dtype == t.dtype == np.float32
    assert p.weak_type and t.weak_type  # a Python float's weak type is kept, as in JAX
    assert float(t) == 2.0


def test_asarray_under_make_jaxpr_adds_no_equation() -> None:
    jaxpr = trellax.make_jaxpr(lambda x: trellax.jvp(tnp.asarray, (x,), (x,)))(1.0)
    assert len(jaxpr.jaxpr.eqns) == 0  # an abstract tracer is returned as it is, as in JAX


_SDS = trellax.ShapeDtypeStruct((2,), tnp.float32)


def test_shape_dtype_struct_under_eval_shape_is_an_abstract_constant() -> None:
    inner = trellax.jit(lambda x: x + 1)
    out = trellax.eval_shape(lambda: inner(_SDS))
    assert (out.shape, out.dtype) == ((2,), np.float32)
    out = trellax.eval_shape(lambda y: inner(_SDS) * y, 2.0)
    assert (out.shape, out.dtype) == ((2,), np.float32)
    two = trellax.jit(lambda a, b: a * b)
    out = trellax.eval_shape(lambda: two(_SDS, trellax.ShapeDtypeStruct((3, 1), tnp.float32)))
    assert out.shape == (3, 2)
    jaxpr = trellax.make_jaxpr(lambda: inner(_SDS))()
    assert jaxpr.consts == [_SDS] and len(jaxpr.jaxpr.constvars) == 1
    outer = trellax.jit(lambda: inner(_SDS))
    assert outer.eval_shape().shape == (2,)
    assert len(outer.trace().jaxpr.eqns) == 1


def test_running_a_shape_dtype_struct_raises_jax_type_error() -> None:
    inner = trellax.jit(lambda x: x + 1)
    outer = trellax.jit(lambda: inner(_SDS))
    msg = "A ShapeDtypeStruct does not have a value and cannot be used as a constant"
    with pytest.raises(TypeError, match=msg):
        outer()
    with pytest.raises(TypeError, match=msg):
        outer.lower()
    with pytest.raises(TypeError, match=r"Argument 'x' of shape float32\[2\] of type .* is not a"):
        inner(_SDS)
    pair = trellax.jit(lambda a, *, b: a[1] + b["z"])
    with pytest.raises(TypeError, match=r"Argument 'a\[1\]' of shape int32\[3,1\]"):
        pair((1.0, trellax.ShapeDtypeStruct((3, 1), tnp.int32)), b={"z": 1.0})
    with pytest.raises(TypeError, match=r"Argument 'b\['z'\]' of shape float32\[2\]"):
        pair((1.0, 2.0), b={"z": _SDS})
    assert float(inner(1.0)) == 2.0  # values still go through


def test_shape_dtype_struct_in_lax_operations_and_transformations_while_staging() -> None:
    inner = trellax.jit(lambda x: x + 1)
    for fn in (
        lambda: trellax.lax.sin(_SDS),
        lambda: trellax.lax.add(_SDS, 1.0),
        lambda: trellax.vmap(inner)(_SDS),
        lambda: trellax.grad(lambda x: inner(x).sum())(_SDS),
        lambda: trellax.jvp(inner, (_SDS,), (_SDS,))[1],
    ):
        out = trellax.eval_shape(fn)
        assert (out.shape, out.dtype) == ((2,), np.float32)
    assert trellax.make_jaxpr(lambda: trellax.lax.sin(_SDS))().consts == [_SDS]
    with pytest.raises(TypeError, match="ShapeDtypeStruct"):
        trellax.lax.sin(_SDS)  # outside any staging it has no value
    with pytest.raises(TypeError, match="is not a valid JAX type"):
        trellax.vmap(inner)(_SDS)
