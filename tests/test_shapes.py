"""Shapes and joining of ``trellax.numpy``: dtypes, weak flags, values, jit parity and errors.

* Shape operations keep the dtype and the weak flag (reference §3.3.4), for every input kind,
  in x32 and x64, in standard and strict mode.
* Joining promotes with the lattice like an n-ary ufunc (§6.11, §3.4): ``concatenate([int8,
  uint8])`` is int16 and the result is weak exactly when the join is weak; strict mode refuses
  mixed dtypes. ``pad`` casts its fill values instead of promoting.
* Values are compared with NumPy (exactly: these functions only move elements, except the
  statistics and ramps of ``pad``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.core.errors import ConcretizationTypeError
from trellax.dtypes import TypePromotionError

CONFIGS = [(x64, mode) for x64 in (False, True) for mode in ("standard", "strict")]
_BASE = np.arange(24).reshape(2, 3, 4) % 7 - 2


def _np_dtype(name: str) -> np.dtype[Any]:
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def _strong(dtype: str) -> Callable[[], Any]:
    def make() -> Any:
        d = _np_dtype(dtype)
        values = np.abs(_BASE) if d.kind in "ub" else _BASE
        return tnp.asarray(values.astype(d))

    return make


#: Input kinds, built inside the config under test (weak arrays follow x64).
INPUTS: dict[str, Callable[[], Any]] = {
    "b": _strong("bool"),
    "i8": _strong("int8"),
    "u8": _strong("uint8"),
    "i32": _strong("int32"),
    "f16": _strong("float16"),
    "bf16": _strong("bfloat16"),
    "f32": _strong("float32"),
    "c64": _strong("complex64"),
    "wi": lambda: tnp.full((2, 3, 4), 2),
    "wf": lambda: tnp.full((2, 3, 4), 2.5),
    "wc": lambda: tnp.full((2, 3, 4), 1 + 2j),
}

#: Shape operations on a (2, 3, 4) array: the result keeps the input's dtype and weak flag.
SHAPE_OPS: dict[str, Callable[[Any], Any]] = {
    "reshape": lambda x: tnp.reshape(x, (4, -1)),
    "reshape-F": lambda x: tnp.reshape(x, (6, 4), order="F"),
    "ravel": tnp.ravel,
    "transpose": tnp.transpose,
    "permute_dims": lambda x: tnp.permute_dims(x, (2, 0, 1)),
    "moveaxis": lambda x: tnp.moveaxis(x, 0, -1),
    "swapaxes": lambda x: tnp.swapaxes(x, 0, 2),
    "expand_dims": lambda x: tnp.expand_dims(x, (0, 4)),
    "squeeze": lambda x: tnp.squeeze(tnp.expand_dims(x, 1)),
    "broadcast_to": lambda x: tnp.broadcast_to(x, (5, 2, 3, 4)),
    "broadcast_arrays": lambda x: tnp.broadcast_arrays(x, tnp.ones((5, 1, 1, 1), "int8"))[0],
    "flip": tnp.flip,
    "fliplr": tnp.fliplr,
    "flipud": tnp.flipud,
    "roll": lambda x: tnp.roll(x, 3),
    "roll-axes": lambda x: tnp.roll(x, (1, -2), (0, 2)),
    "rot90": lambda x: tnp.rot90(x, 1, (1, 2)),
    "atleast_3d": tnp.atleast_3d,
    "tril": tnp.tril,
    "triu": lambda x: tnp.triu(x, 1),
    "diagonal": lambda x: tnp.diagonal(x, 1, 1, 2),
    "tile": lambda x: tnp.tile(x, (2, 1, 1, 2)),
    "repeat": lambda x: tnp.repeat(x, 2, axis=1),
    "repeat-counts": lambda x: tnp.repeat(x, tnp.asarray([1, 0, 3]), axis=1),
    "split": lambda x: tnp.split(x, 2, axis=2)[1],
    "array_split": lambda x: tnp.array_split(x, 3, axis=2)[0],
    "unstack": lambda x: tnp.unstack(x, axis=1)[2],
    "concatenate-self": lambda x: tnp.concatenate([x, x], axis=1),
    "stack-self": lambda x: tnp.stack([x, x], axis=-1),
    "hstack-self": lambda x: tnp.hstack([x, x]),
    "vstack-self": lambda x: tnp.vstack([x, x]),
    "dstack-self": lambda x: tnp.dstack([x, x]),
    "pad-constant": lambda x: tnp.pad(x, 1, constant_values=1.5),
    "pad-edge": lambda x: tnp.pad(x, ((0, 1), (2, 0), (1, 1)), mode="edge"),
    "pad-reflect": lambda x: tnp.pad(x, 3, mode="reflect"),
    "pad-symmetric": lambda x: tnp.pad(x, 2, mode="symmetric"),
    "pad-wrap": lambda x: tnp.pad(x, 5, mode="wrap"),
    "pad-maximum": lambda x: tnp.pad(x, 1, mode="maximum"),
    "pad-empty": lambda x: tnp.pad(x, 1, mode="empty"),
}

_SHAPE_CASES = [(op, col) for op in SHAPE_OPS for col in INPUTS]


@pytest.mark.parametrize("x64,mode", CONFIGS, ids=lambda v: str(v))
@pytest.mark.parametrize("op,column", _SHAPE_CASES, ids=[f"{o}-{c}" for o, c in _SHAPE_CASES])
def test_shape_ops_keep_dtype_and_weak_flag(op: str, column: str, x64: bool, mode: str) -> None:
    with trellax.enable_x64(x64), trellax.numpy_dtype_promotion(mode):
        x = INPUTS[column]()
        out = SHAPE_OPS[op](x)
        assert (out.dtype, out.weak_type) == (x.dtype, x.weak_type)


#: Shape operations applied to Python scalars: weak results of the default dtype.
SCALAR_CASES = [
    ("reshape(2.0)", lambda: tnp.reshape(2.0, (1, 1)), "F"),
    ("ravel(2)", lambda: tnp.ravel(2), "I"),
    ("expand_dims(2)", lambda: tnp.expand_dims(2, 0), "I"),
    ("atleast_1d(2.0)", lambda: tnp.atleast_1d(2.0), "F"),
    ("atleast_2d(1j)", lambda: tnp.atleast_2d(1j), "C"),
    ("broadcast_to(2, (3,))", lambda: tnp.broadcast_to(2, (3,)), "I"),
    ("broadcast_arrays(2.0, f16)", lambda: tnp.broadcast_arrays(2.0, tnp.ones(2, "float16"))[0], "F"),
    ("tile(2, 3)", lambda: tnp.tile(2, 3), "I"),
    ("repeat(2.0, 3)", lambda: tnp.repeat(2.0, 3), "F"),
    ("flip(2)", lambda: tnp.flip(2), "I"),
    ("squeeze(2.0)", lambda: tnp.squeeze(2.0), "F"),
    ("transpose(2)", lambda: tnp.transpose(2), "I"),
]  # fmt: skip


def _default(code: str) -> np.dtype[Any]:
    bits = 64 if trellax.config.enable_x64 else 32
    return np.dtype({"I": f"int{bits}", "F": f"float{bits}", "C": f"complex{2 * bits}"}[code])


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("desc,thunk,code", SCALAR_CASES, ids=[c[0] for c in SCALAR_CASES])
def test_shape_ops_on_python_scalars_are_weak(desc: str, thunk: Any, code: str, x64: bool) -> None:
    with trellax.enable_x64(x64):
        out = thunk()
        assert (out.dtype, out.weak_type) == (_default(code), True)


def test_trace_accumulates_like_sum() -> None:
    x = tnp.full((3, 3), 2)  # weak int: trace is a reduction, so the result is strong
    assert (tnp.trace(x).dtype, tnp.trace(x).weak_type) == (np.int32, False)
    assert tnp.trace(tnp.eye(3, dtype="int8")).dtype == np.int32
    assert tnp.trace(tnp.eye(3, dtype=bool)).dtype == np.int32
    assert tnp.trace(tnp.eye(3, dtype="int8"), dtype="int8").dtype == np.int8
    with trellax.enable_x64(True):
        assert tnp.trace(tnp.eye(3, dtype="uint8")).dtype == np.uint64


# -- joining promotes with the lattice -------------------------------------------------------------


def _arr(dtype: str, n: int = 2) -> Any:
    return tnp.asarray(np.ones(n, _np_dtype(dtype)))


#: (description, thunk, x32 result, x64 result); ``*`` marks a weak result.
JOIN_CASES = [
    ("concatenate([i8, u8])", lambda: tnp.concatenate([_arr("int8"), _arr("uint8")]), "int16", "int16"),
    ("hstack([b, i8])", lambda: tnp.hstack([_arr("bool"), _arr("int8")]), "int8", "int8"),
    ("stack([i8[0], 1])", lambda: tnp.stack([_arr("int8")[0], 1]), "int8", "int8"),
    ("stack([1, 2])", lambda: tnp.stack([1, 2]), "int32*", "int64*"),
    ("stack([1, 2.0])", lambda: tnp.stack([1, 2.0]), "float32*", "float64*"),
    ("concatenate([full 1.0, full 2.0])", lambda: tnp.concatenate([tnp.full((1,), 1.0), tnp.full((1,), 2.0)]), "float32*", "float64*"),
    ("concatenate([full 1, full 2.0])", lambda: tnp.concatenate([tnp.full((1,), 1), tnp.full((1,), 2.0)]), "float32*", "float64*"),
    ("concatenate([asarray([1.0]), asarray([2])])", lambda: tnp.concatenate([tnp.asarray([1.0]), tnp.asarray([2])]), "float32", "float64"),
    ("concatenate([full 1.0, f16])", lambda: tnp.concatenate([tnp.full((1,), 1.0), _arr("float16")]), "float16", "float16"),
    ("concatenate([i8, full 1.0])", lambda: tnp.concatenate([_arr("int8"), tnp.full((1,), 1.0)]), "float32*", "float64*"),
    ("concatenate([i8, f16])", lambda: tnp.concatenate([_arr("int8"), _arr("float16")]), "float16", "float16"),
    ("concatenate([bf16, f16])", lambda: tnp.concatenate([_arr("bfloat16"), _arr("float16")]), "float32", "float32"),
    ("concatenate([f32, c64])", lambda: tnp.concatenate([_arr("float32"), _arr("complex64")]), "complex64", "complex64"),
    ("concatenate([u8, i32], axis=None)", lambda: tnp.concatenate([_arr("uint8"), _arr("int32")], axis=None), "int32", "int32"),
    ("vstack([u8, i8])", lambda: tnp.vstack([_arr("uint8"), _arr("int8")]), "int16", "int16"),
    ("dstack([i32, f16])", lambda: tnp.dstack([_arr("int32"), _arr("float16")]), "float16", "float16"),
    ("column_stack([b, u8])", lambda: tnp.column_stack([_arr("bool"), _arr("uint8")]), "uint8", "uint8"),
    ("concat([i8, i16])", lambda: tnp.concat([_arr("int8"), _arr("int16")]), "int16", "int16"),
    ("stack([u32, i32])", lambda: tnp.stack([_arr("uint32"), _arr("int32")]), "int32", "int64"),
    ("concatenate(dtype=float16)", lambda: tnp.concatenate([_arr("int8"), tnp.full((1,), 2.5)], dtype="float16"), "float16", "float16"),
    ("stack(dtype=int8)", lambda: tnp.stack([1, 2.7], dtype="int8"), "int8", "int8"),
    ("concatenate(array)", lambda: tnp.concatenate(tnp.full((2, 3), 1.0)), "float32*", "float64*"),
]  # fmt: skip


def _spelled(out: Any) -> str:
    return out.dtype.name + ("*" if out.weak_type else "")


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("desc,thunk,x32,x64_result", JOIN_CASES, ids=[c[0] for c in JOIN_CASES])
def test_joining_promotes(desc: str, thunk: Any, x32: str, x64_result: str, x64: bool) -> None:
    with trellax.enable_x64(x64), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # uint32 request truncation in stack
        assert _spelled(thunk()) == (x64_result if x64 else x32)


STRICT_ERRORS = [
    ("concatenate([i8, i16])", lambda: tnp.concatenate([_arr("int8"), _arr("int16")])),
    ("stack([i8, u8])", lambda: tnp.stack([_arr("int8"), _arr("uint8")])),
    ("hstack([b, i8])", lambda: tnp.hstack([_arr("bool"), _arr("int8")])),
    ("vstack([f16, f32])", lambda: tnp.vstack([_arr("float16"), _arr("float32")])),
    ("concatenate([i8, full 1.0])", lambda: tnp.concatenate([_arr("int8"), tnp.full((1,), 1.0)])),
]


@pytest.mark.parametrize("desc,thunk", STRICT_ERRORS, ids=[c[0] for c in STRICT_ERRORS])
def test_strict_mode_refuses_mixed_joins(desc: str, thunk: Any) -> None:
    with trellax.numpy_dtype_promotion("strict"), pytest.raises(TypePromotionError):
        thunk()


def test_strict_mode_allows_weak_and_same_dtype_joins() -> None:
    with trellax.numpy_dtype_promotion("strict"):
        assert _spelled(tnp.stack([_arr("int8")[0], 1])) == "int8"
        assert _spelled(tnp.concatenate([_arr("float16"), tnp.full((1,), 2.0)])) == "float16"
        assert _spelled(tnp.stack([1, 2])) == "int32*"


def test_pad_casts_fill_values() -> None:
    out = tnp.pad(_arr("int8", 3), 1, constant_values=1.5)
    assert (_spelled(out), out.tolist()) == ("int8", [1, 1, 1, 1, 1])
    out = tnp.pad(tnp.full((2,), 2.0), 1, constant_values=7)
    assert (_spelled(out), out.tolist()) == ("float32*", [7, 2, 2, 7])
    out = tnp.pad(_arr("float16", 2), 1, constant_values=tnp.asarray(3.0, dtype="float32"))
    assert _spelled(out) == "float16"
    out = tnp.pad(_arr("uint8", 2), 1, constant_values=-1)  # wraps, as a cast does
    assert out.tolist() == [255, 1, 1, 255]
    with trellax.numpy_dtype_promotion("strict"):
        assert _spelled(tnp.pad(_arr("int8", 2), 1, constant_values=2.5)) == "int8"


# -- values against NumPy ----------------------------------------------------------------------------

A = (np.arange(60).reshape(3, 4, 5) * 7 % 11 - 5).astype("float32")
M = A[0]
V = A[0, 0]

#: (description, trellax call, NumPy call); each is given the same data (A, M or V).
VALUE_CASES: list[tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = [
    ("reshape", lambda x: tnp.reshape(x, (5, -1)), lambda x: np.reshape(x, (5, -1))),
    ("reshape-F", lambda x: tnp.reshape(x, (6, 10), order="F"), lambda x: np.reshape(x, (6, 10), order="F")),
    ("ravel", tnp.ravel, np.ravel),
    ("ravel-F", lambda x: tnp.ravel(x, "F"), lambda x: np.ravel(x, "F")),
    ("transpose", tnp.transpose, np.transpose),
    ("transpose-axes", lambda x: tnp.transpose(x, (1, -1, 0)), lambda x: np.transpose(x, (1, -1, 0))),
    ("permute_dims", lambda x: tnp.permute_dims(x, (2, 0, 1)), lambda x: np.permute_dims(x, (2, 0, 1))),
    ("moveaxis", lambda x: tnp.moveaxis(x, 0, -1), lambda x: np.moveaxis(x, 0, -1)),
    ("moveaxis-many", lambda x: tnp.moveaxis(x, (0, 1), (2, 0)), lambda x: np.moveaxis(x, (0, 1), (2, 0))),
    ("swapaxes", lambda x: tnp.swapaxes(x, 0, -1), lambda x: np.swapaxes(x, 0, -1)),
    ("expand_dims", lambda x: tnp.expand_dims(x, (0, -1)), lambda x: np.expand_dims(x, (0, -1))),
    ("squeeze", lambda x: tnp.squeeze(x[:, :1, None]), lambda x: np.squeeze(x[:, :1, None])),
    ("squeeze-axis", lambda x: tnp.squeeze(x[:, :1], 1), lambda x: np.squeeze(x[:, :1], 1)),
    ("broadcast_to", lambda x: tnp.broadcast_to(x[:, :1], (2, 3, 4, 5)), lambda x: np.broadcast_to(x[:, :1], (2, 3, 4, 5))),
    ("flip", tnp.flip, np.flip),
    ("flip-axes", lambda x: tnp.flip(x, (0, 2)), lambda x: np.flip(x, (0, 2))),
    ("fliplr", tnp.fliplr, np.fliplr),
    ("flipud", tnp.flipud, np.flipud),
    ("roll", lambda x: tnp.roll(x, 7), lambda x: np.roll(x, 7)),
    ("roll-neg", lambda x: tnp.roll(x, -13, 2), lambda x: np.roll(x, -13, 2)),
    ("roll-axes", lambda x: tnp.roll(x, (1, 2), (0, 2)), lambda x: np.roll(x, (1, 2), (0, 2))),
    ("roll-array-shift", lambda x: tnp.roll(x, tnp.asarray([2, -1]), (1, 2)), lambda x: np.roll(x, (2, -1), (1, 2))),
    *[(f"rot90-{k}", lambda x, k=k: tnp.rot90(x, k, (2, 1)), lambda x, k=k: np.rot90(x, k, (2, 1))) for k in (-1, 0, 1, 2, 3, 6)],
    *[(f"tril-{k}", lambda x, k=k: tnp.tril(x, k), lambda x, k=k: np.tril(x, k)) for k in (-2, 0, 3, 9)],
    *[(f"triu-{k}", lambda x, k=k: tnp.triu(x, k), lambda x, k=k: np.triu(x, k)) for k in (-7, -1, 0, 2)],
    *[(f"diagonal-{o}-{a}", lambda x, o=o, a=a: tnp.diagonal(x, o, *a), lambda x, o=o, a=a: np.diagonal(x, o, *a)) for o in (-3, 0, 2, 6) for a in ((0, 1), (2, 0), (-1, 1))],
    *[(f"trace-{o}", lambda x, o=o: tnp.trace(x, o, 1, 2), lambda x, o=o: np.trace(x, o, 1, 2)) for o in (-2, 0, 1)],
    ("atleast_1d", tnp.atleast_1d, np.atleast_1d),
    ("atleast_2d", tnp.atleast_2d, np.atleast_2d),
    ("atleast_3d", tnp.atleast_3d, np.atleast_3d),
    ("concatenate", lambda x: tnp.concatenate([x, 2 * x], 1), lambda x: np.concatenate([x, 2 * x], 1)),
    ("concatenate-None", lambda x: tnp.concatenate([x, x[:1]], None), lambda x: np.concatenate([x, x[:1]], None)),
    ("concatenate-array", lambda x: tnp.concatenate(x, 1), lambda x: np.concatenate(x, 1)),
    ("stack", lambda x: tnp.stack([x, -x], 1), lambda x: np.stack([x, -x], 1)),
    ("stack-last", lambda x: tnp.stack([x, -x], -1), lambda x: np.stack([x, -x], -1)),
    ("hstack", lambda x: tnp.hstack([x, x]), lambda x: np.hstack([x, x])),
    ("vstack", lambda x: tnp.vstack([x, x]), lambda x: np.vstack([x, x])),
    ("dstack", lambda x: tnp.dstack([x, x]), lambda x: np.dstack([x, x])),
    ("column_stack", lambda x: tnp.column_stack([x, x]), lambda x: np.column_stack([x, x])),
    ("tile", lambda x: tnp.tile(x, 2), lambda x: np.tile(x, 2)),
    ("tile-many", lambda x: tnp.tile(x, (2, 1, 3)), lambda x: np.tile(x, (2, 1, 3))),
    ("tile-more-dims", lambda x: tnp.tile(x, (2, 1, 1, 2)), lambda x: np.tile(x, (2, 1, 1, 2))),
    ("repeat", lambda x: tnp.repeat(x, 3), lambda x: np.repeat(x, 3)),
    ("repeat-axis", lambda x: tnp.repeat(x, 2, -1), lambda x: np.repeat(x, 2, -1)),
    ("repeat-zero", lambda x: tnp.repeat(x, 0, 0), lambda x: np.repeat(x, 0, 0)),
    ("repeat-counts", lambda x: tnp.repeat(x, tnp.asarray([2, 0, 1]), 0), lambda x: np.repeat(x, [2, 0, 1], 0)),
    ("repeat-counts-axis1", lambda x: tnp.repeat(x, tnp.asarray([1, 3, 0, 2]), 1), lambda x: np.repeat(x, [1, 3, 0, 2], 1)),
]  # fmt: skip

_DATA_FOR = {3: A, 2: M, 1: V}


def _applicable(desc: str) -> list[int]:
    if desc.startswith(("rot90", "tril", "triu", "diagonal", "trace", "fliplr", "transpose-")):
        return [3] if desc.startswith(("diagonal", "trace", "rot90", "transpose-")) else [2, 3]
    if desc.startswith(("moveaxis", "swapaxes", "permute", "expand", "squeeze", "broadcast")):
        return [3]
    if desc.startswith(("roll-", "flip-", "concatenate-array", "stack-last", "tile-")):
        return [3]
    if desc.startswith(("repeat-", "concatenate", "stack")):
        return [3]
    if desc.startswith("reshape"):
        return [3]
    return [1, 2, 3]


_VALUE_PARAMS = [
    pytest.param(f, ref, _DATA_FOR[nd], id=f"{desc}-{nd}d")
    for desc, f, ref in VALUE_CASES
    for nd in _applicable(desc)
]


@pytest.mark.parametrize("f,ref,x", _VALUE_PARAMS)
def test_values(f: Any, ref: Any, x: np.ndarray) -> None:
    out = f(tnp.asarray(x))
    expected = ref(x)
    assert np.asarray(out).shape == np.shape(expected)
    np.testing.assert_array_equal(np.asarray(out), expected)


@pytest.mark.parametrize("desc", ["split", "array_split"])
@pytest.mark.parametrize(
    "sections,axis",
    [(2, 0), (4, 1), (5, 2), (3, 2), ([1, 3], 2), ([-2, 9], 2), ([3, 1], 1), ([], 0)],
    ids=str,
)
def test_split_values(desc: str, sections: Any, axis: int) -> None:
    if isinstance(sections, list) and sorted([0, *sections, A.shape[axis]]) != [
        0,
        *sections,
        A.shape[axis],
    ]:  # JAX refuses split points NumPy would slice (negative, decreasing, past the end)
        with pytest.raises(ValueError, match="nondecreasing"):
            getattr(tnp, desc)(tnp.asarray(A), sections, axis)
        return
    try:
        expected = getattr(np, desc)(A, sections, axis)
    except ValueError:
        with pytest.raises(ValueError, match="equal division"):
            getattr(tnp, desc)(tnp.asarray(A), sections, axis)
        return
    out = getattr(tnp, desc)(tnp.asarray(A), sections, axis)
    assert len(out) == len(expected)
    for o, e in zip(out, expected):
        np.testing.assert_array_equal(np.asarray(o), e)
        assert np.asarray(o).shape == e.shape


def test_hsplit_vsplit_dsplit_unstack() -> None:
    x = tnp.asarray(A)
    for name in ("hsplit", "vsplit", "dsplit"):
        sections = {"hsplit": 2, "vsplit": 3, "dsplit": [1, 4]}[name]
        for o, e in zip(getattr(tnp, name)(x, sections), getattr(np, name)(A, sections)):
            np.testing.assert_array_equal(np.asarray(o), e)
    assert [o.shape for o in tnp.hsplit(tnp.arange(6), 3)] == [(2,)] * 3
    assert [o.tolist() for o in tnp.vsplit(tnp.arange(4), [3, 3])] == [[0, 1, 2], [], [3]]
    for axis in (0, 1, -1):
        parts = tnp.unstack(x, axis=axis)
        assert isinstance(parts, tuple) and len(parts) == A.shape[axis]
        for i, p in enumerate(parts):
            np.testing.assert_array_equal(np.asarray(p), np.take(A, i, axis=axis))


def test_broadcast_helpers() -> None:
    assert tnp.broadcast_shapes((3, 1), 4, (2, 1, 1)) == (2, 3, 4)
    assert tnp.broadcast_shapes() == ()
    a, b = tnp.broadcast_arrays(tnp.ones((3, 1)), tnp.arange(4))
    assert a.shape == b.shape == (3, 4)
    assert tnp.broadcast_arrays() == []


# -- pad against NumPy -------------------------------------------------------------------------------

PAD_MODES: list[tuple[str, dict[str, Any]]] = [
    ("constant", {}),
    ("constant", {"constant_values": 3}),
    ("constant", {"constant_values": (1, 2)}),
    ("constant", {"constant_values": ((1, 2), (3, 4))}),
    ("edge", {}),
    ("wrap", {}),
    ("reflect", {}),
    ("symmetric", {}),
    ("reflect", {"reflect_type": "odd"}),
    ("symmetric", {"reflect_type": "odd"}),
    ("maximum", {}),
    ("minimum", {"stat_length": 2}),
    ("mean", {}),
    ("mean", {"stat_length": ((1, 2), (3, 1))}),
    ("median", {}),
    ("linear_ramp", {}),
    ("linear_ramp", {"end_values": (4, -3)}),
]
PAD_WIDTHS = [0, 1, 3, 8, (2, 5), ((1, 0), (0, 4))]
PAD_ARRAYS = {
    "1x1": np.array([[2.0]], "float32"),
    "1x4": (np.arange(4.0, dtype="float32") ** 2).reshape(1, 4),
    "3x2-int": np.array([[1, 5], [-2, 7], [4, 0]], "int32"),
    "2x3": np.array([[0.5, -1.0, 2.0], [3.0, 1.5, -2.5]], "float32"),
}


@pytest.mark.parametrize("width", PAD_WIDTHS, ids=str)
@pytest.mark.parametrize("mode,kwargs", PAD_MODES, ids=[f"{m}-{k}" for m, k in PAD_MODES])
@pytest.mark.parametrize("name", list(PAD_ARRAYS))
def test_pad_matches_numpy(name: str, mode: str, kwargs: dict[str, Any], width: Any) -> None:
    a = PAD_ARRAYS[name]
    out = tnp.pad(tnp.asarray(a), width, mode, **kwargs)
    expected = np.pad(a, width, mode, **kwargs)
    assert out.shape == expected.shape and out.dtype == a.dtype
    if a.dtype.kind in "iu" and mode in ("mean", "median", "linear_ramp"):
        # NumPy computes these in float64; trellax in float32 before rounding or flooring
        np.testing.assert_allclose(np.asarray(out), expected, atol=1)
    else:
        np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6, atol=1e-6)


def test_pad_empty_mode_is_zero_filled() -> None:
    out = tnp.pad(tnp.ones((2, 2)), 1, mode="empty")
    assert out.tolist() == np.pad(np.ones((2, 2)), 1).tolist()


# -- methods -----------------------------------------------------------------------------------------


def test_shape_methods() -> None:
    x = tnp.asarray(A)
    assert x.reshape(5, 12).shape == (5, 12)
    assert x.reshape((5, -1)).shape == (5, 12)
    assert x.reshape(shape=(60,)).shape == (60,)
    np.testing.assert_array_equal(
        np.asarray(x.reshape(6, 10, order="F")), A.reshape(6, 10, order="F")
    )
    np.testing.assert_array_equal(np.asarray(x.flatten()), A.flatten())
    np.testing.assert_array_equal(np.asarray(x.ravel("F")), A.ravel("F"))
    assert x.transpose().shape == (5, 4, 3)
    assert x.transpose(1, 0, 2).shape == x.transpose((1, 0, 2)).shape == (4, 3, 5)
    assert x.swapaxes(0, 2).shape == (5, 4, 3)
    assert x[:, :1].squeeze().shape == (3, 5)
    assert x[:, :1].squeeze(1).shape == (3, 5)
    np.testing.assert_array_equal(np.asarray(x.diagonal(1, 1, 2)), A.diagonal(1, 1, 2))
    assert float(x[0].trace()) == float(np.trace(A[0]))
    assert x.repeat(2, axis=0).shape == (6, 4, 5)
    assert x.repeat(2).shape == (120,)


# -- eager and jit agree -----------------------------------------------------------------------------

JIT_CASES: list[tuple[str, Callable[..., Any]]] = [
    ("reshape", lambda x: tnp.reshape(x, (-1, 5))),
    ("transpose", lambda x: tnp.transpose(x, (2, 0, 1))),
    ("roll-static", lambda x: tnp.roll(x, 3, 1)),
    ("roll-traced", lambda x: tnp.roll(x, tnp.sum(x > 0), (0, 2))),
    ("rot90", lambda x: tnp.rot90(x, 3, (0, 2))),
    ("tril", lambda x: tnp.tril(x, -1)),
    ("diagonal", lambda x: tnp.diagonal(x, 1, 0, 2)),
    ("trace", lambda x: tnp.trace(x, -1, 1, 2)),
    ("concatenate", lambda x: tnp.concatenate([x, 1.0 * x], 2)),
    ("stack", lambda x: tnp.stack([x, x], 1)),
    ("split", lambda x: tnp.array_split(x, 3, axis=2)[-1]),
    ("unstack", lambda x: tnp.unstack(x, axis=2)[3]),
    ("tile", lambda x: tnp.tile(x, (1, 2, 1))),
    ("repeat", lambda x: tnp.repeat(x, 2, axis=1)),
    ("repeat-traced", lambda x: tnp.repeat(x, (x[:, 0, 0] > -5).astype(int) + 1, 0, total_repeat_length=6)),
    ("pad-reflect", lambda x: tnp.pad(x, 4, mode="reflect")),
    ("pad-traced-value", lambda x: tnp.pad(x, 1, constant_values=tnp.max(x))),
    ("pad-mean", lambda x: tnp.pad(x, 2, mode="mean")),
    ("pad-ramp", lambda x: tnp.pad(x, 2, mode="linear_ramp", end_values=1)),
    ("broadcast_to", lambda x: tnp.broadcast_to(x, (2, 3, 4, 5))),
]  # fmt: skip


@pytest.mark.parametrize("name,f", JIT_CASES, ids=[c[0] for c in JIT_CASES])
def test_jit_matches_eager(name: str, f: Callable[..., Any]) -> None:
    x = tnp.asarray(A)
    eager = f(x)
    traced = trellax.jit(f)(x)
    assert (traced.shape, traced.dtype, traced.weak_type) == (
        eager.shape,
        eager.dtype,
        eager.weak_type,
    )
    np.testing.assert_array_equal(np.asarray(traced), np.asarray(eager))


def test_jit_keeps_weak_flag_through_shape_ops() -> None:
    out = trellax.jit(lambda v: tnp.tile(tnp.reshape(v, (1, 1)), 3))(2.0)
    assert (out.shape, out.dtype, out.weak_type) == ((1, 3), np.float32, True)


def test_value_dependent_shapes_need_static_values_under_jit() -> None:
    with pytest.raises(ConcretizationTypeError, match="total_repeat_length"):
        trellax.jit(lambda x, r: tnp.repeat(x, r))(tnp.arange(3), tnp.asarray([1, 2, 0]))


# -- bad input -----------------------------------------------------------------------------------------

ERRORS = [
    ("reshape size", lambda: tnp.reshape(tnp.ones(6), (4,)), TypeError, "cannot reshape"),
    ("reshape -1 indivisible", lambda: tnp.reshape(tnp.ones(6), (-1, 4)), TypeError, "cannot reshape"),
    ("reshape two -1", lambda: tnp.reshape(tnp.ones(6), (-1, -1)), TypeError, "one unknown axis size"),
    ("reshape order", lambda: tnp.reshape(tnp.ones(6), (6,), order="X"), ValueError, "order"),
    ("reshape shape type", lambda: tnp.reshape(tnp.ones(6), (2.0, 3)), TypeError, "sequence of integers"),
    ("ravel order K", lambda: tnp.ravel(tnp.ones(6), "K"), NotImplementedError, "order='K'"),
    ("transpose bad perm", lambda: tnp.transpose(tnp.ones((2, 3)), (0, 0)), TypeError, "permutation"),
    ("transpose bad axis", lambda: tnp.transpose(tnp.ones((2, 3)), (0, 2)), ValueError, "out of bounds"),
    ("moveaxis lengths", lambda: tnp.moveaxis(tnp.ones((2, 3)), (0, 1), 0), ValueError, "same number"),
    ("moveaxis repeated", lambda: tnp.moveaxis(tnp.ones((2, 3)), (0, 0), (0, 1)), ValueError, "repeated"),
    ("swapaxes bad axis", lambda: tnp.swapaxes(tnp.ones((2, 3)), 0, 2), IndexError, "out of bounds"),
    ("squeeze non-unit", lambda: tnp.squeeze(tnp.ones((2, 1)), 0), ValueError, "size not equal to one"),
    ("expand_dims bad axis", lambda: tnp.expand_dims(tnp.ones(2), 3), ValueError, "out of bounds"),
    ("expand_dims repeated", lambda: tnp.expand_dims(tnp.ones(2), (0, 0)), ValueError, "repeated axis"),
    ("broadcast_to incompatible", lambda: tnp.broadcast_to(tnp.ones(3), (4,)), ValueError, "Incompatible types for broadcasting"),
    ("broadcast_to fewer dims", lambda: tnp.broadcast_to(tnp.ones((2, 3)), (3,)), ValueError, "fewer dimensions"),
    ("broadcast_arrays incompatible", lambda: tnp.broadcast_arrays(tnp.ones(3), tnp.ones(4)), ValueError, "Incompatible shapes"),
    ("broadcast_shapes incompatible", lambda: tnp.broadcast_shapes((2,), (3,)), ValueError, "Incompatible shapes"),
    ("concatenate empty", lambda: tnp.concatenate([]), ValueError, "at least one array"),
    ("concatenate 0-d", lambda: tnp.concatenate([tnp.ones(()), tnp.ones(())]), ValueError, "Zero-dimensional"),
    ("concatenate shapes", lambda: tnp.concatenate([tnp.ones((2, 3)), tnp.ones((2, 4))]), TypeError, "Cannot concatenate"),
    ("concatenate ranks", lambda: tnp.concatenate([tnp.ones((2, 3)), tnp.ones(3)]), TypeError, "Cannot concatenate"),
    ("concatenate bad axis", lambda: tnp.concatenate([tnp.ones(3), tnp.ones(3)], 1), ValueError, "out of bounds"),
    ("concatenate list leaf", lambda: tnp.concatenate([tnp.ones(3), [1.0]]), TypeError, "requires ndarray"),
    ("concatenate not a sequence", lambda: tnp.concatenate(3), TypeError, "sequence"),
    ("stack shapes", lambda: tnp.stack([tnp.ones(2), tnp.ones(3)]), ValueError, "same shape"),
    ("stack empty", lambda: tnp.stack([]), ValueError, "at least one array"),
    ("split unequal", lambda: tnp.split(tnp.ones(5), 2), ValueError, "equal division"),
    ("split zero sections", lambda: tnp.split(tnp.ones(5), 0), ValueError, "larger than 0"),
    ("split float", lambda: tnp.split(tnp.ones(4), [2.0]), TypeError, "integers"),
    # JAX's vsplit splits 1-D input along axis 0 (NumPy refuses); a 0-d input has no axis 0
    ("vsplit 0-d", lambda: tnp.vsplit(tnp.ones(()), 2), IndexError, "out of bounds"),
    ("dsplit 2-d", lambda: tnp.dsplit(tnp.ones((2, 4)), 2), IndexError, "out of bounds"),
    ("unstack 0-d", lambda: tnp.unstack(tnp.ones(())), ValueError, "rank > 0"),
    ("tile negative", lambda: tnp.tile(tnp.ones(2), -1), ValueError, "negative"),
    ("repeat negative", lambda: tnp.repeat(tnp.ones(2), -1), TypeError, "negative"),
    ("repeat counts length", lambda: tnp.repeat(tnp.ones(3), tnp.asarray([1, 2])), ValueError, "repeats"),
    ("repeat float counts", lambda: tnp.repeat(tnp.ones(2), tnp.asarray([1.0, 2.0])), TypeError, "integers"),
    ("rot90 1-d", lambda: tnp.rot90(tnp.ones(3)), ValueError, "ndim at least two"),
    ("rot90 same axes", lambda: tnp.rot90(tnp.ones((2, 2)), axes=(1, 1)), ValueError, "different"),
    ("tril 1-d", lambda: tnp.tril(tnp.ones(3)), ValueError, "at least 2D"),
    ("diagonal 1-d", lambda: tnp.diagonal(tnp.ones(3)), ValueError, "two dimensions"),
    ("diagonal same axes", lambda: tnp.diagonal(tnp.ones((2, 2)), 0, 1, 1), ValueError, "cannot be the same"),
    ("fliplr 1-d", lambda: tnp.fliplr(tnp.ones(3)), ValueError, "2-d"),
    ("flip bad axis", lambda: tnp.flip(tnp.ones(3), 1), ValueError, "out of bounds"),
    ("roll mismatched", lambda: tnp.roll(tnp.ones((2, 2)), (1, 2, 3), (0, 1)), ValueError, "same length"),
    ("pad negative", lambda: tnp.pad(tnp.ones(3), -1), ValueError, "negative"),
    ("pad float width", lambda: tnp.pad(tnp.ones(3), 1.5), TypeError, "integral"),
    ("pad width shape", lambda: tnp.pad(tnp.ones((2, 2)), ((1, 2, 3),)), ValueError, "unsupported shape"),
    ("pad mode", lambda: tnp.pad(tnp.ones(3), 1, mode="spline"), NotImplementedError, "Unimplemented padding mode"),
    ("pad kwargs", lambda: tnp.pad(tnp.ones(3), 1, mode="edge", constant_values=1), ValueError, "unsupported keyword"),
    ("pad reflect_type", lambda: tnp.pad(tnp.ones(3), 1, mode="reflect", reflect_type="weird"), ValueError, "reflect_type"),
    ("pad empty axis", lambda: tnp.pad(tnp.ones((0, 2)), 1, mode="wrap"), ValueError, "empty axis"),
    ("pad stat_length 0", lambda: tnp.pad(tnp.ones(3), 1, mode="mean", stat_length=0), ValueError, "stat_length"),
    ("pad constant_values shape", lambda: tnp.pad(tnp.ones(3), 1, constant_values=(1, 2, 3)), ValueError, "constant_values"),
    ("list input", lambda: tnp.reshape([1, 2], (2,)), TypeError, "requires ndarray"),
]  # fmt: skip


@pytest.mark.parametrize("desc,thunk,exc,words", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(desc: str, thunk: Any, exc: type[Exception], words: str) -> None:
    with pytest.raises(exc, match=words):
        thunk()
