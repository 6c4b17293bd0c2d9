"""Shardings carried in types (JAX's explicit sharding) on a mesh of 4 emulated CPU devices.

The cases of ``tests/sharding_types_cases.py`` are replayed against JAX 0.10.2's answers in
``tests/golden/sharding_types.json`` (written by ``tools/gen_golden_sharding_types.py``); the
other tests check what the golden data do not cover (jaxpr forms, values, equalities).
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import sharding_types_cases as cases

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.lax.sharding_rules import ShardingTypeError
from trellax.sharding import AxisType, NamedSharding, reshard
from trellax.sharding import PartitionSpec as P

pytestmark = pytest.mark.usefixtures("eight_devices")


@pytest.fixture
def mesh() -> Iterator[Any]:
    m = trellax.make_mesh((2, 2), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    with trellax.set_mesh(m):
        yield m


def _x() -> Any:
    return reshard(tnp.arange(8.0).reshape(2, 4), P("X", None))


GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sharding_types.json").read_text())

#: cases where trellax still differs from JAX, with the reason (each fails if it starts to agree)
KNOWN: dict[str, str] = {
    "auto mesh jit": "a jit of arrays on a mesh of Auto axes gives replicated results (JAX: as "
    "XLA's propagation splits them)",
    "no mesh c + 1": "the eager shortcuts (x + scalar) of plain arrays do not look at a device "
    "an operand was committed to (without a mesh)",
    "no mesh sin(c)": "as 'no mesh c + 1' (the unary shortcut)",
    "take_along_axis": "trellax's take_along_axis gathers with the row positions as indices "
    "(JAX: operand batching dimensions, split alike), which the gather rule refuses",
}


@pytest.mark.parametrize("name", cases.names(trellax))
def test_case(name: str) -> None:
    """Each case's result types, placements and errors as JAX 0.10.2's
    (``tools/gen_golden_sharding_types.py``)."""
    got = cases.observe(trellax, name)
    if name in KNOWN:
        assert got != GOLDEN[name], f"{name} now agrees with JAX: remove it from KNOWN"
        pytest.xfail(KNOWN[name])
    assert got == GOLDEN[name]


def test_every_case_has_golden_data() -> None:
    assert sorted(GOLDEN) == sorted(cases.names(trellax))


def test_concrete_and_abstract_agree(mesh: Any) -> None:
    for fn in (lambda x: x, lambda x: x.T, lambda x: x.sum(1), lambda x: x @ tnp.ones((4, 3))):
        out = fn(_x())
        # the concrete array reports the same spec over the concrete mesh
        assert out.sharding.mesh == mesh
        assert out.sharding._abstract(out.ndim) == trellax.typeof(out).sharding


def test_error_class(mesh: Any) -> None:
    with pytest.raises(ShardingTypeError):
        _x() @ _x().T


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


def test_trace_state_unchanged_by_a_mesh() -> None:
    # nnx compares the trace state an object was made under with the current one: setting a
    # mesh (which installs the op-by-op bottom trace) must not make them differ, as in JAX
    from trellax.extend.core import get_opaque_trace_state

    before = get_opaque_trace_state()
    m = trellax.make_mesh((2, 2), ("A", "B"), axis_types=(AxisType.Auto,) * 2)
    with trellax.set_mesh(m):
        assert get_opaque_trace_state() == before
        # and arrays made under it are placed on it, even by the eager shortcuts
        u = tnp.arange(3.0)
        assert (u + u).sharding == NamedSharding(m, P())
        assert (u + u).committed
    assert get_opaque_trace_state() == before
    assert not (tnp.arange(3.0) + 1).committed
