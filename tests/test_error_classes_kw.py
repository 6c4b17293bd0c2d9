"""Argument checks of ``trellax.numpy`` (and ``nn``, ``scipy.special``) that JAX 0.10.2 makes
in a definite order with a definite error class, found by the keyword fuzzer
(``tests/test_fuzz_keywords.py``; the fuzzer's programs are the JAX outcomes, these tests check
each rule over several inputs, eagerly and under ``jit``). Each failed before its fix: trellax
raised another class (NumPy's, or a check that came first in another order) or returned a value
where JAX refuses the call, or refused a call JAX answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import errors

F32 = tnp.asarray(np.arange(6.0, dtype=np.float32).reshape(2, 3))
V3 = tnp.asarray(np.array([3.0, 1.0, 2.0], np.float32))


def both(f: Callable[..., Any], *args: Any) -> list[Callable[[], Any]]:
    """``f(*args)`` eagerly and under ``jit`` (the arrays traced)."""
    return [lambda: f(*args), lambda: trellax.jit(f)(*args)]


def raises_everywhere(cls: type[Exception], f: Callable[..., Any], *args: Any) -> None:
    for call in both(f, *args):
        with pytest.raises(cls):
            call()


# -- sequences where JAX wants arrays ------------------------------------------------------------


@pytest.mark.parametrize("bins", [[0.0, 1.0, 2.5], (0.0, 4.0), [-np.inf, 0.0, np.inf]])
@pytest.mark.parametrize("shape", [(), (0,), (2, 3)])
def test_histogram_edges_as_a_sequence_are_refused(bins: Any, shape: tuple[int, ...]) -> None:
    """JAX checks ``bins`` with the sample: a list or tuple of edges is its TypeError (for
    ``histogram_bin_edges`` too, whose weights are unused); an array of edges works."""
    x = tnp.ones(shape, tnp.float32)
    raises_everywhere(TypeError, lambda a: tnp.histogram(a, bins=bins), x)
    raises_everywhere(TypeError, lambda a: tnp.histogram(a, bins=bins, density=True), x)
    raises_everywhere(TypeError, lambda a: tnp.histogram_bin_edges(a, bins=bins, weights=a), x)
    counts, edges = tnp.histogram(x, bins=tnp.asarray(np.array(bins, np.float32)))
    assert edges.shape == (len(bins),) and counts.shape == (len(bins) - 1,)


def test_histogram_string_bins() -> None:
    """A string ``bins``: ``histogram`` refuses it as a non-array (TypeError),
    ``histogram_bin_edges`` as unimplemented (NotImplementedError, checked first); a list of
    edges per dimension of ``histogram2d`` still works, as in JAX."""
    with pytest.raises(TypeError):
        tnp.histogram(V3, bins="auto")
    with pytest.raises(NotImplementedError):
        tnp.histogram_bin_edges(V3, bins="auto")
    counts, _, _ = tnp.histogram2d(V3, V3, bins=[0.0, 1.5, 3.0])
    assert counts.shape == (2, 2) and np.asarray(counts).sum() == 3


@pytest.mark.parametrize("repeats", [[2], [1, 2, 3], (1, 2), [1, 2]])
@pytest.mark.parametrize("axis", [None, 0, -1, 5])
def test_repeat_counts_as_a_sequence_are_refused(repeats: Any, axis: int | None) -> None:
    """``repeat`` with a list or tuple of counts is JAX's TypeError whatever the axis (an out
    of range one too) and the counts; an array of counts works."""
    for x in (V3, tnp.zeros((0, 3), tnp.int32), tnp.int16(1)):
        raises_everywhere(TypeError, lambda a: tnp.repeat(a, repeats, axis=axis), x)
        with pytest.raises(TypeError):
            tnp.repeat(x, repeats, axis=axis, total_repeat_length=4)
    out = tnp.repeat(V3, tnp.asarray([1, 2, 3]))
    np.testing.assert_array_equal(np.asarray(out), [3, 1, 1, 2, 2, 2])


@pytest.mark.parametrize("axis", [1, 5, -3])
def test_insert_positions_as_a_list_come_before_the_axis(axis: int) -> None:
    """``insert`` with a list of positions is JAX's TypeError even with an axis out of range
    (it checked the axis first: AxisError)."""
    for x in (tnp.arange(2, dtype=tnp.int32), tnp.ones(4, bool)):
        with pytest.raises(TypeError, match="position 1"):
            tnp.insert(x, [0, 2], 1, axis=axis)
    with pytest.raises(np.exceptions.AxisError):
        tnp.insert(V3, 0, 1.0, axis=axis)


@pytest.mark.parametrize("fill", [None, [0.0]])
def test_compress_and_extract_fill_value_must_be_an_array(fill: Any) -> None:
    """JAX checks ``fill_value`` with the arrays, first: None (or a list) is its TypeError, with
    or without ``size``, before the condition is compared with the axis."""
    for size in (None, 2):
        with pytest.raises(TypeError):
            tnp.compress(tnp.asarray([True]), tnp.ones((1, 0, 3)), fill_value=fill, size=size)
        with pytest.raises(TypeError):
            tnp.extract(tnp.asarray([True]), tnp.ones(0, tnp.uint32), size=size, fill_value=fill)


def test_nan_to_num_nan_none() -> None:
    """``nan=None`` is JAX's ValueError for inexact input (it makes an array of it); integer
    input returns before that; ``posinf``/``neginf`` None mean the dtype's extremes."""
    for x in (tnp.float32(1.0), tnp.asarray([np.nan, 1.0]), tnp.complex64(1 + 2j)):
        raises_everywhere(ValueError, lambda a: tnp.nan_to_num(a, nan=None), x)
    assert int(tnp.nan_to_num(tnp.int32(3), nan=None)) == 3
    assert float(tnp.nan_to_num(tnp.float32(np.inf), posinf=None)) == np.finfo(np.float32).max


# -- dtypes JAX's iota refuses --------------------------------------------------------------------


@pytest.mark.parametrize("dims", [(2,), (0, 4, 3), (4,), (1, 2)])
@pytest.mark.parametrize("sparse", [False, True])
def test_indices_bool_dtype(dims: tuple[int, ...], sparse: bool) -> None:
    """JAX builds each grid with ``iota`` of the dtype, which has no bool: TypeError for any
    non-empty ``dimensions`` (no grid at all: the empty result)."""
    with pytest.raises(TypeError):
        tnp.indices(dims, dtype=bool, sparse=sparse)
    assert tnp.indices((), dtype=bool).shape == (0,)
    assert tnp.indices(dims, dtype=tnp.float32).dtype == np.float32


@pytest.mark.parametrize("n", [None, 0, 3])
@pytest.mark.parametrize("length", [0, 1, 4])
def test_vander_of_bool(n: int | None, length: int) -> None:
    """``vander`` of a bool vector is JAX's TypeError (an iota of x's dtype), for any ``N`` and
    length; integers keep working."""
    raises_everywhere(TypeError, lambda a: tnp.vander(a, n), tnp.ones(length, bool))
    out = tnp.vander(tnp.asarray([1, 2], tnp.int32), n)
    assert out.dtype == np.int32


def test_argsort_index_dtype() -> None:
    """``argsort(dtype=...)`` gives the positions in any number dtype, as JAX's iota of it
    (float16 positions round, int8 ones wrap; descending stable keeps ties in order); bool
    is refused (TypeError)."""
    x = tnp.asarray(np.array([[3.0, 1.0, 2.0, 1.0]], np.float32))
    ref = np.asarray(tnp.argsort(x))
    ref_desc = np.asarray(tnp.argsort(x, descending=True))
    for dt in (np.float32, np.float16, np.complex64, np.uint8, tnp.bfloat16):
        np.testing.assert_array_equal(np.asarray(tnp.argsort(x, dtype=dt)), ref.astype(dt))
        got = trellax.jit(lambda a, dt=dt: tnp.argsort(a, dtype=dt, descending=True))(x)
        assert got.dtype == np.dtype(dt)
        np.testing.assert_array_equal(np.asarray(got), ref_desc.astype(dt))
    big = tnp.asarray(np.arange(3000.0, dtype=np.float32)[::-1].copy())
    got = tnp.argsort(big, dtype=np.float16)
    np.testing.assert_array_equal(np.asarray(got), np.arange(3000).astype(np.float16)[::-1])
    with pytest.raises(TypeError):
        tnp.argsort(x, dtype=bool)


@pytest.mark.parametrize("n", [0, 1, 4, 5, 7])
@pytest.mark.parametrize("d", [1, 0.013, 0.3])
def test_fftfreq_integer_and_bool_dtypes(n: int, d: float) -> None:
    """JAX computes ``fftfreq`` in the inexact dtype of ``dtype`` and converts at the end: the
    frequencies truncated for an integer dtype (negative ones 0 for unsigned), nonzero-ness
    for bool. trellax divided in the integer dtype (wrong values, e.g. ``[0, -1, -2, 2, 1]``
    for ``[0, 10, 21, -21, -10]``) and raised for bool."""
    with trellax.enable_x64(True):
        f = np.fft.fftfreq(n, d) if n else np.zeros(0)
        for dt in (np.int8, np.int32, np.int64, np.uint8, np.uint32):
            want = np.where(f < 0, 0, np.trunc(f)) if np.dtype(dt).kind == "u" else np.trunc(f)
            got = tnp.fft.fftfreq(n, d, dtype=dt)
            assert got.dtype == np.dtype(dt)
            np.testing.assert_array_equal(np.asarray(got), want.astype(dt))
        np.testing.assert_array_equal(np.asarray(tnp.fft.fftfreq(n, d, dtype=bool)), f != 0)


# -- axis arguments: JAX's class for a non-integer, and the order of its checks --------------------


@pytest.mark.parametrize("axis", [None, (0, 1), (0,), 1.0])
def test_integer_axis_is_checked_first(axis: Any) -> None:
    """Functions whose axis JAX uses to index a shape: anything but an integer is its
    TypeError, before the checks that used to come first here (0-d operands of ``vecdot``,
    unequal shapes in ``stack``, a scalar in ``unstack``, ``n=0`` in ``diff``)."""
    s = tnp.float32(1.0)
    raises_everywhere(TypeError, lambda a, b: tnp.vecdot(a, b, axis=axis), V3, s)
    raises_everywhere(TypeError, lambda a: tnp.linalg.vecdot(a, a, axis=axis), F32)
    raises_everywhere(TypeError, lambda a, b: tnp.stack([a, b], axis=axis), F32, F32.T)
    raises_everywhere(TypeError, lambda a: tnp.unstack(a, axis=axis), s)
    raises_everywhere(TypeError, lambda a: tnp.diff(a, n=0, axis=axis), F32)
    raises_everywhere(TypeError, lambda a: tnp.unwrap(a, axis=axis), F32)
    raises_everywhere(TypeError, lambda a: tnp.linalg.cross(a, a, axis=axis), tnp.ones((3, 3)))
    raises_everywhere(TypeError, lambda a: tnp.partition(a, 1, axis=axis), V3)
    # an out-of-range integer axis keeps NumPy's AxisError (a ValueError and an IndexError)
    assert np.asarray(tnp.diff(F32, n=0, axis=5)).shape == (2, 3)


@pytest.mark.parametrize("fun", ["unwrap", "unwrap_discont"])
def test_unwrap_period_none(fun: str) -> None:
    """``period=None`` is JAX's ValueError (it promotes ``p`` with the period first), before
    the complex and axis checks; ``discont=None`` is the default."""
    kw = {"discont": 0.5} if fun == "unwrap_discont" else {}
    for x in (F32, tnp.ones((0, 2), tnp.complex64), tnp.asarray([1, 2, 3], tnp.uint16)):
        for axis in (-1, 5, (1, 0)):
            raises_everywhere(
                ValueError, lambda a, axis=axis: tnp.unwrap(a, period=None, axis=axis, **kw), x
            )
    np.testing.assert_array_equal(np.asarray(tnp.unwrap(V3, discont=None)), np.asarray(V3))


@pytest.mark.parametrize(
    ("shapes", "axes"),
    [(((), ()), ([0], [0])), (((3,), ()), ([0], [0])), (((2, 2), (2, 2)), ([2], [0])),
     (((2, 2), (2, 2)), ([0], [-3])), (((4,), (4,)), (5, 0))],
)  # fmt: skip
def test_tensordot_axis_out_of_range(shapes: Any, axes: Any) -> None:
    """A contracted axis outside an operand is JAX's ValueError (its canonicalization), not
    the TypeError of ``dot_general``; in range, negative axes count from the end."""
    x, y = (tnp.ones(s, tnp.int16) for s in shapes)
    raises_everywhere(ValueError, lambda a, b: tnp.tensordot(a, b, axes=axes), x, y)
    raises_everywhere(ValueError, lambda a, b: tnp.linalg.tensordot(a, b, axes=axes), x, y)
    m = tnp.ones((2, 3))
    assert tnp.tensordot(m, m, axes=([-1], [1])).shape == (2, 2)


@pytest.mark.parametrize("n", [-1, -5])
def test_tensordot_negative_axis_count(n: int) -> None:
    """A negative integer ``axes`` contracts nothing in JAX (and NumPy): the outer product,
    as ``axes=0``; trellax raised ValueError."""
    m = tnp.asarray(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    v = tnp.asarray(np.arange(2.0, dtype=np.float32))
    for a, b in ((m, m), (v, m), (tnp.float32(2.0), v)):
        want = np.asarray(tnp.tensordot(a, b, axes=0))
        for call in both(lambda x, y: tnp.tensordot(x, y, axes=n), a, b):
            np.testing.assert_array_equal(np.asarray(call()), want)


@pytest.mark.parametrize(("sa", "sb"), [((2, 3), (3, 3)), ((2, 2), (3, 2)), ((3, 3), (0, 3))])
def test_cross_batch_shapes_that_do_not_broadcast(sa: Any, sb: Any) -> None:
    """Vectors whose other dimensions do not broadcast: JAX's TypeError (it multiplies the
    components with ``lax.mul``), for ``jnp.cross`` and ``jnp.linalg.cross``."""
    x, y = tnp.ones(sa, tnp.float32), tnp.ones(sb, tnp.complex64)
    raises_everywhere(TypeError, tnp.cross, x, y)
    if sa[-1] == sb[-1] == 3:
        raises_everywhere(TypeError, tnp.linalg.cross, x, y)


def test_cross_axis_sequences() -> None:
    """``cross`` moves its axes with ``moveaxis`` in JAX: a one-element tuple is that axis, a
    longer one ValueError, None or a float for ``axisa`` TypeError."""
    b = tnp.asarray(np.arange(9.0).reshape(3, 3))
    c = tnp.asarray(np.arange(9.0).reshape(3, 3)[::-1].copy())
    np.testing.assert_array_equal(
        np.asarray(tnp.cross(b, c, axisc=(0,))), np.asarray(tnp.cross(b, c, axisc=0))
    )
    for kw in ({"axis": (0, 1)}, {"axisa": (0, 1)}, {"axisb": (1, -1, 0)}):
        raises_everywhere(ValueError, lambda a, kw=kw: tnp.cross(a, a, **kw), b)
    for kw in ({"axisa": None}, {"axisb": 1.0}):
        raises_everywhere(TypeError, lambda a, kw=kw: tnp.cross(a, a, **kw), b)


@pytest.mark.parametrize("axis", [(1, 0, 2), (0, 1), 1.0])
def test_packbits_axis(axis: Any) -> None:
    """``packbits``/``unpackbits`` index a shape array with the axis in JAX: a non-integer (a
    longer tuple, a float) is its IndexError; a one-element tuple is that axis."""
    x = tnp.ones((2, 2, 2), tnp.uint8)
    raises_everywhere(IndexError, lambda a: tnp.packbits(a, axis=axis), x)
    raises_everywhere(IndexError, lambda a: tnp.unpackbits(a, axis=axis), x)
    np.testing.assert_array_equal(
        np.asarray(tnp.packbits(x, axis=(1,))), np.asarray(tnp.packbits(x, axis=1))
    )


@pytest.mark.parametrize("axis", [(1, -3, 2), (0, 1)])
def test_compress_axis_sequences(axis: Any) -> None:
    """``compress`` moves the axis to the front as JAX does: a longer tuple is ValueError, a
    float TypeError, a one-element tuple the axis itself."""
    x = tnp.asarray(np.arange(24.0).reshape(4, 3, 2))
    cond = tnp.asarray([True, False, True])
    raises_everywhere(ValueError, lambda a: tnp.compress(cond, a, axis=axis), x)
    with pytest.raises(TypeError):
        tnp.compress(cond, x, axis=1.0)
    np.testing.assert_array_equal(
        np.asarray(tnp.compress(cond, x, axis=(1,))), np.asarray(tnp.compress(cond, x, axis=1))
    )


# -- values JAX needs before it looks at the other arguments ---------------------------------------


@pytest.mark.parametrize("axis", [None, 1, 5])
def test_concrete_values_are_needed_first(axis: int | None) -> None:
    """Under ``jit``, ``trim_zeros``, and ``unique``/``bincount`` without ``size``/``length``,
    raise JAX's ConcretizationTypeError before an axis out of range or mismatched weights
    (0-d and empty inputs too)."""
    for x in (tnp.ones(4, tnp.float16), tnp.ones(0, tnp.bfloat16), tnp.complex64(1.0)):
        with pytest.raises(errors.ConcretizationTypeError):
            trellax.jit(lambda a: tnp.trim_zeros(a, axis=axis))(x)
        with pytest.raises(errors.ConcretizationTypeError):
            trellax.jit(lambda a: tnp.unique(a, axis=axis, return_inverse=True))(x)
    for w in (tnp.uint16(1), tnp.ones(3)):
        with pytest.raises(errors.ConcretizationTypeError):
            trellax.jit(lambda a, w: tnp.bincount(a, weights=w))(tnp.zeros(0, tnp.int32), w)
    with pytest.raises(errors.ConcretizationTypeError):
        trellax.jit(lambda a: tnp.bincount(a, minlength=-1))(tnp.zeros(0, tnp.int32))
    out = trellax.jit(lambda a: tnp.bincount(a, length=3))(tnp.asarray([0, 2, 2]))
    np.testing.assert_array_equal(np.asarray(out), [1, 0, 2])


def test_lstsq_numpy_resid_under_jit() -> None:
    """``numpy_resid=True`` branches on the rank in Python in JAX: under ``jit`` its
    TracerBoolConversionError (a ConcretizationTypeError); eagerly the residuals."""
    a, b = tnp.asarray(np.eye(3, dtype=np.float32)), tnp.ones(3)
    with pytest.raises(errors.TracerBoolConversionError):
        trellax.jit(lambda a, b: tnp.linalg.lstsq(a, b, numpy_resid=True))(a, b)
    assert tnp.linalg.lstsq(a, b, numpy_resid=True)[1].shape == (0,)


@pytest.mark.parametrize("n", [None, 4])
def test_ihfft_reads_the_length_before_the_dtype(n: int | None) -> None:
    """``ihfft`` reads ``x.shape[axis]`` (without ``n``) before refusing complex input: a 0-d
    or out-of-range axis is IndexError first; in range, complex is ValueError."""
    for x in (tnp.complex64(1 + 1j), tnp.float32(2.0)):
        if n is None:
            raises_everywhere(IndexError, lambda a: tnp.fft.ihfft(a, norm="forward"), x)
    c = tnp.asarray(np.array([1 + 1j, 2, 3], np.complex64))
    raises_everywhere(ValueError, lambda a: tnp.fft.ihfft(a, n=n), c)
    if n is None:
        raises_everywhere(IndexError, lambda a: tnp.fft.ihfft(a, axis=5), c)


# -- calls JAX answers -------------------------------------------------------------------------------


def test_setxor1d_of_empty_inputs_under_jit() -> None:
    """With ``assume_unique`` and no ``size``, two empty inputs give the empty result under
    ``jit`` too (JAX returns before masking); a non-empty input still needs concrete values."""
    e = tnp.zeros(0, tnp.int32)
    for kw in ({}, {"fill_value": -1}):
        out = trellax.jit(lambda a, b, kw=kw: tnp.setxor1d(a, b, assume_unique=True, **kw))(e, e)
        assert out.shape == (0,) and out.dtype == np.int32
    with pytest.raises(errors.NonConcreteBooleanIndexError):
        trellax.jit(lambda a, b: tnp.setxor1d(a, b, assume_unique=True))(e, tnp.ones(3, tnp.int32))


def test_take_modes_and_bool_indices() -> None:
    """``take`` checks the mode first (``'raise'``: NotImplementedError even from an empty
    axis) and in its default fill mode reads bool indices as 0 and 1 (eagerly and under
    ``jit``); other modes refuse bool indices (ValueError)."""
    x = tnp.asarray(np.array([10.0, 20.0, 30.0], np.float32))
    b = tnp.asarray([True, False, True])
    want = np.asarray(tnp.take(x, tnp.asarray([1, 0, 1])))
    for mode in (None, "fill"):
        for call in both(lambda a, i, mode=mode: tnp.take(a, i, mode=mode), x, b):
            np.testing.assert_array_equal(np.asarray(call()), want)
    got = tnp.take(tnp.float32(5.0), b)  # a 0-d array flattens to one element: True is past it
    np.testing.assert_array_equal(np.asarray(got), [np.nan, 5.0, np.nan])
    with pytest.raises(ValueError):
        tnp.take(x, b, mode="clip")
    for shape in ((2, 0, 3), (3,)):
        raises_everywhere(
            NotImplementedError,
            lambda a: tnp.take(a, tnp.asarray([0, 1]), axis=0, mode="raise"),
            tnp.zeros(shape),
        )


@pytest.mark.parametrize("mode", ["wrap", "raise", "foo", "clip", None])
def test_take_along_axis_of_an_empty_axis(mode: Any) -> None:
    """Along an empty axis JAX returns zeros of the broadcast shape before it looks at the
    mode; elsewhere an unknown mode is ValueError."""
    x, i = tnp.ones((1, 0), tnp.int16), tnp.ones((1, 0), tnp.int32)
    for call in both(lambda a, j: tnp.take_along_axis(a, j, axis=-1, mode=mode), x, i):
        out = call()
        assert out.shape == (1, 0) and out.dtype == np.int16
    if mode in ("wrap", "raise", "foo"):
        with pytest.raises(ValueError):
            tnp.take_along_axis(tnp.ones((2, 2)), tnp.asarray([[0, 1]]), axis=1, mode=mode)


@pytest.mark.parametrize("fun", ["linspace", "logspace"])
@pytest.mark.parametrize("axis", [2, 5, -7])
def test_spacing_axis_out_of_range(fun: str, axis: int) -> None:
    """JAX only inserts the sample axis when there are fewer than 2 samples (a position past
    either end clamps to it); with more it indexes the result's shape: IndexError. A
    non-integer axis is TypeError, for ``geomspace`` before its zero check."""
    f = getattr(tnp, fun)
    start = tnp.asarray([1.0, 2.0])
    for num in (0, 1):
        out = f(start, 3.0, num=num, axis=axis)
        want = (num, 2) if axis < 0 else (2, num)
        assert out.shape == want
        assert trellax.jit(lambda a, num=num: f(a, 3.0, num=num, axis=axis))(start).shape == want
    raises_everywhere(IndexError, lambda a: f(a, 3.0, num=3, axis=axis), start)
    with pytest.raises(IndexError):
        f(1.0, 10.0, num=50, axis=axis, endpoint=False)
    assert f(1.0, 2.0, num=3, axis=-2).shape == (3,)  # -(rank + 2) counts to axis 0 in JAX
    for bad in (None, (0,), 0.0):
        with pytest.raises(TypeError):
            f(1.0, 10.0, num=3, axis=bad)
        with pytest.raises(TypeError):
            tnp.geomspace(0.0, 10.0, num=3, axis=bad)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.complex64])
def test_pad_of_an_empty_array(dtype: Any) -> None:
    """JAX computes the statistic along every axis, padded or not: of an empty array the mean
    is NaN (0 in an integer type), while the maximum and minimum fail (ValueError) and the
    median and linear ramp fail in a gather or slice (TypeError), whatever the widths."""
    x = tnp.zeros((0, 3), dtype)
    out = tnp.pad(x, 1, mode="mean")
    assert out.shape == (2, 5) and out.dtype == np.dtype(dtype)
    want = 0 if np.dtype(dtype).kind in "iu" else np.nan
    np.testing.assert_array_equal(np.asarray(out), np.full((2, 5), want, dtype))
    for width in (0, 1, ((0, 0), (1, 1))):
        for mode, cls in (("maximum", ValueError), ("minimum", ValueError),
                          ("median", TypeError), ("linear_ramp", TypeError)):  # fmt: skip
            with pytest.raises(cls):
                tnp.pad(x, width, mode=mode)
            with pytest.raises(cls):
                tnp.pad(tnp.zeros((3, 0), dtype), width, mode=mode)
    with pytest.raises(ValueError):  # a zero stat_length on any axis, padded or not
        tnp.pad(tnp.ones((2, 2)), ((0, 0), (1, 1)), mode="mean", stat_length=((0, 0), (1, 1)))


def test_one_hot_named_axis() -> None:
    """A non-integer ``axis`` of ``one_hot`` is the name of a mapped axis, as in JAX: under
    ``vmap`` the class is compared with that axis' index (``num_classes`` must be its size);
    outside, the unbound name is NameError."""
    x = tnp.asarray([[0, 1], [2, 2], [1, 0]])
    got = trellax.vmap(
        lambda r: trellax.nn.one_hot(r, 3, axis="i", dtype=tnp.int32), axis_name="i"
    )(x)
    want = (np.asarray(x) == np.arange(3)[:, None]).astype(np.int32)
    np.testing.assert_array_equal(np.asarray(got), want)
    with pytest.raises(ValueError):
        trellax.vmap(lambda r: trellax.nn.one_hot(r, 2, axis="i"), axis_name="i")(x)
    for axis in (None, "i", 1.5):
        raises_everywhere(NameError, lambda a, axis=axis: trellax.nn.one_hot(a, 3, axis=axis), x)


def test_standardize_fast_variance_of_complex() -> None:
    """JAX clips the ``'fast'`` variance at 0, which complex values cannot be: ValueError
    when the variance is computed from complex input (or a complex mean); ``'stable'`` or a
    given variance work."""
    c = tnp.asarray(np.array([[1 + 2j, 3 - 1j], [0.5j, 2.0]], np.complex64))
    f = tnp.asarray(np.array([[1.0, 2.0], [3.0, 5.0]], np.float32))
    for args in ((c,), (f,)):
        mean = {"mean": tnp.complex64(1)} if args[0] is f else {}
        raises_everywhere(ValueError, lambda a, mean=mean: trellax.nn.standardize(a, **mean), *args)
    assert trellax.nn.standardize(c, algorithm="stable").dtype == np.complex64
    assert trellax.nn.standardize(c, variance=tnp.float32(1.0)).dtype == np.complex64


def test_bessel_jn_arguments() -> None:
    """Complex input is refused before the order is read (JAX's classes: ValueError for
    complex128, TypeError for complex64); the order must be an integer (TypeError)."""
    with trellax.enable_x64(True):
        raises_everywhere(
            ValueError, lambda z: trellax.scipy.special.bessel_jn(z, v=0), tnp.ones(2, complex)
        )
    raises_everywhere(
        TypeError, lambda z: trellax.scipy.special.bessel_jn(z, v=0), tnp.ones(2, tnp.complex64)
    )
    with pytest.raises(TypeError):
        trellax.scipy.special.bessel_jn(tnp.ones(2), v=1.5)


def test_polyfit_shapes_before_dtype() -> None:
    """``polyfit`` checks the shapes (TypeError) before it reads x's epsilon for the default
    ``rcond`` (integer x: ValueError); with ``rcond`` given, integer x is fitted."""
    x, y = tnp.asarray([1, 2, 3], tnp.int16), tnp.asarray([1.0, 2.0], tnp.float32)
    with pytest.raises(TypeError):
        tnp.polyfit(x, y, 0)
    with pytest.raises(ValueError):
        tnp.polyfit(x, tnp.asarray([1.0, 2.0, 4.0]), 1)
    yy = tnp.asarray([1.0, 2.0, 4.0], tnp.float32)
    got = tnp.polyfit(x, yy, 1, rcond=1e-6)
    want = tnp.polyfit(x.astype(tnp.float32), yy, 1, rcond=1e-6)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


# -- the departures kept (docs/semantics.md's table; tests/fuzz_keywords_open.py, KNOWN) -------------


def test_kept_departures() -> None:
    """trellax's answers where JAX fails by accident: complex ``slogdet(method='qr')`` equals
    the LU one, set operations with ``size=0`` give the empty result, a 0-d ``ifftn`` with
    ``s=()`` is the input, ``trapezoid`` over an empty axis is 0, ``unpackbits`` with an empty
    dimension is empty, and ``nanargmin`` refuses complex input whatever its shape."""
    rng = np.random.default_rng(0)
    for n in (1, 3, 5):
        a = tnp.asarray((rng.normal(size=(n, n)) + 1j * rng.normal(size=(n, n))).astype("c8"))
        s_qr, l_qr = tnp.linalg.slogdet(a, method="qr")
        s_lu, l_lu = tnp.linalg.slogdet(a, method="lu")
        np.testing.assert_allclose(np.asarray(s_qr), np.asarray(s_lu), atol=1e-5)
        np.testing.assert_allclose(np.asarray(l_qr), np.asarray(l_lu), rtol=1e-5)
    e, v = tnp.zeros(0), tnp.asarray([1.0, 2.0, 3.0])
    for f in (tnp.setxor1d, tnp.intersect1d, tnp.setdiff1d):
        for a, b in ((e, e), (v, e), (v, v[:2])):
            assert f(a, b, size=0).shape == (0,)
    np.testing.assert_array_equal(np.asarray(tnp.fft.ifftn(tnp.float32(2.0), s=())), 2.0)
    with pytest.raises(ValueError):
        tnp.fft.irfftn(tnp.float32(2.0), s=())
    assert float(tnp.trapezoid(tnp.zeros(0), dx=-1.0)) == 0.0
    assert tnp.unpackbits(tnp.zeros((4, 0, 3), tnp.uint8), axis=2).shape == (4, 0, 24)
    for shape, axis in (((2, 2, 0), -2), ((2, 2), 0)):
        with pytest.raises(TypeError):
            tnp.nanargmin(tnp.zeros(shape, tnp.complex64), axis=axis)
    with trellax.enable_x64(True):
        q = tnp.quantile(tnp.asarray([3.0, 1.0, 2.0], tnp.float32), 0.5, method="inverted_cdf")
        assert float(q) == 2.0
