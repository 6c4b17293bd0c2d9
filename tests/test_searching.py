"""Indexing helpers, searching, sorting and sets: dtypes, weak flags, values, ``size=``, errors.

Dtype oracle: JAX 0.10.2 (reference §6.8 for index dtypes; the rest observed on JAX and written
out below). ``TABLE`` has one row per function and one cell per input kind (columns ``KINDS``),
run with x64 off and on, in standard and strict mode. Cell notation: ``=`` the input's dtype and
weak flag; ``I``/``F`` the default int/float of the config, strong; ``int32~`` int32 carrying the
input's weak flag; another dtype name, strong; an exception class name.

Values are checked against NumPy in float64; JAX-specific behaviour (out-of-bounds fills,
padding with ``size=``) against values observed on JAX. Every function also runs under
``trellax.jit``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.core.errors import ConcretizationTypeError
from trellax.dtypes import TypePromotionError

_VALUES = np.array([3, 0, 2, 2, 1, 0])

KINDS = ("i8", "u8", "b", "f16", "f32", "c64", "wi", "wf")


def make(kind: str) -> Any:
    if kind == "wi":
        return tnp.full((6,), 2) + tnp.asarray(_VALUES).astype(tnp.asarray(2).dtype) * 0
    if kind == "wf":
        return tnp.full((6,), 2.0) * 0.5
    dtype = {"i8": "int8", "u8": "uint8", "b": "bool", "f16": "float16", "f32": "float32",
             "c64": "complex64"}[kind]  # fmt: skip
    return tnp.asarray(_VALUES.astype(dtype))


def first(out: Any) -> Any:
    return out[0] if isinstance(out, tuple) else out


ROWS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "sort": (tnp.sort, "= = = = = = = ="),
    "argsort": (tnp.argsort, "I I I I I I I I"),
    "take": (lambda x: tnp.take(x, tnp.asarray([0, 2])), "= = = = = = = ="),
    "take_along_axis": (lambda x: tnp.take_along_axis(x, tnp.asarray([1]), 0), "= = = = = = = ="),
    "put_along_axis": (
        lambda x: tnp.put_along_axis(x, tnp.asarray([1]), 1, 0, inplace=False),
        "= = = = = = = =",
    ),
    "nonzero": (lambda x: tnp.nonzero(x)[0], "I I I I I I I I"),
    "flatnonzero": (tnp.flatnonzero, "I I I I I I I I"),
    "argwhere": (tnp.argwhere, "I I I I I I I I"),
    "searchsorted": (lambda x: tnp.searchsorted(tnp.sort(x), x), "int32 " * 8),
    "partition": (lambda x: tnp.partition(x, 1), "= = = = = = = ="),
    "argpartition": (lambda x: tnp.argpartition(x, 1), "int32~ " * 8),
    "unique": (tnp.unique, "= = = = = = = ="),
    "unique_values": (tnp.unique_values, "= = = = = = = ="),
    "unique_counts.counts": (lambda x: tnp.unique_counts(x).counts, "I I I I I I I I"),
    "unique_inverse.inverse": (lambda x: tnp.unique_inverse(x)[1], "I I I I I I I I"),
    "unique_all.indices": (lambda x: tnp.unique_all(x).indices, "I I I I I I I I"),
    "bincount": (
        tnp.bincount,
        "I I I TypeError TypeError TypeError I TypeError",  # bool counts as 0/1 (JAX)
    ),
    "histogram": (
        lambda x: tnp.histogram(x)[0],
        "float32 float32 float32 float16 float32 TypeError F F",
    ),
    "histogram.edges": (
        lambda x: tnp.histogram(x)[1],
        "float32 float32 float32 float16 float32 TypeError F F",
    ),
    "isin": (lambda x: tnp.isin(x, x), "bool " * 8),
    "unique(size)": (lambda x: tnp.unique(x, size=8), "= = = = = = = ="),
}

CASES = [
    (row, kind, cell)
    for row, (_, cells) in ROWS.items()
    for kind, cell in zip(KINDS, cells.split(), strict=True)
]


def _expect(cell: str, x: Any) -> tuple[Any, bool] | type[Exception]:
    if cell == "=":
        return x.dtype, x.weak_type
    if cell == "I":
        return np.dtype("int64" if trellax.config.enable_x64 else "int32"), False
    if cell == "F":
        return np.dtype("float64" if trellax.config.enable_x64 else "float32"), False
    if cell == "int32~":
        return np.dtype("int32"), x.weak_type
    if cell[0].isupper():
        return {"TypeError": TypeError, "ValueError": ValueError}[cell]
    return np.dtype(cell), False


@pytest.mark.parametrize("mode", ["standard", "strict"])
@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("row, kind, cell", CASES, ids=[f"{r}-{k}" for r, k, _ in CASES])
def test_dtype_table(row: str, kind: str, cell: str, x64: bool, mode: str) -> None:
    fn, _ = ROWS[row]
    with trellax.enable_x64(x64), trellax.numpy_dtype_promotion(mode):
        x = make(kind)
        want = _expect(cell, x)
        if isinstance(want, type):
            with pytest.raises(want):
                fn(x)
            return
        out = first(fn(x))
        assert (out.dtype, out.weak_type) == want


# -- dtypes of mixed-input functions (observed on JAX) ------------------------------------------------


def _a(values: Any, dtype: str) -> Any:
    return tnp.asarray(np.asarray(values).astype(dtype))


MIXED = [
    ("union1d(i8, u8)", lambda: tnp.union1d(_a([1], "int8"), _a([2], "uint8")), "int16", False),
    ("intersect1d(i8, f32)", lambda: tnp.intersect1d(_a([1], "int8"), _a([1], "float32")), "float32", False),
    ("setdiff1d(i8, f32)", lambda: tnp.setdiff1d(_a([1, 2], "int8"), _a([1], "float32")), "int8", False),
    ("union1d(wf, wf)", lambda: tnp.union1d(tnp.full((2,), 1.0), tnp.full((1,), 2.0)), "F", True),
    ("intersect1d indices", lambda: tnp.intersect1d(_a([1, 2], "int8"), _a([2], "int8"), return_indices=True)[2], "I", False),
    ("bincount(w=f16)", lambda: tnp.bincount(_a([0, 1], "int32"), _a([1, 1], "float16")), "float16", False),
    ("bincount(w=i8)", lambda: tnp.bincount(_a([0, 1], "int32"), _a([1, 1], "int8")), "int8", False),
    ("bincount(w=wf)", lambda: tnp.bincount(_a([0, 1], "int32"), tnp.full((2,), 1.0)), "F", False),
    ("histogram(i32, w=f16)", lambda: tnp.histogram(_a([1, 2], "int32"), weights=_a([1, 1], "float16"))[1], "float16", False),
    ("histogram(f16, w=f32)", lambda: tnp.histogram(_a([1, 2], "float16"), weights=_a([1, 1], "float32"))[0], "float32", False),
    ("searchsorted(i8, 1.5)", lambda: tnp.searchsorted(_a([1, 2], "int8"), 1.5), "int32", False),
    ("digitize(i8, f32)", lambda: tnp.digitize(_a([1, 2], "int8"), _a([1.5], "float32")), "int32", False),
    ("argsort(dtype=i16)", lambda: tnp.argsort(_a([2, 1], "int8"), dtype="int16"), "int16", False),
    ("take(wf, idx)", lambda: tnp.take(tnp.full((3,), 2.0), _a([0], "int32")), "F", True),
]  # fmt: skip


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("desc, thunk, want, weak", MIXED, ids=[m[0] for m in MIXED])
def test_mixed_dtypes(desc: str, thunk: Any, want: str, weak: bool, x64: bool) -> None:
    with trellax.enable_x64(x64):
        out = thunk()
        default = {"I": "int64" if x64 else "int32", "F": "float64" if x64 else "float32"}
        assert (out.dtype, out.weak_type) == (np.dtype(default.get(want, want)), weak)


@pytest.mark.parametrize(
    "thunk",
    [
        lambda: tnp.union1d(_a([1], "int8"), _a([2], "uint8")),
        lambda: tnp.searchsorted(_a([1, 2], "int8"), _a([1], "float32")),
        lambda: tnp.isin(_a([1], "int8"), _a([1], "int16")),
        lambda: tnp.intersect1d(_a([1], "int8"), _a([1], "float32")),
    ],
)
def test_strict_mode_refuses_mixed_inputs(thunk: Any) -> None:
    with trellax.numpy_dtype_promotion("strict"), pytest.raises(TypePromotionError):
        thunk()


# -- values against NumPy -----------------------------------------------------------------------------

rng = np.random.default_rng(1234)
FLOATS = rng.standard_normal((4, 7))
FLOATS[1, 2] = np.nan
INTS = rng.integers(-3, 4, size=(5, 6))


def assert_same(got: Any, want: Any) -> None:
    got = np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got.astype(np.float64), np.asarray(want, np.float64), rtol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
@pytest.mark.parametrize("data", [FLOATS, INTS], ids=["float", "int"])
def test_sort_and_argsort_match_numpy(data: Any, axis: Any) -> None:
    x = tnp.asarray(data)
    assert_same(tnp.sort(x, axis=axis), np.sort(data.astype(np.float32), axis=axis))
    assert_same(
        tnp.argsort(x, axis=axis), np.argsort(data.astype(np.float32), axis=axis, kind="stable")
    )


def test_descending_sort_is_stable() -> None:
    x = tnp.asarray([1, 3, 3, 2, 1])
    assert tnp.argsort(x, descending=True).tolist() == [1, 2, 3, 0, 4]
    assert tnp.sort(x, descending=True).tolist() == [3, 3, 2, 1, 1]
    assert tnp.sort(tnp.asarray([1.0, np.nan, 2.0]), descending=True).tolist()[1:] == [2.0, 1.0]


def test_sort_complex_is_lexicographic_and_nan_last() -> None:
    c = tnp.asarray([1 + 2j, 1 + 1j, 0 + 5j])
    assert tnp.sort(c).tolist() == [5j, 1 + 1j, 1 + 2j]
    assert tnp.argsort(tnp.asarray([np.nan, 1.0, -np.inf])).tolist() == [2, 1, 0]


def test_lexsort_and_partition() -> None:
    a, b = INTS[0], INTS[1]
    assert_same(tnp.lexsort((tnp.asarray(a), tnp.asarray(b))), np.lexsort((a, b)))
    assert_same(tnp.lexsort(tnp.asarray(INTS[:2])), np.lexsort(INTS[:2]))
    p = np.asarray(tnp.partition(tnp.asarray(FLOATS[0]), 3))
    assert p[3] == np.sort(FLOATS[0].astype(np.float32))[3]
    assert (p[:3] <= p[3]).all() and (p[4:] >= p[3]).all()
    idx = np.asarray(tnp.argpartition(tnp.asarray(INTS[0]), 2))
    assert INTS[0][idx][2] == np.sort(INTS[0])[2]


@pytest.mark.parametrize("method", ["scan", "compare_all", "sort"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_matches_numpy(side: str, method: str) -> None:
    a = np.sort(np.concatenate([FLOATS.ravel(), [1.0, 1.0]]))
    v = np.concatenate([FLOATS[0], [1.0, np.nan, -np.inf, np.inf]])
    got = tnp.searchsorted(tnp.asarray(a), tnp.asarray(v), side=side, method=method)
    assert_same(got, np.searchsorted(a.astype(np.float32), v.astype(np.float32), side=side))
    order = rng.permutation(len(a))
    got = tnp.searchsorted(
        tnp.asarray(a[order]), tnp.asarray(v), side, tnp.argsort(tnp.asarray(a[order]))
    )
    assert_same(got, np.searchsorted(a.astype(np.float32), v.astype(np.float32), side=side))
    assert tnp.searchsorted(tnp.asarray(np.zeros(0)), tnp.asarray([1.0])).tolist() == [0]


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("bins", [[-1.0, 0.0, 0.5, 2.0], [2.0, 0.5, 0.0, -1.0]])
def test_digitize_matches_numpy(bins: list[float], right: bool) -> None:
    x = np.concatenate([FLOATS[0], bins])
    got = tnp.digitize(tnp.asarray(x), tnp.asarray(bins), right=right)
    assert_same(got, np.digitize(x.astype(np.float32), np.float32(bins), right=right))


def test_unique_family_matches_numpy() -> None:
    data = INTS
    x = tnp.asarray(data)
    vals, idx, inv, counts = tnp.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    w_vals, w_idx, w_inv, w_counts = np.unique(
        data, return_index=True, return_inverse=True, return_counts=True
    )
    assert_same(vals, w_vals)
    assert_same(idx, w_idx)
    assert_same(inv, w_inv.reshape(data.shape))
    assert_same(counts, w_counts)
    ua = tnp.unique_all(x)
    assert_same(ua.values, w_vals)
    assert_same(ua.inverse_indices, w_inv.reshape(data.shape))
    assert_same(tnp.unique_counts(x).counts, w_counts)
    assert_same(tnp.unique_values(x), w_vals)
    rows = np.array([[1, 2], [0, 1], [1, 2], [0, 0]])
    got = tnp.unique(
        tnp.asarray(rows), axis=0, return_index=True, return_inverse=True, return_counts=True
    )
    want = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        assert_same(g, w)


def test_unique_nan_handling() -> None:
    x = tnp.asarray([np.nan, 1.0, np.nan])
    assert tnp.unique(x).size == 2  # equal_nan=True (JAX's default)
    assert tnp.unique(x, equal_nan=False).size == 3
    assert tnp.unique_values(x).size == 3  # the Array API: NaNs are distinct
    assert tnp.unique_counts(x).counts.tolist() == [1, 1, 1]


def test_size_and_fill_value_follow_jax() -> None:
    a = tnp.asarray
    assert tnp.unique(a([3, 1, 3]), size=4).tolist() == [1, 3, 1, 1]
    assert tnp.unique(a([3, 1, 3]), size=4, fill_value=9).tolist() == [1, 3, 9, 9]
    assert tnp.unique(a([3, 1, 2]), size=2).tolist() == [1, 2]
    _, idx, inv, counts = tnp.unique(
        a([3, 1, 3]), size=4, return_index=True, return_inverse=True, return_counts=True
    )
    assert (idx.tolist(), inv.tolist(), counts.tolist()) == ([1, 0, 1, 1], [1, 0, 1], [1, 2, 0, 0])
    nz = tnp.nonzero(a([[0, 1], [1, 1]]), size=5, fill_value=-1)
    assert [n.tolist() for n in nz] == [[0, 1, 1, -1, -1], [1, 0, 1, -1, -1]]
    nz = tnp.nonzero(a([[0, 1], [1, 1]]), size=4, fill_value=(7, 8))
    assert [n.tolist() for n in nz] == [[0, 1, 1, 7], [1, 0, 1, 8]]
    assert tnp.flatnonzero(a([[0, 1], [1, 1]]), size=2).tolist() == [1, 2]
    assert tnp.argwhere(a([[0, 1], [1, 1]]), size=4, fill_value=-1).tolist() == [
        [0, 1],
        [1, 0],
        [1, 1],
        [-1, -1],
    ]
    assert tnp.argwhere(tnp.int8(0)).shape == (0, 0)
    assert tnp.intersect1d(a([3, 1, 3, 2]), a([2, 3, 5]), size=4).tolist() == [2, 3, 2, 2]
    assert tnp.setdiff1d(a([3, 1, 3, 2]), a([2, 5]), size=4).tolist() == [1, 3, 0, 0]
    assert tnp.union1d(a([3, 1]), a([2, 5]), size=6).tolist() == [1, 2, 3, 5, 1, 1]
    assert [v.tolist() for v in tnp.where(a([0, 2, 0, 3]), size=3)] == [[1, 3, 0]]


def test_nonzero_family_matches_numpy() -> None:
    assert [n.tolist() for n in tnp.nonzero(tnp.asarray(INTS))] == [
        n.tolist() for n in np.nonzero(INTS)
    ]
    assert tnp.flatnonzero(tnp.asarray(INTS)).tolist() == np.flatnonzero(INTS).tolist()
    assert tnp.argwhere(tnp.asarray(INTS)).tolist() == np.argwhere(INTS).tolist()
    assert tnp.asarray(INTS).nonzero()[1].tolist() == INTS.nonzero()[1].tolist()


def test_set_operations_match_numpy() -> None:
    a, b = INTS[0], INTS[1]
    ta, tb = tnp.asarray(a), tnp.asarray(b)
    assert tnp.isin(ta, tb).tolist() == np.isin(a, b).tolist()
    assert (
        tnp.isin(ta, tb, invert=True, method="sort").tolist() == np.isin(a, b, invert=True).tolist()
    )
    assert tnp.isin(tnp.asarray([np.nan]), tnp.asarray([np.nan])).tolist() == [False]
    assert tnp.intersect1d(ta, tb).tolist() == np.intersect1d(a, b).tolist()
    got = tnp.intersect1d(ta, tb, return_indices=True)
    want = np.intersect1d(a, b, return_indices=True)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    assert tnp.union1d(ta, tb).tolist() == np.union1d(a, b).tolist()
    assert tnp.setdiff1d(ta, tb).tolist() == np.setdiff1d(a, b).tolist()
    assert tnp.setxor1d(ta, tb).tolist() == np.setxor1d(a, b).tolist()


def test_bincount_and_histogram_match_numpy() -> None:
    x = np.abs(INTS[0])
    w = FLOATS[0, :6]
    assert tnp.bincount(tnp.asarray(x)).tolist() == np.bincount(x).tolist()
    assert_same(
        tnp.bincount(tnp.asarray(x), tnp.asarray(w), minlength=9), np.bincount(x, w, minlength=9)
    )
    assert tnp.bincount(tnp.asarray([-1, 2, 1])).tolist() == [1, 1, 1]  # negatives count as 0 (JAX)
    assert tnp.bincount(tnp.asarray([0, 5, 1]), length=3).tolist() == [1, 1, 0]
    data = FLOATS[2]
    for kwargs in [{}, {"bins": 4}, {"bins": 3, "range": (-1.0, 1.0)}, {"density": True},
                   {"bins": [-2.0, -0.5, 0.0, 3.0]}, {"weights": FLOATS[3], "bins": 5}]:  # fmt: skip
        # weights and edges as arrays: a list is JAX's TypeError (test_error_classes_kw.py)
        tk = {k: tnp.asarray(v) if k == "weights" or isinstance(v, list) else v
              for k, v in kwargs.items()}  # fmt: skip
        counts, edges = tnp.histogram(tnp.asarray(data), **tk)
        w_counts, w_edges = np.histogram(data, **kwargs)
        np.testing.assert_allclose(np.asarray(counts), w_counts, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np.asarray(edges), w_edges, rtol=1e-5, atol=1e-6)
    assert tnp.histogram(tnp.ones(3), bins=4)[1].tolist() == [0.5, 0.75, 1.0, 1.25, 1.5]


def test_take_and_friends() -> None:
    x = tnp.asarray(FLOATS)
    idx = np.array([[0, 6], [3, 1]])
    assert_same(
        tnp.take(x, tnp.asarray(idx), axis=1), np.take(FLOATS.astype(np.float32), idx, axis=1)
    )
    assert_same(tnp.take(x, tnp.asarray(idx)), np.take(FLOATS.astype(np.float32), idx))
    ia = np.argsort(FLOATS, axis=1)[:, :3]
    assert_same(
        tnp.take_along_axis(x, tnp.asarray(ia), axis=1),
        np.take_along_axis(FLOATS.astype(np.float32), ia, axis=1),
    )
    want = FLOATS.astype(np.float32).copy()
    np.put_along_axis(want, ia, 0.5, axis=1)
    assert_same(tnp.put_along_axis(x, tnp.asarray(ia), 0.5, axis=1, inplace=False), want)
    # JAX's out-of-bounds rules: fill (default), clip, wrap; writes are dropped
    r = tnp.arange(3.0)
    i = tnp.asarray([5, -1, -4])
    assert np.isnan(tnp.take(r, i).tolist()[0]) and tnp.take(r, i).tolist()[1] == 2.0
    assert tnp.take(r, i, mode="clip").tolist() == [2.0, 0.0, 0.0]
    assert tnp.take(r, i, mode="wrap").tolist() == [2.0, 2.0, 2.0]
    assert tnp.take(tnp.arange(3), tnp.asarray([5])).tolist() == [np.iinfo(np.int32).min]
    assert tnp.take(tnp.arange(3, dtype="uint8"), tnp.asarray([5])).tolist() == [255]
    assert tnp.take(r, tnp.asarray([5]), fill_value=-1.0).tolist() == [-1.0]
    assert tnp.put_along_axis(
        tnp.zeros(3), tnp.asarray([5, -1]), 5.0, axis=0, inplace=False
    ).tolist() == [0, 0, 5]
    assert tnp.asarray([4, 5, 6]).take(tnp.asarray([2])).tolist() == [6]


# -- errors -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "thunk, exc, words",
    [
        (
            lambda: tnp.put_along_axis(tnp.zeros(3), tnp.asarray([0]), 1.0, axis=0),
            ValueError,
            "inplace=False",
        ),
        (lambda: tnp.take(tnp.zeros(3), tnp.asarray([0.5])), ValueError, "integer"),
        (
            lambda: tnp.take(tnp.zeros(3), tnp.asarray([0]), mode="raise"),
            NotImplementedError,
            "raise",
        ),
        (
            lambda: tnp.take_along_axis(tnp.zeros((2, 2)), tnp.asarray([0]), axis=0),
            ValueError,
            "same number of dimensions",
        ),
        (lambda: tnp.bincount(tnp.zeros(3)), TypeError, "integer type"),
        (lambda: tnp.bincount(tnp.zeros((2, 2), dtype=int)), ValueError, "1-dimensional"),
        (lambda: tnp.bincount(tnp.asarray([1]), tnp.asarray([True])), TypeError, "bool"),
        (lambda: tnp.searchsorted(tnp.ones((2, 2)), 1.0), ValueError, "1-dimensional"),
        (lambda: tnp.searchsorted(tnp.ones(2), 1.0, side="middle"), ValueError, "side"),
        (lambda: tnp.nonzero(tnp.asarray(1)), ValueError, "0d"),
        (
            lambda: tnp.nonzero(tnp.ones((2, 2)), fill_value=(1, 2, 3), size=2),
            ValueError,
            "fill_value",
        ),
        (lambda: tnp.sort(tnp.ones(3), axis=2), ValueError, "out of bounds"),
        (lambda: tnp.sort(tnp.ones(3), kind="quicksort"), TypeError, "kind"),
        (lambda: tnp.partition(tnp.ones(3), 5), ValueError, "kth"),
        (lambda: tnp.lexsort(()), TypeError, "keys"),
        (lambda: tnp.digitize(tnp.ones(3), tnp.ones((2, 2))), ValueError, "1-dimensional"),
        (lambda: tnp.histogram(tnp.ones(3), bins=0), ValueError, "positive"),
        (lambda: tnp.histogram(tnp.ones(3), weights=tnp.ones(2)), ValueError, "same shape"),
        (lambda: tnp.isin(tnp.ones(3), tnp.ones(3), method="magic"), ValueError, "method"),
    ],
)
def test_errors(thunk: Any, exc: type[Exception], words: str) -> None:
    with pytest.raises(exc, match=words):
        thunk()


@pytest.mark.parametrize(
    "fn, words",
    [
        (tnp.nonzero, "size="),
        (tnp.flatnonzero, "size="),
        (tnp.argwhere, "size="),
        (tnp.unique, "size="),
        (tnp.unique_values, "size="),
        (tnp.unique_all, "size="),
        (lambda x: tnp.union1d(x, x), "size="),
        (lambda x: tnp.setdiff1d(x, x), "size="),
        (lambda x: tnp.intersect1d(x, x), "size="),
        (tnp.bincount, "length="),
        (lambda x: tnp.where(x), "size="),
    ],
)
def test_value_dependent_shapes_need_a_static_size_under_jit(fn: Any, words: str) -> None:
    with pytest.raises(ConcretizationTypeError, match=words):
        trellax.jit(fn)(tnp.asarray([1, 0, 2]))


# -- jit agrees with eager -----------------------------------------------------------------------------

V = tnp.asarray([3.0, 1.0, 2.0, 1.0])
IDX = tnp.asarray([3, 0, 1, 3, 1])

JIT_CASES: dict[str, tuple[Callable[..., Any], Any]] = {
    "take": (lambda x: tnp.take(x, tnp.asarray([0, 5, -1])), V),
    "take_along_axis": (lambda x: tnp.take_along_axis(x, tnp.asarray([0, 2]), 0), V),
    "put_along_axis": (lambda x: tnp.put_along_axis(x, tnp.asarray([0, 2]), 9.0, 0, inplace=False), V),
    "nonzero": (lambda x: tnp.nonzero(x, size=3), IDX),
    "argwhere": (lambda x: tnp.argwhere(x, size=3, fill_value=-1), IDX),
    "flatnonzero": (lambda x: tnp.flatnonzero(x, size=3), IDX),
    "searchsorted": (lambda x: tnp.searchsorted(tnp.sort(x), tnp.asarray([0.0, 1.5, 9])), V),
    "sort": (tnp.sort, V),
    "argsort": (lambda x: tnp.argsort(x, descending=True), V),
    "lexsort": (lambda x: tnp.lexsort((x, -x)), V),
    "partition": (lambda x: tnp.partition(x, 1), V),
    "argpartition": (lambda x: tnp.argpartition(x, 1), tnp.full((3,), 2.0)),
    "unique": (lambda x: tnp.unique(x, size=4, return_index=True, return_inverse=True, return_counts=True), IDX),
    "unique_all": (lambda x: tnp.unique_all(x, size=3), IDX),
    "bincount": (lambda x: tnp.bincount(x, length=5), IDX),
    "digitize": (lambda x: tnp.digitize(x, tnp.asarray([1.0, 2.0])), V),
    "histogram": (lambda x: tnp.histogram(x, bins=3), V),
    "isin": (lambda x: tnp.isin(x, tnp.asarray([1, 3])), IDX),
    "intersect1d": (lambda x: tnp.intersect1d(x, tnp.asarray([1, 3]), size=3), IDX),
    "union1d": (lambda x: tnp.union1d(x, tnp.asarray([1, 7]), size=5), IDX),
    "setdiff1d": (lambda x: tnp.setdiff1d(x, tnp.asarray([1]), size=3), IDX),
}  # fmt: skip


@pytest.mark.parametrize("name", list(JIT_CASES))
def test_jit_matches_eager(name: str) -> None:
    fn, x = JIT_CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        eager, traced = fn(x), trellax.jit(fn)(x)
    e_leaves, t_leaves = trellax.tree_util.tree_leaves(eager), trellax.tree_util.tree_leaves(traced)
    assert len(e_leaves) == len(t_leaves)
    for e, t in zip(e_leaves, t_leaves):
        assert (t.dtype, t.weak_type, t.shape) == (e.dtype, e.weak_type, e.shape)
        np.testing.assert_array_equal(np.asarray(t), np.asarray(e))
