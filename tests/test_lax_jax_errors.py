"""trellax.lax's errors for malformed arguments: the type and the words JAX gives (the words
JAX's own lax tests look for, learned by running JAX 0.10.2)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax

GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers

GATHER_CASES: list[tuple[tuple[int, ...], tuple[int, ...], Any, tuple[int, ...], str]] = [
    ((10, 5), (5, 2), GDN((1, 0), (), (0, 1)), (10, 5), "offset_dims in gather op must be sorted"),
    ((10, 5), (5, 2), GDN((1, 1), (), (0, 1)), (10, 5), "offset_dims in gather op must not repeat"),
    ((10, 5), (5, 2), GDN((0, 3), (), (0, 1)), (10, 5), "Offset dimension 1 in gather op is out"),
    ((10, 5), (5, 3), GDN((1,), (), (0, 1)), (10, 5), "Gather op has 2 elements in start_index"),
    ((10, 5), (5, 2), GDN((1,), (0,), (0, 2)), (1, 5), r"Invalid start_index_map; domain is \[0, "),
    ((10, 5), (5, 2), GDN((1,), (0,), (0, 0)), (1, 5), "start_index_map in gather op must not re"),
    (
        (10, 9, 8, 7, 6),
        (5, 4, 3, 2, 5),
        GDN((4,), (1, 0), (0, 1, 2, 3, 4)),
        (1, 1, 8, 7, 6),
        "collapsed_slice_dims in gather op must be sorted",
    ),
    ((10, 5), (5, 2), GDN((1,), (2,), (0, 1)), (1, 5), "Invalid collapsed_slice_dims set in ga"),
    ((10, 5, 3), (5, 2), GDN((1,), (0, 0), (0, 1)), (1, 1, 3), "collapsed_slice_dims in gather "),
    (
        (10, 5),
        (5, 2),
        GDN((1,), (0,), (0, 1), (0,), (0,)),
        (1, 5),
        "collapsed_slice_dims and operand_batching_dims in gather op must be disjoint",
    ),
    (
        (10, 5),
        (5, 2),
        GDN((1,), (0,), (0, 1)),
        (10, 5),
        "Gather op can only collapse slice dims with bound 1, but bound is 10 for index 0 at "
        "position 0",
    ),
    ((10, 5), (5, 2), GDN((0, 1), (), (0, 1)), (10,), "Gather op must have one slice size for "),
    ((10, 5), (5, 2), GDN((0,), (), (0, 1)), (10, 5), "All components of the offset index in a g"),
    ((10, 5), (5, 2), GDN((0, 1), (), (0, 1)), (11, 5), r"Slice size at index 0 in gather op is "),
    (
        (10, 5, 5),
        (10, 2),
        GDN((1,), (1,), (1, 2), (0,), (0,)),
        (1, 2, 5),
        "Gather op can only collapse slice dims with bound 1, but bound is 2 for index 1 at "
        "position 0",
    ),
    (
        (10, 5, 5),
        (9, 2),
        GDN((1,), (1,), (1, 2), (0,), (0,)),
        (1, 1, 5),
        "Gather op requires operand batching dimensions and indices batching dimensions to have "
        r"the same shape, got \(10,\) and \(9,\)",
    ),
    (
        (10, 5, 5),
        (10, 2),
        GDN((1,), (1,), (1, 2), (0,), (1,)),
        (1, 1, 5),
        "Gather op cannot have the index vector dimension as a batching dimension",
    ),
    (
        (10, 5, 5),
        (10, 2),
        GDN((1, 2), (1,), (1, 2), (0,), ()),
        (1, 1, 5),
        "Gather op requires equal numbers of operand_batching_dims and "
        r"start_indices_batching_dims, got \(0,\) and\(\)",
    ),
]


@pytest.mark.parametrize(("operand", "indices", "dn", "sizes", "msg"), GATHER_CASES)
def test_gather_dimension_number_errors(
    operand: tuple[int, ...], indices: tuple[int, ...], dn: Any, sizes: tuple[int, ...], msg: str
) -> None:
    with pytest.raises(TypeError, match=msg):
        lax.gather(np.ones(operand, np.int32), np.ones(indices, np.int32), dn, sizes)


SCATTER_CASES: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], Any, str]] = [
    ((10,), (2, 1), (2, 5, 5), SDN((1,), (0,), (0,)), "Updates tensor must be of rank 2; got 3."),
    (
        (10, 5),
        (2, 1),
        (2, 5, 5),
        SDN((2, 1), (), (0,)),
        "update_window_dims in scatter op must be ",
    ),
    ((10, 5), (2, 1), (2, 5, 5), SDN((1, 1), (), (0,)), "update_window_dims in scatter op must no"),
    ((10, 5), (2, 1), (2, 5, 5), SDN((1, 3), (), (0,)), "Invalid update_window_dims set in scat"),
    ((10, 5, 3), (2, 1), (2, 3), SDN((1,), (1, 1), (0,)), "inserted_window_dims in scatter op mus"),
    ((10, 5), (2, 1), (2, 5), SDN((1,), (2,), (0,)), "Invalid inserted_window_dims set in scatte"),
    ((10, 5), (2, 1), (2, 5), SDN((1,), (), (0,)), "Scatter op has window of size 1; doesn't mat"),
    ((10, 5), (2, 2), (2, 5), SDN((1,), (0,), (0,)), "Scatter op has 1 elements in scatter_dims"),
    ((10, 5), (2, 1), (2, 5), SDN((1,), (0,), (2,)), "Invalid scatter_dims_to_operand_dims mapp"),
    ((10, 5), (2, 2), (2,), SDN((), (0, 1), (0, 0)), "scatter_dims_to_operand_dims in scatter op"),
    (
        (10, 5),
        (2, 1),
        (2, 6),
        SDN((1,), (0,), (0,)),
        "Bounds of the window dimensions of updates must not exceed the bounds of the "
        "corresponding dimensions of operand. For dimension 1, updates bound is 6, operand bound "
        "is 5.",
    ),
    (
        (10, 5),
        (2, 1),
        (3, 5),
        SDN((1,), (0,), (0,)),
        "Bounds of the scatter dimensions of updates must be the same as the bounds of the "
        "corresponding dimensions of scatter indices. For scatter dimension 0, updates bound is "
        "3, indices bound is 2.",
    ),
    (
        (10, 5, 3),
        (10, 1),
        (10, 3),
        SDN((1,), (1,), (0,), (0,), (0,)),
        "scatter_dims_to_operand_dims and operand_batching_dims in scatter op must be disjoint",
    ),
    (
        (10, 5, 3),
        (9, 1),
        (9, 3),
        SDN((1,), (1,), (2,), (0,), (0,)),
        "Scatter op requires operand batching dimensions and indices batching dimensions",
    ),
]


@pytest.mark.parametrize(("operand", "indices", "updates", "dn", "msg"), SCATTER_CASES)
def test_scatter_dimension_number_errors(
    operand: tuple[int, ...], indices: tuple[int, ...], updates: tuple[int, ...], dn: Any, msg: str
) -> None:
    idx = np.zeros(indices, np.int32)
    with pytest.raises(TypeError, match=msg):
        lax.scatter(jnp.ones(operand), idx, jnp.ones(updates), dn)


def test_gather_and_scatter_well_formed_still_work() -> None:
    x = jnp.arange(10.0)
    idx = np.array([[2], [7]], np.int32)
    g = lax.gather(x, idx, GDN((), (0,), (0,)), (1,))
    assert g.tolist() == [2.0, 7.0]
    s = lax.scatter_add(x, idx, jnp.ones(2), SDN((), (0,), (0,)))
    assert s.tolist()[2] == 3.0 and s.tolist()[7] == 8.0


def test_dot_options_are_keyword_only() -> None:
    v = jnp.arange(5.0)
    with pytest.raises(TypeError, match=r"dot\(\) takes 2 positional arguments"):
        lax.dot(v, v, lax.Precision.DEFAULT)  # type: ignore[misc]
    assert float(lax.dot(v, v, precision=lax.Precision.HIGHEST)) == 30.0
    m = jnp.ones((2, 3, 4))
    out = lax.dot(m, m, dimension_numbers=(((2,), (2,)), ((0,), (0,))))
    assert out.shape == (2, 3, 3)
    with pytest.raises(ValueError, match="dimension_numbers must be specified"):
        lax.dot(m, m)


def test_top_k_refuses_axes_its_int32_indices_cannot_count() -> None:
    x = trellax.ShapeDtypeStruct((2**31 + 1,), jnp.bfloat16)
    with pytest.raises(ValueError, match="top_k returns int32 indices, which will overflow"):
        trellax.eval_shape(lambda x: lax.top_k(x, 100), x)


def test_broadcast_in_dim_takes_unordered_dimensions() -> None:
    x = np.arange(6.0).reshape(2, 3)
    out = lax.broadcast_in_dim(x, (3, 4, 2), (2, 0))
    assert out.shape == (3, 4, 2)
    np.testing.assert_array_equal(np.asarray(out), np.broadcast_to(x.T[:, None, :], (3, 4, 2)))


@pytest.mark.parametrize(
    ("inshape", "outshape", "dims", "msg"),
    [
        ((2,), (2, 2), (0, 1), "broadcast_dimensions must have length equal to operand ndim"),
        ((2, 2), (2,), (0, 1), "target broadcast shape must have equal or higher rank"),
        ((2,), (2, 3), (2,), "broadcast_dimensions must be a subset of output dimensions"),
        ((2,), (3,), (0,), "operand dimension sizes must either be 1, or be equal to"),
        ((2, 2), (2, 2), (0, 0), "broadcast_dimensions must not contain duplicates"),
    ],
)
def test_broadcast_in_dim_errors(
    inshape: tuple[int, ...], outshape: tuple[int, ...], dims: tuple[int, ...], msg: str
) -> None:
    with pytest.raises(TypeError, match=msg):
        lax.broadcast_in_dim(np.ones(inshape, np.float32), outshape, dims)


def test_argmin_argmax_errors() -> None:
    with pytest.raises(ValueError, match="require non-empty reduced dimension"):
        lax.argmax(np.ones((0, 2)), 0, np.int32)
    with pytest.raises(ValueError, match="Invalid axis 2 for operand"):
        lax.argmin(np.ones((2, 3)), 2, np.int32)


def test_reduce_and_reduce_window_errors() -> None:
    with pytest.raises(ValueError, match="same tree structure as init_values"):
        lax.reduce({"x": np.ones(5)}, {"y": 0.0}, lambda a, b: a, [0])
    with pytest.raises(ValueError, match="reduce found non-scalar initial value"):
        lax.reduce({"x": np.ones(5)}, {"x": np.ones(5)}, lambda a, b: a, [0])
    with pytest.raises(ValueError, match="duplicate value in 'axes'"):
        lax.reduce(np.arange(3), 0, lax.add, (0, 0))
    with pytest.raises(TypeError, match="must have every element be strictly positive"):
        lax.reduce_window(np.ones((1,)), 0.0, lax.add, (0,), (1,), "VALID")
    with pytest.raises(TypeError, match=r"init_values have shapes \[\(1,\)\]"):
        lax.reduce_window(np.ones((4,)), np.zeros((1,)), lax.max, (2,), (2,), "VALID")
    with pytest.raises(ValueError, match="output must have the same tree structure"):
        lax.reduce_window(np.ones((1,)), 0.0, lambda x, y: [x + y], (1,), (1,), "VALID")
