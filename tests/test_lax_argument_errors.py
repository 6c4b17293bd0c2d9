"""``lax`` argument checks raise JAX 0.10.2's error class for every primitive of a family, not
only the call ``tests/test_edge_sweep.py`` sweeps (issue 24): bad axes, dimension numbers, index
counts, window and dilation arguments, shapes given as arrays; and the values JAX gives for
``index_take``'s wrapped indices, gathers of no indices, the convolution shape helpers, and the
``nn`` activations of integer and bool inputs (dtype and weak flag). The classes were observed in
JAX 0.10.2 (``/tmp/jaxref``); each case says what JAX raises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax, nn

v = jnp.array([0.5, -1.5, 2.0], jnp.float32)
m23 = jnp.arange(6, dtype=jnp.float32).reshape(2, 3) / 4
r3 = jnp.ones((2, 2, 2), jnp.float32)
bv = jnp.array([True, False, True])
x14 = jnp.ones((1, 1, 4))
w112 = jnp.ones((1, 1, 2))


def _dot(x: Any, y: Any, dn: Any) -> Callable[[], Any]:
    return lambda: lax.dot_general(x, y, dn)


# (call, JAX's class)
ERRORS: list[tuple[Callable[[], Any], type[Exception]]] = [
    # axes: rev and dot_general TypeError, logical reductions IndexError (repeated: ValueError)
    (lambda: lax.rev(v, (1,)), TypeError),
    (lambda: lax.rev(v, (-2,)), TypeError),
    (lambda: lax.rev(m23, (1, 1)), TypeError),
    (lambda: lax.reduce_and(bv, (1,)), IndexError),
    (lambda: lax.reduce_or(bv, (-2,)), IndexError),
    (lambda: lax.reduce_xor(bv, (0, 0)), ValueError),
    (lambda: lax.reduce_sum(v, (1,)), ValueError),
    (_dot(v, v, (((1,), (0,)), ((), ()))), TypeError),
    (_dot(m23, m23, (((1,), (5,)), ((), ()))), TypeError),
    (_dot(v, v, (((0, 0), (0, 0)), ((), ()))), TypeError),
    (_dot(v, v, (((0,), (0,)), ((0,), (0,)))), TypeError),
    (_dot(r3, r3, (((2,), (1,)), ((0,), (1,)))), TypeError),
    (_dot(r3, r3, (((2,), (2,)), ((0,), ()))), TypeError),
    (lambda: lax.ragged_dot(v, jnp.ones((2, 2, 3)), jnp.array([1, 2])), TypeError),
    (lambda: lax.ragged_dot(jnp.ones((2, 2)), jnp.ones((2, 3)), jnp.array([1, 1])), TypeError),
    # shapes and index counts
    (lambda: lax.reshape(v, (2,)), ValueError),
    (lambda: trellax.jit(lambda x: lax.reshape(x, (4,)))(v), ValueError),
    (lambda: lax.reshape(m23, (6,), (0,)), TypeError),
    (lambda: lax.reshape(m23, (6,), (0, 0)), TypeError),
    (lambda: trellax.jit(lambda x: lax.slice(x, (0,), (1,)))(m23), TypeError),
    (lambda: lax.slice(m23, (0, 0), (1, 1), (1,)), TypeError),
    (lambda: lax.dynamic_slice(v, (0, 0), (1, 1)), ValueError),
    (lambda: lax.dynamic_slice(v, (), ()), ValueError),
    (lambda: lax.dynamic_update_slice(v, jnp.ones(2), (0, 0)), ValueError),
    (lambda: lax.concatenate([v, v], 1), TypeError),
    (lambda: lax.concatenate([jnp.float32(1), jnp.float32(2)], 0), TypeError),
    (lambda: lax.iota(jnp.int32, -1), TypeError),
    (lambda: lax.iota(jnp.int32, 2.5), TypeError),
    (lambda: lax.broadcasted_iota(jnp.int32, (2, 3), 2), ValueError),
    (lambda: lax.broadcasted_iota(jnp.int32, (), 0), ValueError),
    (lambda: lax.bitcast_convert_type(jnp.zeros((3,), jnp.int16), jnp.float32), ValueError),
    (lambda: lax.broadcast_to_rank(v, jnp.float32(2)), TypeError),
    (lambda: lax.broadcast_shapes((-1,)), TypeError),
    (lambda: lax.shape_as_value(v), TypeError),
    (lambda: lax.approx_max_k(v, 0), ValueError),
    (lambda: lax.approx_min_k(v, 0), ValueError),
    (lambda: lax.approx_max_k(v, 1, 1), IndexError),
    # index_take: one gather, so gather's classes
    (lambda: lax.index_take(v, (), ()), ValueError),
    (lambda: lax.index_take(v, (jnp.array([0]),), (1,)), IndexError),
    (lambda: lax.index_take(v, (jnp.array([0]), jnp.array([0])), (0,)), TypeError),
    (lambda: lax.index_take(m23, (jnp.array([0]), jnp.array([0])), (1, 0)), TypeError),
    (lambda: lax.index_take(v, (jnp.array([0.0]),), (0,)), ValueError),
    # convolutions and windows
    (lambda: lax.conv(v, v, (1,), "SAME"), IndexError),
    (lambda: lax.conv_general_dilated(x14, w112, (1,), [(0, 0)], rhs_dilation=(0,)), TypeError),
    (lambda: lax.conv_general_dilated(x14, w112, (1,), [(0, 0)], lhs_dilation=(-1,)), TypeError),
    (lambda: lax.conv_general_dilated(x14, w112, (1,), [(0, 0), (0, 0)]), TypeError),
    (lambda: lax.conv_general_dilated(x14, w112, (0,), [(0, 0)]), ValueError),
    (lambda: lax.reduce_window(v, 0.0, lax.add, (2, 2), (1, 1), "VALID"), TypeError),
    (lambda: lax.reduce_window(v, 0.0, lax.add, (2,), (1, 1), "VALID"), TypeError),
    (lambda: lax.reduce_window(v, 0.0, lax.add, (2,), (1,), "VALID", (0,)), TypeError),
    (lambda: lax.reduce_window(v, 0.0, lax.add, (2,), (1,), "VALID", None, (1, 1)), ValueError),
    (lambda: lax.conv_shape_tuple((1, 1, 4), (1, 1, 2), (1,), [(0, 0), (0, 0)]), TypeError),
    (lambda: lax.conv_shape_tuple((1, 1, 4), (1, 1, 2), (1,), [(-5, 0)]), ValueError),
    (
        lambda: lax.conv_general_shape_tuple(
            (1, 1, 4),
            (1, 1, 2),
            (1,),
            "VALID",
            lax.conv_dimension_numbers((1, 1, 4), (1, 1, 2), None),
        ),
        TypeError,
    ),
    # loops over a 0-d array: JAX indexes its missing leading axis
    (lambda: lax.scan(lambda c, x: (c, x), 0.0, jnp.float32(1)), IndexError),
    (lambda: lax.map(lambda x: x * 2, jnp.float32(1)), IndexError),
    (lambda: nn.log1mexp(jnp.array(True)), TypeError),
]


@pytest.mark.parametrize("call, err", ERRORS)
def test_jax_error_class(call: Callable[[], Any], err: type[Exception]) -> None:
    with pytest.raises(err) as info:
        call()
    assert not type(info.value).__module__.startswith("numpy"), "a NumPy exception leaks out"
    assert str(info.value), "the error says what is wrong"


def test_negative_axes_stay_a_superset() -> None:
    # docs/semantics.md: lax counts negative axes from the end where JAX refuses them
    np.testing.assert_array_equal(lax.rev(v, (-1,)), [2.0, -1.5, 0.5])
    assert lax.dot_general(m23, m23, (((-1,), (1,)), ((), ()))).shape == (2, 2)
    np.testing.assert_array_equal(lax.broadcasted_iota(jnp.int32, (2, 3), -1)[1], [0, 1, 2])


def test_index_take_wraps_indices_modulo_the_axis_size() -> None:
    # JAX: indices % size (was clamped here: a silently wrong value for 4, -4, 7)
    idx = jnp.array([4, -1, 5, -4], jnp.int32)
    np.testing.assert_array_equal(lax.index_take(v, (idx,), (0,)), [-1.5, 2.0, 2.0, 2.0])
    got = lax.index_take(m23, (jnp.array([4, -1]), jnp.array([1, 7])), (0, 1))
    np.testing.assert_array_equal(got, [0.25, 1.0])
    jitted = trellax.jit(lambda x: lax.index_take(x, (jnp.array([4, -1]),), (0,)))(v)
    np.testing.assert_array_equal(jitted, [-1.5, 2.0])
    mapped = trellax.vmap(lambda x: lax.index_take(x, (jnp.array([4, -1]),), (0,)))(m23)
    np.testing.assert_array_equal(mapped, [[0.25, 0.5], [1.0, 1.25]])
    rows = lax.index_take(m23, (jnp.array([3, -1]),), (1,))
    np.testing.assert_array_equal(rows, [[0.0, 0.75], [0.5, 1.25]])


def test_gather_of_no_indices_skips_the_slice_bound() -> None:
    dn = lax.GatherDimensionNumbers((), (0,), (0,))
    out = lax.gather(jnp.zeros((0,)), jnp.zeros((0, 1), jnp.int32), dn, (1,))
    assert out.shape == (0,) and out.dtype == jnp.float32
    dn2 = lax.GatherDimensionNumbers((1,), (0,), (0,))
    out2 = lax.gather(jnp.zeros((0, 3)), jnp.zeros((0, 1), jnp.int32), dn2, (1, 4))
    assert out2.shape == (0, 4)
    with pytest.raises(TypeError, match="Slice size"):  # some index: the bound holds
        lax.gather(jnp.zeros((0,)), jnp.zeros((2, 1), jnp.int32), dn, (1,))


def test_shapes_given_as_arrays() -> None:
    assert lax.broadcast(v, jnp.zeros((0,))).shape == (3,)
    assert lax.broadcast(v, np.array([2])).shape == (2, 3)
    assert lax.reshape(v, jnp.array([3, 1])).shape == (3, 1)
    assert lax.broadcast_in_dim(jnp.float32(1), jnp.zeros((0,)), ()).shape == ()
    np.testing.assert_array_equal(lax.broadcasted_iota(jnp.int32, jnp.array([2]), 0), [0, 1])
    with pytest.raises(TypeError):  # a float size
        lax.broadcast(v, jnp.array([2.0]))


def test_conv_shape_helpers_return_numpy_int64_as_jax() -> None:
    out = lax.conv_shape_tuple((1, 1, 4), (1, 1, 5), (1,), "VALID")
    assert out == (1, 1, 0) and type(out[0]) is int and type(out[2]) is np.int64
    general = lax.conv_general_shape_tuple(
        (1, 5, 5, 3), (3, 3, 3, 4), (2, 2), "SAME", ("NHWC", "HWIO", "NHWC")
    )
    assert general == (1, 3, 3, 4) and all(type(d) is np.int64 for d in general)
    transposed = lax.conv_transpose_shape_tuple(
        (1, 4, 1), (2, 1, 1), (2,), [(1, 2)], ("NHC", "HIO", "NHC")
    )
    assert transposed == (1, 9, 1) and all(type(d) is np.int64 for d in transposed)


@pytest.mark.parametrize(
    "fun, x, dtype, weak",
    [
        (nn.sparse_plus, jnp.array(3, jnp.int32), jnp.float32, True),
        (nn.sparse_plus, jnp.array(True), jnp.float32, True),
        (nn.sparse_plus, jnp.array([-2, 0, 3], jnp.int8), jnp.float32, True),
        (nn.sparse_plus, jnp.array([0.5], jnp.float16), jnp.float16, False),
        (nn.sparse_sigmoid, jnp.array(3, jnp.int32), jnp.float32, True),
        (nn.sparse_sigmoid, jnp.array(True), jnp.float32, True),
        (nn.sparse_sigmoid, jnp.array([0.5], jnp.bfloat16), jnp.bfloat16, False),
        (nn.squareplus, jnp.array(True), jnp.float32, False),
        (nn.squareplus, jnp.array([1, 2], jnp.uint8), jnp.float32, False),
        (nn.squareplus, 2, jnp.float32, True),
        (nn.log1mexp, jnp.array(3, jnp.int32), jnp.float32, False),
    ],
)
def test_activation_dtypes_of_int_and_bool_inputs(
    fun: Callable[[Any], Any], x: Any, dtype: Any, weak: bool
) -> None:
    for f in (fun, trellax.jit(fun)):
        out = f(x)
        assert out.dtype == dtype and out.weak_type == weak, (fun.__name__, x, out)


def test_fftfreq_of_a_bool_size() -> None:
    np.testing.assert_array_equal(jnp.fft.fftfreq(jnp.array(True)), [0.0])
    np.testing.assert_array_equal(jnp.fft.rfftfreq(jnp.array(True)), [0.0])
    with pytest.raises(TypeError):  # a float size (docs/semantics.md)
        jnp.fft.fftfreq(jnp.float32(0.5))
