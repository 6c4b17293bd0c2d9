"""Flax's bytes: files written by Flax 0.12.8 (tests/golden/flax, tools/gen_golden_flax.py)
restore in trellax, and trellax writes the very same bytes for the same trees.

With ``TRELLAX_WRITE_FLAX_FILES=DIR`` the tests also write trellax's files to DIR, for
``tools/gen_golden_flax.py --check DIR`` (Flax restores them).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import flax_golden_cases as cases
import numpy as np
import pytest

import trellax.numpy as jnp
from trellax import optim, tree_util
from trellax.flax import serialization, struct
from trellax.flax.core import FrozenDict, freeze
from trellax.flax.training import train_state

GOLDEN = Path(__file__).parent / "golden" / "flax"


@struct.dataclass
class Holder:
    pair: Any
    params: Any
    name: str = struct.field(pytree_node=False, default="holder")


def structured_target(zeros: bool = False) -> dict[str, Any]:
    parts = cases.structured_parts()
    if zeros:
        parts = tree_util.tree_map(np.zeros_like, parts)
    state = train_state.TrainState.create(
        apply_fn=None, params=freeze(parts["params"]), tx=optim.adam(1e-3)
    ).replace(step=parts["step"])
    return {
        "frozen": freeze(parts["params"]),
        "holder": Holder(pair=parts["pair"], params=parts["params"]),
        "train_state": state,
        "tuple": (1, (2.0, None), []),
    }


def golden(stem: str) -> bytes:
    return (GOLDEN / f"{stem}.msgpack").read_bytes()


def assert_same_tree(got: Any, want: Any, path: str = "") -> None:
    """Same containers, keys, leaf types, dtypes, shapes and values (NaN-aware, bit-exact)."""
    if isinstance(want, dict):
        assert isinstance(got, dict), path
        assert list(got) == list(want), path
        for key in want:
            assert_same_tree(got[key], want[key], f"{path}/{key}")
    elif isinstance(want, (list, tuple)):
        assert isinstance(got, list) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same_tree(g, w, f"{path}/{i}")
    elif isinstance(want, (np.ndarray, np.generic)):
        assert type(got) is type(want), (path, type(got), type(want))
        assert got.dtype == want.dtype and got.shape == want.shape, path
        if want.dtype.kind in "fc" and want.dtype.itemsize > 8:
            assert np.array_equal(got, want, equal_nan=True), path
        else:
            assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes(), path
    else:
        assert type(got) is type(want) and got == want, (path, got, want)


def maybe_write(stem: str, data: bytes) -> None:
    out = os.environ.get("TRELLAX_WRITE_FLAX_FILES")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / f"{stem}.msgpack").write_bytes(data)


def test_manifest_names_flax_0_12_8() -> None:
    manifest = json.loads((GOLDEN / "manifest.json").read_text())
    assert manifest["versions"]["flax"] == "0.12.8"
    assert manifest["small_chunk_size"] == cases.SMALL_CHUNK_SIZE
    for name, size in manifest["files"].items():
        assert (GOLDEN / name).stat().st_size == size


@pytest.mark.parametrize(
    ("stem", "build"),
    [
        ("dtypes", cases.dtype_tree),
        ("scalars", cases.scalar_tree),
        ("long_double", cases.long_double_tree),
    ],
)
def test_flax_files_restore_with_every_dtype(stem: str, build: Any) -> None:
    assert_same_tree(
        serialization.msgpack_restore(golden(stem)), serialization.to_state_dict(build())
    )


@pytest.mark.parametrize(
    ("stem", "build"), [("dtypes", cases.dtype_tree), ("scalars", cases.scalar_tree)]
)
def test_trellax_writes_flax_bytes(stem: str, build: Any) -> None:
    data = serialization.to_bytes(build())
    maybe_write(stem, data)
    assert data == golden(stem)


def test_long_double_roundtrips_by_value() -> None:
    data = serialization.to_bytes(cases.long_double_tree())
    maybe_write("long_double", data)
    assert_same_tree(
        serialization.msgpack_restore(data), serialization.to_state_dict(cases.long_double_tree())
    )


def test_trellax_arrays_write_the_same_bytes_as_numpy() -> None:
    tree = {"bf16": cases.sample_array("bfloat16"), "c64": cases.sample_array("complex64")}
    as_trellax = {k: jnp.asarray(v) for k, v in tree.items()}
    assert serialization.to_bytes(as_trellax) == serialization.to_bytes(tree)


def test_chunked_flax_file_restores_and_bytes_match() -> None:
    restored = serialization.msgpack_restore(golden("chunked"))
    assert_same_tree(restored, cases.chunked_tree())
    old = serialization.MAX_CHUNK_SIZE
    serialization.MAX_CHUNK_SIZE = cases.SMALL_CHUNK_SIZE
    try:
        data = serialization.to_bytes(cases.chunked_tree())
    finally:
        serialization.MAX_CHUNK_SIZE = old
    maybe_write("chunked", data)
    assert data == golden("chunked")
    # Not chunked at the default size: different bytes, same tree.
    plain = serialization.to_bytes(cases.chunked_tree())
    assert plain != data
    assert_same_tree(serialization.msgpack_restore(plain), cases.chunked_tree())


def test_structured_objects_match_flax_bytes() -> None:
    target = structured_target()
    data = serialization.to_bytes(target)
    maybe_write("structured", data)
    assert data == golden("structured")


def test_structured_flax_file_restores_into_trellax_objects() -> None:
    target = structured_target(zeros=True)
    assert float(np.sum(target["frozen"]["Dense_1"]["kernel"])) == 0.0
    restored = serialization.from_bytes(target, golden("structured"))
    assert isinstance(restored["frozen"], FrozenDict)
    assert isinstance(restored["holder"], Holder) and restored["holder"].name == "holder"
    assert isinstance(restored["train_state"], train_state.TrainState)
    assert restored["train_state"].step == 3
    assert restored["train_state"].tx is target["train_state"].tx
    np.testing.assert_array_equal(restored["frozen"]["Dense_1"]["kernel"], np.ones((4, 2)))
    pair = restored["holder"].pair
    assert type(pair) is cases.Pair and pair.second[1] == (2, 3)
    np.testing.assert_array_equal(pair.first, np.arange(3, dtype=np.int32))
    assert restored["tuple"] == (1, (2.0, None), [])
    # The restored state trains on.
    state = restored["train_state"]
    grads = tree_util.tree_map(jnp.ones_like, state.params)
    assert state.apply_gradients(grads=grads).step == 4
