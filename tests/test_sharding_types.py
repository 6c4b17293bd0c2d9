"""Shardings carried in types (JAX's explicit sharding) on a mesh of 4 emulated CPU devices.

Every expected value below was observed on JAX 0.10.2 (``XLA_FLAGS=
--xla_force_host_platform_device_count=8``, ``jax.make_mesh((2, 2), ("X", "Y"),
axis_types=(Explicit, Explicit))``, ``x = reshard(arange(8.).reshape(2, 4), P("X", None))``) and
is written here as data: ``str(jax.typeof(result))``, or JAX's error class and the start of its
message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.lax.sharding_rules import ShardingTypeError
from trellax.sharding import AxisType, NamedSharding, reshard
from trellax.sharding import PartitionSpec as P


@pytest.fixture(autouse=True)
def eight_devices() -> Iterator[None]:
    trellax.config.update("jax_num_cpu_devices", 8)
    try:
        yield
    finally:
        trellax.config.update("jax_num_cpu_devices", -1)
        trellax.set_mesh(None)


@pytest.fixture
def mesh() -> Iterator[Any]:
    m = trellax.make_mesh((2, 2), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    with trellax.set_mesh(m):
        yield m


def _x() -> Any:
    return reshard(tnp.arange(8.0).reshape(2, 4), P("X", None))


# (what, function of x, str(jax.typeof(result)) on JAX)
TYPES: list[tuple[str, Callable[[Any], Any], str]] = [
    ("x", lambda x: x, "float32[2@X,4]"),
    ("x + 1", lambda x: x + 1, "float32[2@X,4]"),
    ("x * x", lambda x: x * x, "float32[2@X,4]"),
    ("sin", tnp.sin, "float32[2@X,4]"),
    ("x.T", lambda x: x.T, "float32[4,2@X]"),
    ("reshape (2,2,2)", lambda x: x.reshape(2, 2, 2), "float32[2@X,2,2]"),
    ("reshape (8,)", lambda x: x.reshape(8), "float32[8@X]"),
    ("reshape (2,4,1)", lambda x: x.reshape(2, 4, 1), "float32[2@X,4,1]"),
    ("x[None]", lambda x: x[None], "float32[1,2@X,4]"),
    ("sum(0)", lambda x: x.sum(0), "float32[4]"),
    ("sum(1)", lambda x: x.sum(1), "float32[2@X]"),
    ("sum()", lambda x: x.sum(), "float32[]"),
    ("max(1)", lambda x: x.max(1), "float32[2@X]"),
    ("argmax(0)", lambda x: tnp.argmax(x, 0), "int32[4]"),
    ("mean(0)", lambda x: tnp.mean(x, 0), "float32[4]"),
    ("broadcast_to", lambda x: tnp.broadcast_to(x, (3, 2, 4)), "float32[3,2@X,4]"),
    ("astype", lambda x: x.astype(tnp.int32), "int32[2@X,4]"),
    ("where", lambda x: tnp.where(x > 1, x, 0.0), "float32[2@X,4]"),
    ("softmax", lambda x: trellax.nn.softmax(x), "float32[2@X,4]"),
    ("x + ones((2,4))", lambda x: x + tnp.ones((2, 4)), "float32[2@X,4]"),
    ("x + ones(4)", lambda x: x + tnp.ones(4), "float32[2@X,4]"),
    ("x @ ones((4,3))", lambda x: x @ tnp.ones((4, 3)), "float32[2@X,3]"),
    ("einsum", lambda x: tnp.einsum("ab,bc->ac", x, tnp.ones((4, 3))), "float32[2@X,3]"),
    (
        "matmul out_sharding",
        lambda x: tnp.matmul(
            reshard(x, P(None, "X")), reshard(tnp.ones((4, 3)), P("X", None)), out_sharding=P("Y")
        ),
        "float32[2@Y,3]",
    ),
    ("zeros_like", tnp.zeros_like, "float32[2@X,4]"),
    ("jit", trellax.jit(lambda a: a * 2), "float32[2@X,4]"),
    (
        "conv",
        lambda x: lax.conv_general_dilated(
            reshard(tnp.ones((2, 4, 4)), P("X")),
            tnp.ones((3, 4, 8)),
            (1,),
            "SAME",
            dimension_numbers=("NWC", "WIO", "NWC"),
        ),
        "float32[2@X,4,8]",
    ),
    (
        "zeros(out_sharding)",
        lambda x: tnp.zeros((4, 4)) + reshard(tnp.zeros((4, 4)), P("X", "Y")),
        "float32[4@X,4@Y]",
    ),
]


@pytest.mark.parametrize("what, fn, expected", TYPES, ids=[t[0] for t in TYPES])
def test_result_types(mesh: Any, what: str, fn: Callable[[Any], Any], expected: str) -> None:
    out = fn(_x())
    assert str(trellax.typeof(out)) == expected
    # the concrete array reports the same spec over the concrete mesh
    assert out.sharding.mesh == mesh
    assert out.sharding._abstract(out.ndim) == trellax.typeof(out).sharding


# (what, function of x, JAX's error class name, start of JAX's message)
ERRORS: list[tuple[str, Callable[[Any], Any], str]] = [
    (
        "x @ x.T",
        lambda x: x @ x.T,
        "dot_general operation with inputs: f32[2@X,4], f32[4,2@X] produces an illegally "
        "sharded result: f32[2@X,2@X]",
    ),
    (
        "x.T @ x",
        lambda x: x.T @ x,
        "Contracting dimensions are sharded and it is ambiguous how the output should be "
        "sharded. Please specify the output sharding via the `out_sharding` parameter. Got "
        "lhs_contracting_spec=('X',) and rhs_contracting_spec=('X',)",
    ),
    (
        "reshape (4,2)",
        lambda x: x.reshape(4, 2),
        "This reshape is not supported. Please specify the sharding of the output via the "
        "`out_sharding` argument of jax.lax.reshape. Got operand type: float32[2@X,4], new "
        "sizes: (4, 2)",
    ),
    (
        "reshape (1,8)",
        lambda x: x.reshape(1, 8),
        "This reshape is not supported.",
    ),
    (
        "X + Y",
        lambda x: x + reshard(tnp.arange(8.0).reshape(2, 4), P("Y", None)),
        "add got incompatible shardings for broadcasting: ('X', None), ('Y', None).",
    ),
    (
        "x + x(None, X)",
        lambda x: x + reshard(tnp.arange(8.0).reshape(2, 4), P(None, "X")),
        "add operation with inputs: f32[2@X,4], f32[2,4@X] produces an illegally sharded "
        "result: f32[2@X,4@X]",
    ),
    (
        "take",
        lambda x: tnp.take(reshard(tnp.ones((8, 4)), P("X")), tnp.arange(4), axis=0),
        "Use `.at[...].get(out_sharding=)` to provide output PartitionSpec for the gather",
    ),
]


@pytest.mark.parametrize("what, fn, message", ERRORS, ids=[t[0] for t in ERRORS])
def test_errors(mesh: Any, what: str, fn: Callable[[Any], Any], message: str) -> None:
    with pytest.raises(ShardingTypeError) as info:
        fn(_x())
    assert str(info.value).startswith(message)


def test_typeof_forms(mesh: Any) -> None:
    x = _x()
    t = trellax.typeof(x)
    assert repr(t) == "ShapedArray(float32[2@X,4])"
    assert repr(t.sharding) == (
        "NamedSharding(mesh=AbstractMesh('X': 2, 'Y': 2, axis_types=(Explicit, Explicit), "
        "device_kind=cpu, num_cores=None, platform=cpu), spec=P('X', None))"
    )
    assert x.aval == t
    # an abstract-mesh sharding is not equal (nor equivalent) to the concrete one
    assert t.sharding != x.sharding
    assert not x.sharding.is_equivalent_to(t.sharding, 2)
    assert t.sharding == NamedSharding(mesh.abstract_mesh, P("X", None))
    assert t.sharding != NamedSharding(mesh.abstract_mesh, P("X"))
    # types with different shardings differ
    assert t != trellax.typeof(tnp.zeros((2, 4)))
    text = str(trellax.make_jaxpr(lambda a: a * 2)(x))
    assert "a:f32[2@X,4]" in text and "b:f32[2@X,4] = mul a 2.0:f32[]" in text
    text = str(trellax.make_jaxpr(lambda a: reshard(a, P(None, "Y")) + 1)(x))
    assert "b:f32[2,4@Y] = reshard" in text and "c:f32[2,4@Y] = add b 1.0:f32[]" in text


def test_eval_shape_carries_the_sharding(mesh: Any) -> None:
    out = trellax.eval_shape(lambda: reshard(tnp.ones((4, 4)), P("X", "Y")))
    assert out.sharding == NamedSharding(mesh.abstract_mesh, P("X", "Y"))
    out = trellax.eval_shape(lambda a: a * 2, _x())
    assert out.sharding.spec == P("X", None)


def test_values_are_unchanged(mesh: Any) -> None:
    x = _x()
    np.testing.assert_array_equal(
        np.asarray(x @ tnp.ones((4, 3))), np.arange(8.0).reshape(2, 4) @ np.ones((4, 3))
    )


def test_constraint_in_jit_places_the_result() -> None:
    m = trellax.make_mesh((2, 2), ("A", "B"), axis_types=(AxisType.Auto,) * 2)
    f = trellax.jit(
        lambda: lax.with_sharding_constraint(tnp.ones((4, 2)), NamedSharding(m, P("A", "B")))
    )
    assert f().sharding == NamedSharding(m, P("A", "B"))
    assert f().sharding.shard_shape((4, 2)) == (2, 1)


def test_like_keeps_the_sharding_and_committed() -> None:
    m = trellax.make_mesh((2, 2), ("A", "B"), axis_types=(AxisType.Auto,) * 2)
    s = trellax.device_put(tnp.arange(8.0).reshape(2, 4), NamedSharding(m, P("A", None)))
    for like in (tnp.zeros_like, tnp.ones_like, tnp.empty_like):
        assert like(s).sharding == s.sharding
        assert like(s, dtype=tnp.int32).sharding == s.sharding
        assert like(s, shape=(4, 2)).sharding != s.sharding
    assert tnp.full_like(s, 3.0).sharding == s.sharding
    # JAX: committed only when placed
    assert s.committed and tnp.zeros_like(s).committed
    assert not tnp.zeros(3).committed
    assert not (tnp.zeros(3) + 1).committed
    assert not trellax.device_put(tnp.zeros(3)).committed
    assert trellax.device_put(tnp.zeros(3), trellax.devices()[0]).committed


def test_no_mesh_no_sharding_in_type() -> None:
    x = tnp.arange(8.0).reshape(2, 4)
    assert repr(trellax.typeof(x)) == "ShapedArray(float32[2,4])"
    assert str(trellax.typeof(x + 1)) == "float32[2,4]"
