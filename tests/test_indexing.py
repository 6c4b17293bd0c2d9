"""``x[idx]`` and ``x.at[idx].<op>(v)``: NumPy's index forms with JAX's rules (clamped gathers,
dropped out-of-bounds updates, dtype and weak flag of the operand kept; reference §3.3.4, §3.3.8)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax

X_NP = np.arange(24, dtype=np.int16).reshape(2, 3, 4)


def X():
    return lax.reshape(tnp.arange(24, dtype="int16"), (2, 3, 4))


def V():
    return tnp.arange(10, dtype="int8")


def arr(v):
    return tnp.asarray(v, "int32")


# -- reading: the forms NumPy supports give NumPy's result --------------------------------------------

NUMPY_INDICES = [
    0,
    -1,
    (1, 2),
    (1, 2, 3),
    (-1, -1, -1),
    slice(None),
    slice(1, None),
    slice(None, None, -1),
    (slice(None), 1),
    (slice(None), slice(None, None, 2), -1),
    (Ellipsis, 0),
    (0, Ellipsis),
    (Ellipsis,),
    None,
    (None, 0),
    (0, None, Ellipsis, None),
    (slice(0, 5), None, slice(None)),
    (slice(10, 20),),
    (slice(-100, 100),),
    np.array([0, 1, 1]),
    (slice(None), [2, 0]),
    ([0, 1], [2, 0]),
    ([0, 1], slice(None), [3, 1]),
    (slice(None), [0, 2], [1, 3]),
    (0, [2, 0], slice(1, 3)),
    (Ellipsis, [3, 0]),
    ([[0], [1]], [0, 2]),
    (np.array([[1]]), None),
    (slice(None, None, -1), [0, 2]),
    ([1, 0], None, [0, 2]),
    (slice(None), [0, 1], None, [1, 2]),
    ([0, 1], slice(None, None, -1), 2),
    (slice(1, None, 2), [[0], [1]], slice(3, 0, -2)),
    (1, slice(None), [[0, 3], [1, 2]]),
    (Ellipsis, None, [-1, -4]),
]


def _np_index(idx):
    def to_np(i):
        return np.asarray(i) if isinstance(i, list) else i

    return tuple(map(to_np, idx)) if isinstance(idx, tuple) else to_np(idx)


@pytest.mark.parametrize("idx", NUMPY_INDICES, ids=repr)
def test_getitem_and_updates_match_numpy_eagerly_and_under_jit(idx):
    """Reads (one gather, or rev/slice/reshape for basic indices) and ``.at[]`` writes (one
    scatter) agree with NumPy, including repeated indices for ``add``, under ``jit`` too."""
    np_idx = _np_index(idx)
    expected = X_NP[np_idx]
    traced = trellax.jit(lambda x: x[idx])(X())
    np.testing.assert_array_equal(np.asarray(traced), expected)
    assert traced.shape == expected.shape
    values = np.arange(expected.size, dtype=np.int16).reshape(expected.shape) + 100
    want_set = X_NP.copy()
    want_set[np_idx] = values
    want_add = X_NP.copy()
    np.add.at(want_add, np_idx, values)
    for fn in (lambda x, v: x.at[idx].add(v), trellax.jit(lambda x, v: x.at[idx].add(v))):
        np.testing.assert_array_equal(np.asarray(fn(X(), tnp.asarray(values))), want_add)
    items = idx if isinstance(idx, tuple) else (idx,)
    arrays = [np.asarray(i) for i in items if isinstance(i, (list, np.ndarray))]
    if all(len(np.unique(a)) == a.size for a in arrays):  # set with repeats: any write may win
        out = X().at[idx].set(tnp.asarray(values))
        np.testing.assert_array_equal(np.asarray(out), want_set)


@pytest.mark.parametrize("idx", NUMPY_INDICES, ids=repr)
def test_getitem_matches_numpy(idx):
    def to_np(i):
        return np.asarray(i) if isinstance(i, list) else i

    np_idx = tuple(map(to_np, idx)) if isinstance(idx, tuple) else to_np(idx)
    expected = X_NP[np_idx]
    out = X()[idx]
    assert out.dtype == np.int16 and not out.weak_type
    assert out.shape == expected.shape
    np.testing.assert_array_equal(np.asarray(out), expected)


@pytest.mark.parametrize(
    "idx",
    [
        lambda: tnp.asarray([0, 1, 1]),
        lambda: (slice(None), tnp.asarray([2, 0], "uint8")),
        lambda: (tnp.asarray([0, 1]), tnp.asarray([2, 0])),
        lambda: tnp.asarray(1),
        lambda: (0, tnp.asarray(2, "int8")),
    ],
)
def test_getitem_with_trellax_integer_arrays(idx):
    i = idx()

    def to_np(j):
        return np.asarray(j) if isinstance(j, trellax.Array) else j

    np_i = tuple(map(to_np, i)) if isinstance(i, tuple) else to_np(i)
    np.testing.assert_array_equal(np.asarray(X()[i]), X_NP[np_i])


@pytest.mark.parametrize(
    "index, expected",
    [
        ([0, -1, 20, -20], [0, 9, 9, 0]),  # out of bounds: clamped, negatives count from the end
        ([-10, -11, 9, 10], [0, 0, 9, 9]),
        ([100], [9]),
    ],
)
def test_integer_array_gather_clamps_out_of_bounds(index, expected):
    assert V()[arr(index)].tolist() == expected
    assert V().at[arr(index)].get().tolist() == expected


@pytest.mark.parametrize(
    "idx, message",
    [
        ((0, 0), "ndices"),
        ((Ellipsis, Ellipsis), "single ellipsis"),
        (1.5, "integer or boolean"),
        ("a", "string indexing"),
    ],
)
def test_getitem_errors(idx, message):
    with pytest.raises((IndexError, TypeError), match=message):
        V()[idx]


@pytest.mark.parametrize(
    "idx, expected", [(10, 9), (-11, 0), (np.int32(99), 9), (tnp.asarray(-50), 0)]
)
def test_static_integer_out_of_bounds_clamps(idx, expected):
    # JAX 0.10.2 clamps a static out-of-bounds integer (eagerly and under jit) ...
    assert int(V()[idx]) == expected
    assert int(trellax.jit(lambda v: v[idx])(V())) == expected
    assert int(V().at[idx].get()) == expected
    # ... fills it in "fill" mode, drops its updates, and refuses it on an empty axis
    assert int(V().at[idx].get(mode="fill", fill_value=-1)) == -1
    assert V().at[idx].set(100).tolist() == V().tolist()
    with pytest.raises(IndexError, match="size 0"):
        tnp.zeros((2, 0))[:, 0]


def test_float_array_index_is_refused():
    with pytest.raises(TypeError, match="integer or boolean type, got indexer with type float32"):
        V()[tnp.asarray([1.0])]


def test_zero_step_slice():
    with pytest.raises(ValueError, match="step"):
        V()[::0]


@pytest.mark.parametrize(
    "idx",
    [0, slice(1, 3), None, (Ellipsis, None), lambda: arr([0, 0])],
    ids=["int", "slice", "None", "ellipsis", "int-array"],
)
def test_getitem_keeps_weak_flag(idx):
    w = tnp.full((3,), 2.0)
    out = w[idx() if callable(idx) else idx]
    assert (out.dtype, out.weak_type) == (np.float32, True)


def test_basic_getitem_shares_the_buffer_without_exposing_it():
    x = tnp.arange(6.0)
    y = x[1:4]
    with pytest.raises(ValueError, match="read-only"):
        np.asarray(y)[0] = 100
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_a_list_as_the_whole_index_is_refused_as_in_jax() -> None:
    """``x[[1, 0]]`` is JAX's TypeError (NumPy once read a list as a tuple of indices); a list
    inside a tuple index, or an array, is fine."""
    x = V()
    for bad in ([1, 0], [True, False] * 5):
        with pytest.raises(TypeError, match="non-tuple sequence"):
            x[bad]
        with pytest.raises(TypeError, match="non-tuple sequence"):
            x.at[bad].set(0)
    np.testing.assert_array_equal(np.asarray(x[tnp.asarray([1, 0])]), np.asarray(x)[[1, 0]])


# -- boolean masks (eager only) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "mask",
    [
        lambda x: x > 4,
        lambda x: np.asarray(x) % 2 == 0,
        lambda x: np.asarray([True, False] * 5),
        lambda x: tnp.zeros(10, "bool"),
    ],
)
def test_boolean_mask_1d(mask):
    x = V()
    m = mask(x)
    expected = np.asarray(x)[np.asarray(m, dtype=bool)]
    out = x[m]
    assert out.dtype == np.int8
    np.testing.assert_array_equal(np.asarray(out), expected)


def test_boolean_mask_nd_and_mixed():
    x = X()
    np.testing.assert_array_equal(np.asarray(x[x > 10]), X_NP[X_NP > 10])
    m = np.array([True, False, True])
    np.testing.assert_array_equal(np.asarray(x[:, m]), X_NP[:, m])
    np.testing.assert_array_equal(np.asarray(x[1, tnp.asarray(m)]), X_NP[1, m])


def test_boolean_mask_under_jit_is_refused():
    from trellax._src.core.errors import NonConcreteBooleanIndexError

    with pytest.raises(NonConcreteBooleanIndexError, match="where"):
        trellax.jit(lambda x: x[x > 0])(tnp.ones(3))


# -- .at[] updates ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, index, value, expected",
    [
        ("set", 0, 100, [100, 1, 2, 3, 4]),
        ("set", -1, 7, [0, 1, 2, 3, 7]),
        ("set", slice(1, 3), 9, [0, 9, 9, 3, 4]),
        ("set", slice(None, None, 2), [7, 8, 9], [7, 1, 8, 3, 9]),
        ("set", [0, 2], [5, 6], [5, 1, 6, 3, 4]),
        ("set", [1, 20], 7, [0, 7, 2, 3, 4]),  # out-of-bounds update dropped
        ("set", [-1], 7, [0, 1, 2, 3, 7]),
        ("set", [-6, 5, 99], 7, [0, 1, 2, 3, 4]),
        ("add", 1, 10, [0, 11, 2, 3, 4]),
        ("add", [1, 1, 1], 1, [0, 4, 2, 3, 4]),  # duplicates accumulate
        ("add", [1, 7], 5, [0, 6, 2, 3, 4]),
        ("subtract", 2, 5, [0, 1, -3, 3, 4]),
        ("multiply", slice(2, 4), 3, [0, 1, 6, 9, 4]),
        ("multiply", [4, 4], 2, [0, 1, 2, 3, 16]),
        ("min", 3, -5, [0, 1, 2, -5, 4]),
        ("min", 3, 50, [0, 1, 2, 3, 4]),
        ("max", [0, 1], 2, [2, 2, 2, 3, 4]),
        ("power", 3, 2, [0, 1, 2, 9, 4]),
    ],
)
def test_at_updates(method, index, value, expected):
    x = tnp.arange(5, dtype="int16")
    idx = arr(index) if isinstance(index, list) else index
    value = tnp.asarray(value, "int16") if isinstance(value, list) else value
    out = getattr(x.at[idx], method)(value)
    assert (out.dtype, out.weak_type) == (np.int16, False)
    assert out.tolist() == expected
    assert x.tolist() == [0, 1, 2, 3, 4]  # the operand is untouched


def test_at_divide_keeps_dtype():
    x = tnp.asarray([8.0, 6.0], "float16")
    out = x.at[0].divide(4)
    assert (out.dtype, out.tolist()) == (np.float16, [2.0, 6.0])


def test_at_updates_with_a_boolean_mask():
    x = V()
    assert x.at[x > 5].set(0).tolist() == [0, 1, 2, 3, 4, 5, 0, 0, 0, 0]
    assert x.at[x < 2].add(10).tolist() == [10, 11, 2, 3, 4, 5, 6, 7, 8, 9]


def test_at_2d_updates():
    m = tnp.zeros((2, 3), "float32")
    out = m.at[:, 0].set(tnp.asarray([1.0, 2.0]))
    assert out.tolist() == [[1, 0, 0], [2, 0, 0]]
    out = m.at[1].add(tnp.asarray([1.0, 2.0, 3.0]))
    assert out.tolist() == [[0, 0, 0], [1, 2, 3]]
    out = m.at[arr([0, 1]), arr([2, 0])].set(5.0)
    assert out.tolist() == [[0, 0, 5], [5, 0, 0]]


def test_at_update_shape_mismatch():
    with pytest.raises(ValueError, match=r"(?i)shape"):
        tnp.zeros((2, 3)).at[:, 0].set(tnp.asarray([1.0, 2.0, 3.0]))


@pytest.mark.parametrize(
    "make, value, dtype, weak",
    [
        (lambda: tnp.full((3,), 2.0), lambda: tnp.ones((), "float32"), "float32", True),
        (lambda: tnp.full((3,), 2.0), lambda: 5, "float32", True),
        (lambda: tnp.full((3,), 2), lambda: 5, "int32", True),
        (lambda: tnp.ones(3, "float16"), lambda: tnp.ones((), "float32"), "float16", False),
        (lambda: tnp.ones(3, "bfloat16"), lambda: 1.5, "bfloat16", False),
        (lambda: tnp.ones(3, "int8"), lambda: 1000, "int8", False),
        (lambda: tnp.ones(3, "uint8"), lambda: -1, "uint8", False),
        (lambda: tnp.ones(3, "bool"), lambda: False, "bool", False),
    ],
)
@pytest.mark.parametrize("method", ["set", "add", "multiply", "min", "max"])
def test_at_keeps_operand_dtype_and_weak_flag(make, value, dtype, weak, method):
    if dtype == "bool" and method in ("add", "multiply"):  # JAX refuses these for bool
        with pytest.raises(TypeError, match="bool"):
            getattr(make().at[0], method)(value())
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        out = getattr(make().at[0], method)(value())
    assert (out.dtype, out.weak_type) == (np.dtype(dtype), weak)


@pytest.mark.parametrize(
    ("method", "value", "want"),
    [
        ("add", 2, [True, True, True]),
        ("add", 0.5, [True, True, True]),
        ("add", 0, [True, False, True]),
        ("add", 1j, [True, False, True]),  # back to bool through the real part, as XLA's cast
        ("multiply", 0, [True, False, False]),
        ("multiply", 1j, [True, False, False]),
        ("multiply", 2, [True, False, True]),
    ],
)
def test_at_add_multiply_on_bool_with_non_bool_values(method, value, want):
    """JAX refuses a bool add/mul only when the values are bool too; with int, float or complex
    values the scatter combines in the promoted dtype and casts back (fuzzer seed 435)."""
    x = tnp.asarray([True, False, True])
    for f in (
        lambda x: getattr(x.at[1:], method)(value),
        trellax.jit(lambda x: getattr(x.at[1:], method)(value)),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            out = f(x)
        assert out.dtype == np.bool_ and out.tolist() == want
    with pytest.raises(TypeError, match="bool"):
        getattr(x.at[1:], method)(True)


def test_at_set_wraps_python_ints_like_jax():
    assert tnp.ones(2, "int8").at[0].set(1000).tolist() == [-24, 1]
    assert tnp.ones(2, "uint8").at[0].set(-1).tolist() == [255, 1]


@pytest.mark.parametrize(
    "make, value, src, dst",
    [
        (lambda: tnp.ones(3, "int8"), lambda: 2.5, "float32", "int8"),
        (lambda: tnp.ones(3, "int8"), lambda: tnp.asarray(2.0), "float32", "int8"),
        (lambda: tnp.ones(3, "int8"), lambda: np.float32(2), "float32", "int8"),
        (lambda: tnp.ones(3, "int8"), lambda: tnp.ones((), "int32"), "int32", "int8"),
        (lambda: tnp.ones(3, "float32"), lambda: 1j, "complex64", "float32"),
        (lambda: tnp.ones(3, "float16"), lambda: tnp.ones((), "float32"), "float32", "float16"),
    ],
)
def test_at_set_warns_on_unsafe_cast(make, value, src, dst):
    with pytest.warns(FutureWarning) as record:
        make().at[0].set(value())
    msg = str(record[0].message)
    assert msg.startswith("scatter inputs have incompatible types: cannot safely cast value from")
    assert f"dtype={src} to dtype={dst}" in msg
    assert "numpy_dtype_promotion=standard" in msg and "will result in an error" in msg


@pytest.mark.parametrize(
    "make, value",
    [
        (lambda: tnp.ones(3, "int8"), lambda: 2),
        (lambda: tnp.ones(3, "int8"), lambda: True),
        (lambda: tnp.ones(3, "float32"), lambda: 2.5),
        (lambda: tnp.ones(3, "float32"), lambda: tnp.ones((), "float16")),
        (lambda: tnp.ones(3, "float32"), lambda: np.float64(1)),
        (lambda: tnp.ones(3, "int32"), lambda: tnp.ones((), "uint8")),
    ],
)
def test_at_set_is_silent_on_safe_cast(make, value):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make().at[0].set(value())


@pytest.mark.parametrize(
    "make, value",
    [
        (lambda: tnp.ones(3, "int8"), lambda: 2.5),
        (lambda: tnp.ones(3, "float32"), lambda: tnp.ones((), "float16")),
        (lambda: tnp.ones(3, "int32"), lambda: tnp.ones((), "int8")),
    ],
)
def test_at_set_strict_mode_refuses_implicit_promotion(make, value):
    with (
        trellax.numpy_dtype_promotion("strict"),
        pytest.raises(trellax.dtypes.TypePromotionError, match="strict"),
    ):
        make().at[0].set(value())


def test_at_set_strict_mode_allows_weak_same_category():
    with trellax.numpy_dtype_promotion("strict"):
        assert tnp.ones(3, "int8").at[0].set(2).tolist() == [2, 1, 1]


def test_at_repr():
    assert "_IndexUpdateRef" in repr(tnp.ones(2).at[0])


# -- indexing and updates under jit -----------------------------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [
        lambda x, i: x[i],
        lambda x, i: x[1:, i],
        lambda x, i: x.at[i].set(0),
        lambda x, i: x.at[i].add(1),
        lambda x, i: x.at[:, i].max(100),
    ],
)
def test_traced_integer_indices(fn):
    x = lax.reshape(tnp.arange(12, dtype="int32"), (3, 4))
    i = tnp.asarray([2, -1, 7], "int32")
    eager = fn(x, i)
    jitted = trellax.jit(fn)(x, i)
    assert (jitted.dtype, jitted.weak_type, jitted.shape) == (
        eager.dtype,
        eager.weak_type,
        eager.shape,
    )
    np.testing.assert_array_equal(np.asarray(jitted), np.asarray(eager))


@pytest.mark.parametrize("idx", [True, False, (True, 0), (0, True), (Ellipsis, True), (False, 1)])
def test_scalar_bool_index_matches_numpy(idx: object) -> None:
    """x[True] adds an axis of size 1 and x[False] one of size 0, as in NumPy and JAX."""
    x = tnp.arange(6).reshape(2, 3)
    expected = np.asarray(x)[idx]
    got = x[idx]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_scalar_bool_index_under_jit() -> None:
    x = tnp.arange(6).reshape(2, 3)
    assert trellax.jit(lambda v: v[True])(x).shape == (1, 2, 3)
    # traced too, x[False] is an empty new axis (as in JAX; it once raised here)
    assert trellax.jit(lambda v: v[False])(x).shape == (0, 2, 3)


def test_traced_scalar_index_gives_a_0d_result_inside_compiled_loops() -> None:
    """The gather impl may receive NumPy scalars inside generated loops; a 0-d result stays 0-d."""
    table = tnp.asarray([1.0, 10.0, 100.0])
    out = lax.fori_loop(0, 3, lambda i, acc: acc + table[i], 0.0)
    assert out.shape == () and float(out) == 111.0
    assert trellax.jit(lambda t, i: t[i])(table, 2).shape == ()
    _, ys = lax.scan(lambda c, i: (c, table.at[i].get(mode="fill")), 0, tnp.asarray([0, 5]))
    assert ys.shape == (2,) and ys.tolist()[0] == 1.0 and np.isnan(ys.tolist()[1])


@pytest.mark.filterwarnings("ignore:scatter inputs have incompatible types")
def test_unsafe_scatter_combines_in_the_promoted_dtype() -> None:
    """JAX (observed, 0.10.2): add/mul/min/max with values that do not cast safely combine in
    the promoted dtype and convert back once; ``set`` casts the values."""
    x = tnp.array([1, 2, 3], tnp.int32)
    i = tnp.array([1, 1])
    cases = [
        (x.at[i].add(0.6), [1, 3, 3]),  # 2 + 1.2 -> 3 (casting 0.6 first would give 2)
        (x.at[i].multiply(1.5), [1, 4, 3]),  # 2 * 2.25 -> 4
        (x.at[1].multiply(2.7), [1, 5, 3]),
        (x.at[i].min(1.5), [1, 1, 3]),
        (x.at[i].max(2.6), [1, 2, 3]),
        (x.at[1].set(2.7), [1, 2, 3]),
        (tnp.array([1, 2, 3], tnp.uint8).at[1].multiply(-1.5), [1, 0, 3]),  # -3.0 saturates
    ]
    for got, want in cases:
        assert got.dtype == tnp.int32 or got.dtype == tnp.uint8
        assert not got.weak_type
        np.testing.assert_array_equal(np.asarray(got), want)
    # safe values take the direct path and keep every bit
    big = tnp.array([2**24 + 1, 0], tnp.int32)
    np.testing.assert_array_equal(np.asarray(big.at[0].add(tnp.int32(1))), [2**24 + 2, 0])
