"""An emulated machine of 8 CPU devices (``jax_num_cpu_devices``) against JAX's answers with
``--xla_force_host_platform_device_count=8`` (``tests/golden/multidevice.json``): device lists,
the blocks of named shardings and their drawing, ``shard_map`` with collectives, and errors."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import multidevice_cases as cases
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.sharding import PartitionSpec as P

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "multidevice.json").read_text())


pytestmark = pytest.mark.usefixtures("eight_devices")


def test_environment() -> None:
    assert cases.environment(trellax) == GOLDEN["environment"]


@pytest.mark.parametrize("case", range(len(cases.LAYOUTS)))
def test_layout(case: int) -> None:
    assert cases.layout(trellax, case) == GOLDEN["layouts"][case]


@pytest.mark.parametrize("name", cases.PROGRAMS)
def test_program(name: str) -> None:
    got = cases.program(trellax, name)
    want = GOLDEN["programs"][name]
    assert [(g["shape"], g["dtype"]) for g in got] == [(w["shape"], w["dtype"]) for w in want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g["values"], w["values"], rtol=1e-6)


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_error(name: str) -> None:
    assert cases.error(trellax, name) == GOLDEN["errors"][name]


def test_one_device_by_default() -> None:
    trellax.config.update("jax_num_cpu_devices", -1)
    assert trellax.device_count() == 1
    with pytest.raises(ValueError, match="Number of devices 1"):
        trellax.make_mesh((2,), ("i",))


def test_block_prints_per_device(capsys: Any) -> None:
    mesh = trellax.make_mesh((2,), ("i",))

    def f(x: Any) -> Any:
        print(x)
        return 2 * x

    out = trellax.shard_map(f, mesh=mesh, in_specs=P("i"), out_specs=P("i"))(tnp.arange(6.0))
    printed = capsys.readouterr().out
    assert "On cpu:0 at mesh coordinates (i,) = (0,):\n[0. 1. 2.]" in printed
    assert "On cpu:1 at mesh coordinates (i,) = (1,):\n[3. 4. 5.]" in printed
    assert out.sharding == trellax.sharding.NamedSharding(mesh, P("i"))
    np.testing.assert_array_equal(out, np.arange(6.0) * 2)


def test_shard_map_matches_block_semantics() -> None:
    """``shard_map(f)`` is ``f`` on each block, concatenated (JAX's reference semantics)."""
    mesh = trellax.make_mesh((4,), ("i",))
    y = tnp.arange(32.0).reshape(8, 4)
    got = trellax.shard_map(lambda b: b.T @ b, mesh=mesh, in_specs=P("i"), out_specs=P("i"))(y)
    want = np.concatenate([np.asarray(b).T @ np.asarray(b) for b in np.split(np.asarray(y), 4)])
    np.testing.assert_allclose(got, want)


def test_pcast_needs_shard_map() -> None:
    with pytest.raises(ValueError, match="shard_map"):
        trellax.lax.pcast(tnp.ones(2), "i", to="varying")
    mesh = trellax.make_mesh((2,), ("i",))
    out = trellax.shard_map(
        lambda x: trellax.lax.pcast(x, "i", to="varying") * 1.0,
        mesh=mesh,
        in_specs=P(),
        out_specs=P("i"),
    )(tnp.ones(2))
    np.testing.assert_array_equal(out, np.ones(4))


def test_jit_out_shardings_place_the_eager_results() -> None:
    # Flax's rng guide prints the shards of jit(..., out_shardings=NamedSharding(mesh, P("data")))
    mesh = trellax.make_mesh((8,), ("data",))
    data = trellax.sharding.NamedSharding(mesh, P("data"))
    f = trellax.jit(lambda x, y: (x * 2, y.sum()), out_shardings=(data, None))
    a, b = f(tnp.ones((8, 2)), tnp.ones(3))
    assert a.sharding == data
    assert [s.index[0] for s in a.addressable_shards] == [slice(i, i + 1) for i in range(8)]
    assert [s.device.id for s in a.addressable_shards] == list(range(8))
    assert b.sharding == trellax.sharding.SingleDeviceSharding(trellax.devices()[0])
    np.testing.assert_array_equal(a, np.full((8, 2), 2.0, np.float32))
    # traced calls give values, not placements; a PartitionSpec needs the context mesh
    g = trellax.jit(lambda x: x + 1, out_shardings=data)
    assert trellax.jit(lambda x: g(x) * 2)(tnp.ones(8)).tolist() == [4.0] * 8
    with trellax.set_mesh(mesh):
        h = trellax.jit(lambda x: x + 1, out_shardings=P("data"))
        assert h(tnp.ones(8)).sharding == data
    with pytest.raises(ValueError, match="divisible"):  # 3 rows over 8 devices
        trellax.jit(lambda x: x, out_shardings=data)(tnp.ones(3))


def test_jax_src_test_util_create_mesh() -> None:
    # JAX's gradient-checkpointing guide imports jax._src.test_util and calls create_mesh
    import unittest

    from trellax._src.compat.jax_src import test_util as jtu

    mesh = jtu.create_mesh((2, 4), ("x", "y"))
    assert mesh.shape_tuple == (("x", 2), ("y", 4))
    assert mesh.axis_types == (trellax.sharding.AxisType.Auto,) * 2
    ordered = jtu.create_mesh((4,), ("i",), iota_order=True)
    assert [d.id for d in ordered.devices.ravel()] == [0, 1, 2, 3]
    with pytest.raises(unittest.SkipTest, match="requires 16 global devices and found 8"):
        jtu.create_mesh((16,), ("x",))
    from trellax import test_util

    assert jtu.check_grads is test_util.check_grads
