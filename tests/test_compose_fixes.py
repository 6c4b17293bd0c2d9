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
    """``jnp.nextafter`` has no derivative rule; differentiating it with a complex operand raises
    JAX's dtype TypeError (a jnp function is traced before it is differentiated), not
    NotImplementedError. A bare ``lax.nextafter`` under ``linearize`` reports the missing rule
    first, as JAX's primitive does."""
    x = jnp.ones((2,))
    z = jnp.array([1 + 1j, 2.0], jnp.complex64)
    with pytest.raises(TypeError, match="nextafter does not accept dtype complex64"):
        trellax.linearize(lambda a: jnp.nextafter(a.astype(z.dtype), z), x)
    with pytest.raises(NotImplementedError, match="nextafter"):
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


def test_a_0d_scatter_min_max_ending_at_zero() -> None:
    """A 0-d operand whose scattered min/max ends at zero: the sign pass got a NumPy scalar,
    not an array (TypeError); JAX gives the signed zero of its max/min order."""
    assert not bool(jnp.array(False).at[()].min(1e10))
    assert np.signbit(np.asarray(jnp.float32(0.0).at[()].min(-0.0)))
    assert not np.signbit(np.asarray(jnp.float32(-0.0).at[()].max(0.0)))
    f = trellax.vmap(trellax.vmap(lambda x, b: b.at[()].min(1e10), (0, None)), (0, None))
    out = f(jnp.ones((1, 3)), jnp.array(False))
    assert out.shape == (1, 3) and not np.asarray(out).any()


def test_an_integer_on_an_empty_axis_beside_an_index_array() -> None:
    """With an index array present JAX gathers an integer as one more index array (no static
    bounds check): an empty result is returned, a non-empty one is the gather's TypeError, and a
    scatter there changes nothing. Alone, the integer is an IndexError."""
    e = jnp.zeros((0, 1, 4))
    assert e.at[0, jnp.array([-2]), 2:5:-1].get().shape == (1, 0)
    assert e[0, jnp.array([], jnp.int32)].shape == (0, 4)
    with pytest.raises(TypeError, match="Slice size"):
        jnp.zeros((0, 3))[0, jnp.array([0])]
    out = jnp.zeros((0, 3)).at[0, jnp.array([0])].set(1.0)
    assert out.shape == (0, 3)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
        e[0]


def test_the_gradient_of_var_overflows_as_jax_does() -> None:
    """``var`` squares with the ``square`` primitive (derivative ``2 * c * t``) as JAX does, so a
    centred value beyond half the float range gives JAX's infinite gradient rather than the
    product rule's finite one."""
    x = jnp.array([1.0, -2.828125, -3.3895313892515355e38], jnp.bfloat16)
    g = np.asarray(trellax.grad(lambda x: jnp.var(x))(x)).astype(np.float32)
    assert np.isinf(g[0]) and np.isinf(g[1]) and np.isnan(g[2])
    # ordinary values are unchanged: 2 (x - mean) / n
    y = jnp.array([1.0, 2.0, 4.0])
    np.testing.assert_allclose(trellax.grad(jnp.var)(y), 2 * (np.array([1, 2, 4]) - 7 / 3) / 3)


def test_bool_scatter_add_checks_the_region_and_shapes_first() -> None:
    """JAX's order for a bool ``.at[].add``/``.multiply``: an empty region returns the operand,
    then a values shape that does not broadcast is a ValueError, and only then is the bool
    combination refused (TypeError)."""
    b = jnp.zeros((4, 3), bool)
    assert b.at[4:].add(True).dtype == np.dtype(bool)
    assert b.at[4:].add(jnp.ones((5, 7), bool)).shape == (4, 3)
    with pytest.raises(ValueError):
        b.at[0:-1].add(b)
    with pytest.raises(ValueError):
        b.at[0:-1].multiply(b)
    with pytest.raises(TypeError, match="add does not accept dtype bool"):
        b.at[0].add(True)


def test_grad_through_a_while_loop_whose_carry_gets_no_tangent() -> None:
    """The body reads the input only in dead code: JAX's JVP of the loop finds (by a fixpoint)
    that no carry gets a tangent, so reverse mode has no loop to transpose and the gradient is
    zeros. A carry that does depend on the input still refuses reverse mode."""
    c = jnp.float32(2.0)

    def g(x: jnp.ndarray) -> jnp.ndarray:
        def body(st: tuple[jnp.ndarray, jnp.ndarray]) -> tuple[jnp.ndarray, jnp.ndarray]:
            i, acc = st
            _ = jnp.abs(jnp.sum(x))  # reads x, used by nothing
            return i + 1, jnp.where(i == 0, jnp.broadcast_to(c, (2,)), acc)

        init = (jnp.int32(0), jnp.broadcast_to(c, (2,)))
        return jnp.sum(lax.while_loop(lambda st: st[0] < 2, body, init)[1])

    np.testing.assert_array_equal(trellax.grad(g)(jnp.ones(3)), np.zeros(3, np.float32))

    def h(x: jnp.ndarray) -> jnp.ndarray:
        def body(st: tuple[jnp.ndarray, jnp.ndarray]) -> tuple[jnp.ndarray, jnp.ndarray]:
            i, acc = st
            return i + 1, acc + jnp.sum(x)

        return lax.while_loop(lambda st: st[0] < 2, body, (jnp.int32(0), jnp.float32(0)))[1]

    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        trellax.grad(h)(jnp.ones(3))
    # forward mode through the same loop: the tangent of 2 * sum(x)
    _, t = trellax.jvp(h, (jnp.ones(3),), (jnp.ones(3),))
    assert float(t) == 6.0
