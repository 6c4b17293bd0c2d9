"""flatten_util, example_libraries and the experimental stand-ins against JAX 0.10.2
(tests/golden/compat.json, written by tools/gen_golden_compat.py from tests/compat_cases.py)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import flatten_util, random
from trellax.example_libraries import optimizers, stax
from trellax.experimental import (
    checkify,
    disable_x64,
    enable_x64,
    io_callback,
    mesh_utils,
    multihost_utils,
)
from trellax.experimental import shard_map as shard_map_module
from trellax.sharding import Mesh, PartitionSpec

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
import compat_cases  # noqa: E402

GOLDEN: dict[str, Any] = json.loads((ROOT / "golden" / "compat.json").read_text())["cases"]

M = types.SimpleNamespace(
    jax=trellax,
    jnp=tnp,
    random=random,
    flatten_util=flatten_util,
    stax=stax,
    optimizers=optimizers,
    checkify=checkify,
    io_callback=io_callback,
    enable_x64=enable_x64,
    disable_x64=disable_x64,
    mesh_utils=mesh_utils,
    multihost_utils=multihost_utils,
    shard_map=shard_map_module,
    P=PartitionSpec,
    Mesh=Mesh,
)


def check_same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, list):
        assert isinstance(got, list), f"{where}: {got!r} is not a sequence"
        assert len(got) == len(want), f"{where}: length {len(got)} != {len(want)}"
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            check_same(g, w, f"{where}[{k}]")
        return
    if isinstance(want, dict) and "dtype" in want and "shape" in want:
        assert isinstance(got, dict) and "dtype" in got, f"{where}: {got!r} is not an array"
        assert got["dtype"] == want["dtype"], f"{where}: dtype {got['dtype']} != {want['dtype']}"
        assert got["weak"] == want["weak"], f"{where}: weak {got['weak']} != {want['weak']}"
        assert got["shape"] == want["shape"], f"{where}: shape {got['shape']} != {want['shape']}"
        if isinstance(want["value"], str):
            assert got["value"] == want["value"], where
        else:
            np.testing.assert_allclose(
                np.asarray(got["value"], dtype=np.float64),
                np.asarray(want["value"], dtype=np.float64),
                rtol=1e-5,
                atol=1e-6,
                err_msg=where,
            )
        return
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{where}: keys differ"
        for k in want:
            check_same(got[k], want[k], f"{where}.{k}")
        return
    assert got == want, f"{where}: {got!r} != {want!r}"


@pytest.mark.parametrize("name", sorted(compat_cases.CASES))
def test_case(name: str) -> None:
    sys.path.insert(0, str(ROOT.parent / "tools"))
    try:
        from gen_golden_compat import run
    finally:
        sys.path.pop(0)
    want = GOLDEN[name]
    assert want["code"] == compat_cases.CASES[name], "regenerate tests/golden/compat.json"
    got = run(compat_cases.CASES[name], M)
    if "error" in want:
        assert got.get("error") == want["error"], f"{name}: {got}"
        assert got["message"] == want["message"]
        return
    assert "error" not in got, f"{name}: {got}"
    check_same(got["result"], want["result"], name)
