"""Defects the fuzzer of composed transformations found (``tests/test_fuzz_compose.py``), each
reduced to its smallest program, with JAX 0.10.2's answer (observed, written out by hand)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax


def test_jit_broadcast_of_an_empty_array_keeps_the_new_axes() -> None:
    """An empty operand broadcast to more axes: equal sizes (0 == 0) do not mean only size-1
    axes were added. Under ``jit`` the result had shape (1, 3, 0, 1) (JAX: (3, 3, 0, 1))."""
    y = jnp.zeros((3, 0, 1))
    f = trellax.jit(lambda y: lax.broadcast_in_dim(y, (3, 3, 0, 1), (1, 2, 3)))
    assert f(y).shape == (3, 3, 0, 1)
    g = trellax.jit(lambda y: lax.broadcast_in_dim(y, (2, 0), (1,)))
    assert g(jnp.zeros((0,))).shape == (2, 0)
    x = jnp.zeros((3, 1))
    assert trellax.jit(trellax.vmap(lambda a: y))(x).shape == (3, 3, 0, 1)
    # only size-1 axes added still reshapes (no copy needed)
    h = trellax.jit(lambda v: lax.broadcast_in_dim(v, (1, 3, 1), (1,)))
    np.testing.assert_array_equal(h(jnp.arange(3.0)), np.arange(3.0).reshape(1, 3, 1))


@pytest.mark.parametrize("out", ["bool", "int"])
def test_vmap_of_jvp_with_a_float0_tangent(out: str) -> None:
    """The tangent of a bool or integer output is a float0 array; ``vmap`` stacks it (JAX: a
    float0 array of the batch's shape) instead of refusing it as an operand."""
    x = jnp.ones((2, 3))
    fn = (lambda a: a > 1) if out == "bool" else (lambda a: jnp.argmax(a))
    y, t = trellax.vmap(lambda v: trellax.jvp(fn, (v,), (jnp.ones_like(v),)))(x)
    assert t.dtype == trellax.dtypes.float0
    assert t.shape == y.shape
    assert isinstance(t, np.ndarray)


def test_jacfwd_of_an_integer_or_bool_output_is_zeros_of_its_dtype() -> None:
    """JAX's ``jacfwd`` of an integer output is zeros of that dtype, shape ``out + in``."""
    x = jnp.array([1.0, 2.0])
    j = trellax.jacfwd(lambda a: jnp.argmax(a))(x)
    assert (j.dtype, j.shape) == (np.dtype(np.int32), (2,))
    assert not np.asarray(j).any()
    jb = trellax.jacfwd(lambda a: a > 1)(x)
    assert (jb.dtype, jb.shape) == (np.dtype(bool), (2, 2))
    # a mixed output: the float part is the Jacobian, the integer part zeros
    jf, ji = trellax.jacfwd(lambda a: (a * a, jnp.argmin(a)))(x)
    np.testing.assert_array_equal(jf, np.diag([2.0, 4.0]).astype(np.float32))
    assert ji.dtype == np.int32 and ji.shape == (2,)


@pytest.mark.parametrize("where", ["scan", "cond"])
def test_grad_through_control_flow_with_no_differentiable_output(where: str) -> None:
    """A loop or branch whose outputs are all bool: its linear part has no outputs, which the
    transpose pass indexed (IndexError); the gradient is zeros, as in JAX."""
    x = jnp.array([1.0, -2.0])
    if where == "scan":

        def f(x: jnp.ndarray) -> jnp.ndarray:
            return jnp.sum(lax.scan(lambda c, xi: (c, xi > 0), 0, x)[1].astype(x.dtype))
    else:

        def f(x: jnp.ndarray) -> jnp.ndarray:
            out = lax.cond(True, lambda x: x > 0, lambda x: x < 0, x)
            return jnp.sum(out.astype(x.dtype))

    g = trellax.grad(f)(x)
    np.testing.assert_array_equal(g, np.zeros(2, np.float32))
    assert g.dtype == np.float32


@pytest.mark.parametrize(
    ("shape", "index"),
    [
        ((2, 1), (slice(2, 5),)),
        ((0, 3), (slice(None),)),
        ((2, 3), (slice(None), slice(3, None))),
        ((2, 3), (slice(1, 1), np.array([0, 1]))),
        ((3,), (np.zeros((0, 2), np.int32),)),
    ],
)
def test_an_empty_update_region_accepts_any_values(
    shape: tuple[int, ...], index: tuple[object, ...]
) -> None:
    """When the indexed region is empty, JAX returns the operand without checking the values'
    shape (even (5, 7) into a (0, 1) region); trellax raised a broadcasting ValueError."""
    x = jnp.arange(float(np.prod(shape))).reshape(shape)
    idx = tuple(jnp.asarray(i) if isinstance(i, np.ndarray) else i for i in index)
    for method in ("set", "add", "multiply", "min", "max"):
        for vals in (jnp.ones((5, 7)), jnp.ones((7,)), jnp.ones(())):
            out = getattr(x.at[idx], method)(vals)
            np.testing.assert_array_equal(out, x)
            assert out.dtype == x.dtype and out.shape == x.shape
            out_jit = trellax.jit(lambda x, v, m=method: getattr(x.at[idx], m)(v))(x, vals)
            np.testing.assert_array_equal(out_jit, x)


def test_a_non_empty_region_still_checks_the_values_shape() -> None:
    x = jnp.zeros((0,))
    with pytest.raises(ValueError, match="Incompatible shapes for scatter"):
        x.at[jnp.array([0, 1])].add(jnp.ones((7,)))
    with pytest.raises(ValueError, match="fewer dimensions"):
        jnp.zeros((3,)).at[1:].add(jnp.ones((1, 1, 2)))


def test_an_operand_error_comes_before_a_missing_derivative_rule() -> None:
    """``nextafter`` has no derivative rule; differentiating it with a complex operand raises
    JAX's dtype TypeError (checked first), not NotImplementedError."""
    x = jnp.ones((2,))
    z = jnp.array([1 + 1j, 2.0], jnp.complex64)
    with pytest.raises(TypeError, match="nextafter does not accept dtype complex64"):
        trellax.linearize(lambda a: lax.nextafter(a.astype(z.dtype), z), x)
    with pytest.raises(NotImplementedError, match="nextafter"):
        trellax.grad(lambda a: jnp.sum(jnp.nextafter(a, 2.0)))(x)


def test_jacfwd_of_an_empty_input_still_differentiates() -> None:
    """An empty input has an empty basis; the push-forward still runs (JAX: a batch of none),
    so a primitive without a derivative rule raises, and the Jacobian has shape out + in."""
    e = jnp.zeros((0, 2))
    with pytest.raises(NotImplementedError, match="nextafter"):
        trellax.jacfwd(lambda a: jnp.nextafter(a, 1.0))(e)
    assert trellax.jacfwd(lambda a: jnp.sin(a) * 2)(e).shape == (0, 2, 0, 2)
    total, aux = trellax.jacfwd(lambda a: (jnp.sum(a), 3), has_aux=True)(e)
    assert total.shape == (0, 2) and aux == 3


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("take", lambda x: jnp.take(x, jnp.array([], jnp.int32), axis=0)),
        ("take_along_axis", lambda x: jnp.take_along_axis(x, jnp.int32(0), axis=0)),
        ("put_along_axis", lambda x: jnp.put_along_axis(x, jnp.int32(0), 1.0, 0, inplace=False)),
        ("partition", lambda x: jnp.partition(x, 0, axis=0)),
        ("cross", lambda x: jnp.cross(x, x, axis=0)),
        ("sum", lambda x: jnp.sum(x, axis=0)),
        ("cumsum", lambda x: jnp.cumsum(x, axis=0)),
        ("flip", lambda x: jnp.flip(x, axis=0)),
    ],
)
def test_a_0d_array_has_no_axis_0(name: str, call: object) -> None:
    """Axis 0 of a 0-d array is out of bounds (JAX: ValueError, or IndexError where it indexes
    the shape; ``AxisError`` is both). ``take`` read ``shape[0]`` (a bare IndexError) and
    ``take_along_axis``/``put_along_axis``/``partition`` accepted the axis."""
    assert callable(call)
    with pytest.raises(ValueError, match="out of bounds"):
        call(jnp.float32(1.5))


def test_repeat_of_a_0d_array_ignores_the_axis() -> None:
    """JAX repeats a 0-d operand as one element whatever the axis; a count per element of
    more than one raises its ValueError."""
    x = jnp.float32(1.5)
    for axis in (0, -1, 1, -2, None):
        np.testing.assert_array_equal(jnp.repeat(x, 2, axis=axis), np.full(2, 1.5, np.float32))
        np.testing.assert_array_equal(jnp.repeat(x, jnp.array([3]), axis=axis), np.full(3, 1.5))
    with pytest.raises(ValueError, match="scalar parameter"):
        jnp.repeat(x, jnp.array([1, 2]), axis=0)
