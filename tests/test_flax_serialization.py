"""trellax.flax.serialization: state dicts, round trips, error paths, and bytes that lie."""

from __future__ import annotations

import collections
import importlib
import pickle
import sys
import tracemalloc
from typing import Any, NamedTuple

import msgpack
import numpy as np
import pytest

import trellax
import trellax.compat
import trellax.numpy as jnp
from trellax import tree_util
from trellax._src.flax import msgpack_format
from trellax.flax import serialization, struct
from trellax.flax.core import FrozenDict, freeze
from trellax.flax.serialization import SerializedDataError


def ext_array(shape: Any, dtype_name: Any, buffer: bytes) -> bytes:
    """An array extension value as Flax encodes it, with arbitrary (possibly lying) contents."""
    payload = msgpack.packb((shape, dtype_name, buffer), use_bin_type=True)
    return msgpack.packb({"x": msgpack.ExtType(1, payload)})


# ----------------------------------------------------------------- state dicts


@struct.dataclass
class Point:
    x: Any
    y: Any
    meta: Any = struct.field(pytree_node=False, default=None)


class Original(NamedTuple):
    value: Any


class Wrong(NamedTuple):
    other: Any


def test_state_dict_of_containers() -> None:
    pair = collections.namedtuple("pair", "a b")
    tree = {"l": [1, (2, 3)], "p": pair(4, 5), "f": freeze({"k": 6}), "pt": Point(7, 8, meta="m")}
    assert serialization.to_state_dict(tree) == {
        "l": {"0": 1, "1": {"0": 2, "1": 3}},
        "p": {"a": 4, "b": 5},
        "f": {"k": 6},
        "pt": {"x": 7, "y": 8},
    }


def test_from_state_dict_keeps_target_classes_and_static_fields() -> None:
    pair = collections.namedtuple("pair", "a b")
    target = {"l": [0, (0, 0)], "p": pair(0, 0), "f": freeze({"k": 0}), "pt": Point(0, 0, "m")}
    state = {
        "l": {"0": 1, "1": {"0": 2, "1": 3}},
        "p": {"a": 4, "b": 5},
        "f": {"k": 6},
        "pt": {"x": 7, "y": 8},
    }
    restored = serialization.from_state_dict(target, state)
    assert restored["l"] == [1, (2, 3)]
    assert type(restored["p"]) is pair and restored["p"] == pair(4, 5)
    assert isinstance(restored["f"], FrozenDict) and restored["f"]["k"] == 6
    assert restored["pt"] == Point(7, 8, "m")


@pytest.mark.parametrize(
    ("target", "wrong", "message"),
    [
        (
            [[[1, 2, 3], [4, 5]]],
            [[[1, 2, 3], [4]]],
            "The size of the list and the state dict do not match, got 1 and 2 at path ./0/1",
        ),
        (
            (((1, 2, 3), (Original([4, 5]), 6)),),
            (((1, 2, 3), (Wrong([4, 5]), 6)),),
            "The field names of the state dict and the named tuple do not match, got {'value'} "
            "and {'other'} at path ./0/1/0",
        ),
        (
            {"a": {"b": {"c": [1], "d": [4, 5]}}},
            {"a": {"b": {"c": [1], "e": [4, 5]}}},
            "The target dict keys and state dict keys do not match, target dict contains keys "
            "{'e'} which are not present in state dict at path ./a/b",
        ),
        (
            {"a": freeze({"b": 1})},
            {"a": freeze({"c": 1})},
            "target dict contains keys {'c'} which are not present in state dict at path ./a",
        ),
    ],
)
def test_structure_mismatch_names_the_path(target: Any, wrong: Any, message: str) -> None:
    data = serialization.to_bytes(target)
    with pytest.raises(ValueError) as info:
        serialization.from_bytes(wrong, data)
    assert message in str(info.value)


def test_dataclass_field_errors() -> None:
    p = Point(1, 2)
    with pytest.raises(ValueError, match="Missing field y"):
        serialization.from_state_dict(p, {"x": 3})
    with pytest.raises(ValueError, match=r'Unknown field.*"z"'):
        serialization.from_state_dict(p, {"x": 3, "y": 4, "z": 5})


def test_leaf_where_a_dict_is_expected_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"Expected a state dict .* got int at path ./a"):
        serialization.from_state_dict({"a": {"b": 1}}, {"a": 3})


def test_register_serialization_state_twice_needs_override() -> None:
    class Box:
        pass

    serialization.register_serialization_state(Box, lambda b: {}, lambda b, s: b)
    with pytest.raises(ValueError, match="already registered"):
        serialization.register_serialization_state(Box, lambda b: {}, lambda b, s: b)
    serialization.register_serialization_state(Box, lambda b: {}, lambda b, s: b, override=True)
    assert serialization.is_serializable(Box())


def test_non_string_handler_keys_are_refused() -> None:
    class Odd:
        pass

    serialization.register_serialization_state(Odd, lambda o: {1: 2}, lambda o, s: o)
    with pytest.raises(TypeError, match="string keys"):
        serialization.to_state_dict(Odd())


def test_partial_round_trip() -> None:
    add = tree_util.Partial(jnp.add, 1)
    state = serialization.to_state_dict(add)
    assert state == {"args": {"0": 1}, "keywords": {}}
    restored = serialization.from_state_dict(add, {"args": {"0": 5}, "keywords": {}})
    assert int(restored(1)) == 6


# ----------------------------------------------------------------- round trips


def test_round_trip_keeps_dtypes_and_values() -> None:
    tree = {
        "f32": jnp.arange(6, dtype=jnp.float32).reshape(2, 3),
        "bf16": jnp.asarray([1.5, -2.0], jnp.bfloat16),
        "c64": jnp.asarray([1 + 2j], jnp.complex64),
        "i8": np.int8(-3),
        "c": 1j,
        "s": "text",
        "n": None,
    }
    restored = serialization.msgpack_restore(serialization.msgpack_serialize(tree))
    assert restored["f32"].dtype == np.float32 and restored["f32"].shape == (2, 3)
    assert isinstance(restored["f32"], np.ndarray)
    assert str(restored["bf16"].dtype) == "bfloat16"
    np.testing.assert_array_equal(restored["c64"], np.asarray([1 + 2j], np.complex64))
    assert type(restored["i8"]) is np.int8 and restored["i8"] == -3
    assert restored["c"] == 1j and restored["s"] == "text" and restored["n"] is None


def test_msgpack_serialize_does_not_modify_its_input() -> None:
    tree = {"a": jnp.ones(3)}
    serialization.msgpack_serialize(tree)
    assert isinstance(tree["a"], jnp.ndarray)


def test_big_endian_arrays_are_written_as_values() -> None:
    # The format has no byte order; Flax writes the raw bytes. trellax writes the values.
    arr = np.arange(6, dtype=">f4").reshape(2, 3)
    restored = serialization.msgpack_restore(serialization.msgpack_serialize(arr))
    np.testing.assert_array_equal(restored, arr)


def test_object_arrays_cannot_be_written() -> None:
    with pytest.raises(ValueError, match="Object and structured dtypes"):
        serialization.msgpack_serialize({"x": np.array([object()])})


def test_tracers_are_refused_with_trellax_error() -> None:
    def f(x: Any) -> Any:
        serialization.msgpack_serialize({"x": x})
        return x

    with pytest.raises(Exception, match=r"(?i)traced"):
        trellax.jit(f)(jnp.ones(2))


# ----------------------------------------------------------------- bytes that lie


def test_truncated_bytes() -> None:
    good = serialization.to_bytes({"w": np.arange(100, dtype=np.float32)})
    for cut in (1, 10, len(good) // 2, len(good) - 1):
        with pytest.raises(SerializedDataError, match=r"(?i)truncated|corrupted"):
            serialization.msgpack_restore(good[:cut])


def test_extra_bytes() -> None:
    good = serialization.to_bytes({"w": 1})
    with pytest.raises(SerializedDataError, match="extra bytes"):
        serialization.msgpack_restore(good + b"\x00")


def test_huge_declared_shape_is_refused_without_allocating() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(SerializedDataError, match=r"declares shape \(1099511627776,\)"):
            serialization.msgpack_restore(ext_array([2**40], "float32", b"\0" * 8))
        with pytest.raises(SerializedDataError, match="declares shape"):
            serialization.msgpack_restore(ext_array([2**31, 2**31], "int8", b"\0"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20


@pytest.mark.parametrize("shape", [[-1], [2, -1], "12", [1.5], [True], None, [[2]], {"0": 2}])
def test_malformed_shapes(shape: Any) -> None:
    with pytest.raises(SerializedDataError, match="shape"):
        serialization.msgpack_restore(ext_array(shape, "float32", b"\0" * 8))


@pytest.mark.parametrize(
    "name",
    ["object", "O", "nonsense", "f4,f4", ">f4", "<U3", "str96", "bytes24", "V8", 7, b"\xff", None],
)
def test_wrong_dtype_names(name: Any) -> None:
    with pytest.raises(SerializedDataError, match=r"(?i)dtype name"):
        serialization.msgpack_restore(ext_array([2], name, b"\0" * 8))


def test_wrong_buffer_size() -> None:
    with pytest.raises(SerializedDataError, match="holds 7 bytes"):
        serialization.msgpack_restore(ext_array([2], "float32", b"\0" * 7))


@pytest.mark.parametrize(
    "payload",
    [
        b"\xc1",
        msgpack.packb([1, 2]),
        msgpack.packb(((2,), "float32")),
        msgpack.packb(((2,), "float32", "text")),
    ],
)
def test_malformed_array_payloads(payload: bytes) -> None:
    data = msgpack.packb({"x": msgpack.ExtType(1, payload)})
    with pytest.raises(SerializedDataError):
        serialization.msgpack_restore(data)


def test_malformed_complex_payload() -> None:
    data = msgpack.packb({"x": msgpack.ExtType(2, msgpack.packb(["a", "b"]))})
    with pytest.raises(SerializedDataError, match="complex"):
        serialization.msgpack_restore(data)


def test_unknown_extension_types_stay_inert() -> None:
    restored = serialization.msgpack_restore(msgpack.packb({"x": msgpack.ExtType(99, b"abc")}))
    assert restored["x"] == msgpack.ExtType(99, b"abc")


@pytest.mark.parametrize("opener", [b"\x91", b"\x81\xa1a"])
def test_nesting_bombs(opener: bytes) -> None:
    data = opener * 100_000 + b"\xc0"
    with pytest.raises(SerializedDataError, match="nests deeper"):
        serialization.msgpack_restore(data)


def test_deep_but_legal_nesting_restores_without_recursion() -> None:
    data = b"\x81\xa1a" * 1000 + b"\xc0"
    tree = serialization.msgpack_restore(data)
    depth = 0
    while isinstance(tree, dict):
        tree = tree["a"]
        depth += 1
    assert depth == 1000 and sys.getrecursionlimit() >= 1000


def test_declared_container_sizes_larger_than_the_data() -> None:
    for data in (
        b"\xdd\xff\xff\xff\xf0\x00",
        b"\xdf\xff\xff\xff\xf0\x00",
        b"\xdb\xff\xff\xff\xf0ab",
    ):
        with pytest.raises(SerializedDataError):
            serialization.msgpack_restore(data)


def test_unhashable_map_key() -> None:
    with pytest.raises(SerializedDataError):
        serialization.msgpack_restore(b"\x81\x91\x01\x02")


def chunked(shape: Any, chunks: Any) -> bytes:
    return msgpack.packb(
        {"x": {"__msgpack_chunked_array__": True, "shape": shape, "chunks": chunks}}
    )


def test_chunked_array_with_lying_shape() -> None:
    chunk = msgpack.ExtType(1, msgpack.packb(((2,), "float32", b"\0" * 8), use_bin_type=True))
    with pytest.raises(SerializedDataError, match="declares shape"):
        serialization.msgpack_restore(chunked({"0": 2**40}, {"0": chunk}))
    with pytest.raises(SerializedDataError, match="shape"):
        serialization.msgpack_restore(chunked({"0": -2}, {"0": chunk}))
    with pytest.raises(SerializedDataError, match="'chunks'"):
        serialization.msgpack_restore(chunked({"0": 2}, [chunk]))
    with pytest.raises(SerializedDataError, match="1-d arrays"):
        serialization.msgpack_restore(chunked({"0": 2}, {"0": 5}))
    with pytest.raises(SerializedDataError, match="1-d arrays"):
        serialization.msgpack_restore(chunked({"0": 2}, {}))
    other = msgpack.ExtType(1, msgpack.packb(((1,), "int32", b"\0" * 4), use_bin_type=True))
    with pytest.raises(SerializedDataError, match="different dtypes"):
        serialization.msgpack_restore(chunked({"0": 3}, {"0": chunk, "1": other}))


def test_restore_refuses_non_bytes() -> None:
    with pytest.raises(TypeError, match="expects bytes"):
        serialization.msgpack_restore("text")  # type: ignore[arg-type]


def test_restore_never_unpickles(tmp_path: Any) -> None:
    class Boom:
        def __reduce__(self) -> Any:
            return (open, (str(tmp_path / "pwned"), "w"))

    data = pickle.dumps(Boom())
    with pytest.raises(SerializedDataError):
        serialization.msgpack_restore(data)
    assert not (tmp_path / "pwned").exists()
    # A pickle hidden in an array payload is just bytes of a numeric dtype.
    restored = serialization.msgpack_restore(ext_array([len(data)], "uint8", data))
    assert restored["x"].tobytes() == data
    assert not (tmp_path / "pwned").exists()


def test_missing_msgpack_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(msgpack_format, "_msgpack_module", None)
    monkeypatch.setitem(sys.modules, "msgpack", None)
    with pytest.raises(ImportError, match=r"pip install 'trellax\[flax\]'"):
        serialization.to_bytes({"a": 1})


def test_chunk_size_set_through_the_flax_alias_takes_effect() -> None:
    trellax.compat.install()
    try:
        alias = importlib.import_module("flax.serialization")
        assert alias is not serialization
        old = alias.MAX_CHUNK_SIZE
        alias.MAX_CHUNK_SIZE = 91 * 8
        try:
            assert msgpack_format.MAX_CHUNK_SIZE == 91 * 8 == alias.MAX_CHUNK_SIZE
            chunked = alias._chunk_array_leaves_in_place({"a": np.ones((10, 10))})
            assert chunked["a"]["chunks"]["1"].shape == (9,)
        finally:
            alias.MAX_CHUNK_SIZE = old
        assert msgpack_format.MAX_CHUNK_SIZE == old == 2**30
    finally:
        trellax.compat.uninstall()
