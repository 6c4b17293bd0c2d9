"""What trellax provides for Flax's ``flax.nnx`` (docs/compat.md, "flax.nnx"): JAX names and
behaviours nnx relies on, checked without Flax; and the real ``flax.nnx`` on trellax when Flax
0.12.8 is installed (skipped otherwise)."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys
import textwrap
import typing

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax.experimental import hijax
from trellax.experimental.layout import Format, Layout
from trellax.extend.core import get_opaque_trace_state
from trellax.flax.typing import BaseConfigContext, HashableMapping, PytreeDeque, SizeBytes
from trellax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec


def test_layout_and_format() -> None:
    layout = Layout((1, 0))
    assert layout == Layout([1, 0]) and hash(layout) == hash(Layout((1, 0)))
    assert layout.update(major_to_minor=(0, 1)).major_to_minor == (0, 1)
    with pytest.raises(ValueError, match="rank of the value"):
        layout.check_compatible_aval((2, 3, 4))
    assert repr(Format()) == "Format(layout=None, sharding=None)"
    with pytest.raises(ValueError, match="Sharding has to be concrete"):
        Format(layout)
    with pytest.raises(TypeError, match="layout argument"):
        Format("C")


def test_abstract_mesh() -> None:
    m = AbstractMesh((2, 3), ("a", "b"))
    assert m.size == 6 and m.shape_tuple == (("a", 2), ("b", 3)) and not m.empty
    assert m == AbstractMesh((2, 3), ("a", "b")) and m.are_all_axes_auto
    assert repr(m) == "AbstractMesh('a': 2, 'b': 3, axis_types=(Auto, Auto))"
    assert m.update_axis_types({"a": AxisType.Explicit}).axis_types[0] == AxisType.Explicit
    assert trellax.sharding.get_abstract_mesh().empty
    s = NamedSharding(m, PartitionSpec("a"))
    assert s.mesh is m and s.device_set == frozenset()
    mesh = trellax.make_mesh((1,), ("x",))
    assert mesh.abstract_mesh.axis_names == ("x",) and mesh.abstract_mesh.size == 1


def test_typeof_ref_is_abstract_ref() -> None:
    r = trellax.new_ref(jnp.zeros(3))
    t = trellax.typeof(r)
    assert isinstance(t, hijax.AbstractRef)
    assert str(t) == "Ref{float32[3]}" and t.shape == (3,) and t.dtype == np.float32


def test_key_arrays_in_shape_functions() -> None:
    k = trellax.random.key(0)
    keys = trellax.random.split(k, 4)
    assert jnp.broadcast_to(k, (3,)).shape == (3,)
    assert jnp.reshape(keys, (2, 2)).shape == (2, 2)
    assert jnp.expand_dims(keys, -1).shape == (4, 1)
    assert bool(jnp.array_equal(keys, trellax.random.split(k, 4)))
    assert not bool(jnp.array_equal(k, trellax.random.key(1)))
    assert not bool(jnp.allclose(k, trellax.random.key(1)))
    assert bool(jnp.isclose(k, k))


def test_key_arrays_as_tree_leaves() -> None:
    k = trellax.random.key(0)
    assert trellax.tree.map(lambda x: x, k) is k  # JAX: keys are leaves
    assert trellax.tree.map(lambda x: None, k) is None
    assert trellax.tree.map(lambda x: 0, [k]) == [0]
    assert trellax.tree.structure(k) == trellax.tree.structure(trellax.random.key(1))
    out = trellax.eval_shape(lambda: trellax.random.key(0))
    assert out == trellax.ShapeDtypeStruct((), k.dtype)
    assert trellax.jit(lambda k: trellax.random.split(k))(k).shape == (2,)


def test_custom_vjp_none_under_none() -> None:
    @trellax.custom_vjp
    def f(pair: tuple[object, object]) -> object:
        return pair[1] * 2.0

    def fwd(pair: tuple[object, object]) -> tuple[object, None]:
        return f(pair), None

    def bwd(res: None, g: object) -> tuple[tuple[None, object]]:
        return ((None, g * 2.0),)

    f.defvjp(fwd, bwd)
    grad = trellax.grad(lambda x: f((None, x)))(1.0)
    assert float(grad) == 2.0


def test_scan_split_transpose_accepted() -> None:
    carry, ys = trellax.lax.scan(
        lambda c, x: (c + x, c), 0.0, jnp.arange(3.0), _split_transpose=True
    )
    assert float(carry) == 3.0 and ys.shape == (3,)


def test_opaque_trace_state() -> None:
    outside = get_opaque_trace_state(convention="nnx")
    assert outside == get_opaque_trace_state()
    seen = []
    trellax.jit(lambda x: seen.append(get_opaque_trace_state()) or x)(1.0)
    assert seen[0] != outside


def test_flax_typing_helpers() -> None:
    assert repr(SizeBytes.from_any({"a": jnp.zeros((10, 10)), "b": "x"})) == "100 (400 B)"
    assert repr(SizeBytes(2000, 8000)) == "2,000 (8.0 KB)"
    assert SizeBytes.from_any([trellax.random.key(0)]) == SizeBytes(1, 8)
    m = HashableMapping({"b": 1, 0: 2})
    assert hash(m) == hash(HashableMapping({0: 2, "b": 1})) and m.update({"c": 3})["c"] == 3
    assert trellax.tree.leaves(PytreeDeque([1, 2])) == [1, 2]

    class Mode(BaseConfigContext[str]):
        stack: typing.ClassVar[list[str]] = []

        @classmethod
        def get_default(cls) -> str:
            return "default"

        @classmethod
        def get_stack(cls) -> list[str]:
            return cls.stack

    with Mode("a"):
        assert Mode.current_value() == "a"
    assert Mode.current_value() == "default"

    @Mode("b")
    def read() -> str:
        return Mode.current_value()

    assert Mode.current_value() == "default" and read() == "b"


def test_hijax_primitives_refuse() -> None:
    p = hijax.HiPrimitive("box_get")
    with pytest.raises(NotImplementedError, match="no HiJAX"):
        p.bind(1)


def test_shard_map_spec_prefix_with_list_nodes() -> None:
    # nnx's shard_map passes out_specs=(None, [P(), P("a")]) for outputs (None, [u1, u2]) where
    # each u is a pytree with no leaves: a list in the prefix is a node, not one spec.
    mesh = trellax.sharding.Mesh(trellax.devices()[:1], ("a",))
    P = PartitionSpec

    def f(x: typing.Any) -> typing.Any:
        return None, [{}, {"w": x * 2}]

    g = trellax.shard_map(f, mesh=mesh, in_specs=(P("a"),), out_specs=(None, [P(), P("a")]))
    out = g(jnp.arange(4.0))
    assert out[0] is None and out[1][0] == {}
    np.testing.assert_array_equal(np.asarray(out[1][1]["w"]), [0.0, 2.0, 4.0, 6.0])


def test_eager_sharding_constraint_and_reshard_place_arrays() -> None:
    # nnx.Param(..., out_sharding=...) places its value with with_sharding_constraint (Auto
    # meshes) or reshard (Explicit meshes); as in JAX the eager result reports the sharding.
    from trellax.experimental.layout import Format, Layout

    mesh = trellax.sharding.Mesh(trellax.devices()[:1], ("data",))
    s = NamedSharding(mesh, PartitionSpec("data", None))
    x = jnp.ones((8, 4))
    y = trellax.lax.with_sharding_constraint(x, s)
    assert y.sharding == s
    ys = trellax.lax.with_sharding_constraint([x, x], s)
    assert all(v.sharding == s for v in ys)
    f = Format(Layout((1, 0)), s)
    assert trellax.lax.with_sharding_constraint(x, f).sharding == s
    with trellax.sharding.set_mesh(mesh):
        z = trellax.sharding.reshard(x, PartitionSpec(None, "data"))
    assert z.sharding == NamedSharding(mesh, PartitionSpec(None, "data"))
    np.testing.assert_array_equal(np.asarray(z), np.ones((8, 4)))
    # Under jit the constraint is on a traced value: the result is computed as before.
    g = trellax.jit(lambda a: trellax.lax.with_sharding_constraint(a * 2, s))
    np.testing.assert_array_equal(np.asarray(g(x)), 2 * np.ones((8, 4)))


_HAS_FLAX = (
    importlib.util.find_spec("flax") is not None
    and importlib.util.find_spec("treescope") is not None
)


@pytest.mark.skipif(
    not _HAS_FLAX,
    reason="needs the real flax: pip install 'trellax[nnx]' && pip install --no-deps flax==0.12.8",
)
def test_real_flax_nnx_trains_on_trellax(tmp_path: pathlib.Path) -> None:
    program = textwrap.dedent(
        """
        import jax, jax.numpy as jnp, trellax
        from flax import nnx
        assert jax is trellax or jax.__name__ == "jax"
        assert nnx.Linear.__module__ == "flax.nnx.nn.linear"

        class MLP(nnx.Module):
            def __init__(self, rngs):
                self.l1 = nnx.Linear(3, 8, rngs=rngs)
                self.l2 = nnx.Linear(8, 1, rngs=rngs)
            def __call__(self, x):
                return self.l2(nnx.relu(self.l1(x)))

        model = MLP(nnx.Rngs(0))
        x = jnp.linspace(-1, 1, 12).reshape(4, 3)
        y = jnp.sum(x, axis=1, keepdims=True)

        @nnx.jit
        def step(model):
            loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
            nnx.update(model, jax.tree.map(lambda p, g: p - 0.1 * g, nnx.state(model, nnx.Param), grads))
            return loss

        losses = [float(step(model)) for _ in range(20)]
        assert losses[-1] < losses[0] / 2, losses
        print("ok", type(model.l1.kernel[...]).__module__)
        """
    )
    script = tmp_path / "nnx_program.py"
    script.write_text(program)
    out = subprocess.run(
        [sys.executable, "-m", "trellax", "run", str(script)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("ok trellax."), out.stdout


def test_group_norm_mask_broadcasting_against_x() -> None:
    # nnx's GroupNorm test hands Linen's GroupNorm a mask of the features only, shape (6,),
    # for x of shape (10, 6): it broadcasts, as the same mask spelled out for every row does.
    from trellax import nn

    x = jnp.arange(60.0).reshape(10, 6) ** 1.5
    mask = jnp.array([True, False, True, False, True, False])
    layer = nn.GroupNorm(num_groups=3)
    params = layer.init(trellax.random.key(0), x)
    short = layer.apply(params, x, mask=mask)
    full = layer.apply(params, x, mask=jnp.broadcast_to(mask, x.shape))
    np.testing.assert_allclose(np.asarray(short), np.asarray(full), rtol=1e-6)
    assert np.isfinite(np.asarray(short)[:, ::2]).all()


def test_cost_analysis_counts_flops_transcendentals_and_bytes() -> None:
    # nnx.tabulate(compute_flops=True) and nnx's jit tests read Compiled.cost_analysis().
    f = trellax.jit(lambda a, b: jnp.tanh(a @ b).sum())
    lowered = f.lower(jnp.ones((4, 8)), jnp.ones((8, 3)))
    cost = lowered.cost_analysis()
    assert isinstance(cost, dict)
    # dot: 2 * 12 outputs * 8 contracted; sum: 12 - 1; tanh: 12 transcendentals, no flops.
    assert cost["flops"] == 2 * 12 * 8 + 11
    assert cost["transcendentals"] == 12
    # unfused float32 traffic: dot (32 + 24 in, 12 out), tanh (12 in, 12 out), sum (12, 1)
    assert cost["bytes accessed"] == 4 * ((32 + 24 + 12) + (12 + 12) + (12 + 1))
    assert lowered.compile().cost_analysis() == cost


def test_lowered_out_info() -> None:
    # nnx.tabulate(compute_flops=True) reads the outputs' types from Lowered.out_info.
    lowered = trellax.jit(lambda a: {"y": a * 2, "z": (a.sum(),)}).lower(jnp.ones(3))
    info = lowered.out_info
    assert isinstance(info["y"], trellax.ShapeDtypeStruct)
    assert (info["y"].shape, info["z"][0].shape) == ((3,), ())
    assert info["y"].dtype == np.float32
    assert lowered.compile().out_info["z"][0].shape == ()


def test_linen_scope_rngs_and_partitioned_nnx_metadata() -> None:
    # nnx's Linen bridge reads a Linen module's scope.rngs / scope.mutable and converts boxed
    # variables to nnx metadata (names <-> out_sharding, rules <-> sharding_rules) and back.
    from trellax import nn

    seen: dict[str, typing.Any] = {}

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: typing.Any) -> typing.Any:
            assert self.scope is not None
            seen["rngs"] = sorted(self.scope.rngs)
            seen["mutable"] = self.scope.mutable
            return x

    M().init({"params": trellax.random.key(0), "dropout": trellax.random.key(1)}, 1.0)
    assert seen["rngs"] == ["dropout", "params"]
    assert seen["mutable"] == nn.DenyList("intermediates")  # init's default, as in Flax
    p = nn.Partitioned(jnp.ones(2), ("a",))
    meta = p.to_nnx_metadata()
    assert meta["out_sharding"] == ("a",) and "names" not in meta
    back = nn.Partitioned.from_nnx_metadata({**meta, "linen_meta_type": nn.Partitioned})
    assert back.names == ("a",) and back.value is p.value
    lp = nn.LogicallyPartitioned(jnp.ones(2), ("x",), rules=(("x", "a"),))
    lmeta = lp.to_nnx_metadata()
    assert lmeta["sharding_rules"] == (("x", "a"),)
    assert nn.LogicallyPartitioned.from_nnx_metadata(lmeta).rules == (("x", "a"),)


def test_cond_forwards_operands_returned_unchanged() -> None:
    # nnx.cond hands back every variable; one no branch touches is an operand returned as is,
    # which JAX takes out of the cond: under vmap with a batched predicate it stays unbatched.
    def f(p: typing.Any, x: typing.Any, y: typing.Any) -> typing.Any:
        return trellax.lax.cond(p, lambda x, y: (x, y + 1), lambda x, y: (x, y * 2), x, y)

    jaxpr = trellax.make_jaxpr(f)(True, 1.0, 2.0).jaxpr
    assert jaxpr.outvars[0] is jaxpr.invars[1]  # the first output is x itself
    (eqn,) = [e for e in jaxpr.eqns if e.primitive.name == "cond"]
    assert len(eqn.outvars) == 1
    g = trellax.vmap(f, in_axes=(0, None, 0), out_axes=(None, 0))
    x_out, y_out = g(jnp.array([True, False]), 1.0, jnp.array([2.0, 3.0]))
    assert x_out.shape == () and float(x_out) == 1.0
    np.testing.assert_array_equal(np.asarray(y_out), [3.0, 6.0])
    assert trellax.grad(lambda x: f(True, x, x)[0] + f(False, x, x)[1])(3.0) == 3.0


def test_checkify_nan_and_division_checks() -> None:
    # nnx.checkify(f, errors=checkify.float_checks) expects "nan generated by primitive: sin"
    # from a jitted f, raised as a ValueError by Error.throw().
    from trellax.experimental import checkify

    f = trellax.jit(lambda a: a + jnp.sin(a))
    err, out = checkify.checkify(f, errors=checkify.float_checks)(jnp.inf)
    assert err.get() == "nan generated by primitive: sin."
    assert np.isnan(np.asarray(out))
    with pytest.raises(ValueError, match="nan generated by primitive: sin"):
        err.throw()
    ok, _ = checkify.checkify(f, errors=checkify.float_checks)(1.0)
    assert ok.get() is None
    # user checks only: the NaN is not reported
    assert checkify.checkify(f)(jnp.inf)[0].get() is None
    err, _ = checkify.checkify(lambda a: 7 // a, errors=checkify.div_checks)(jnp.array([1, 0]))
    assert err.get() == "division by zero"

    def g(v: typing.Any) -> typing.Any:
        checkify.check(v > 0, "bad {}", v)
        return jnp.log(v)

    err, _ = checkify.checkify(g, errors=checkify.all_checks)(jnp.float32(-1.0))
    assert err.get() == "bad -1.0 (`check` failed)"


def test_pmap_device_count_check_reads_in_axes_prefixes() -> None:
    # nnx.pmap(in_axes=(0, None, 0)) over (rng state, the rest of the module, x): the unmapped
    # argument's leaves (a bias of 10) do not count as mapped axes against the device count.
    f = trellax.pmap(
        lambda a, b, c: a["w"] + b["bias"][:3] + b["k"][0] + c, in_axes=(0, None, 0), axis_size=1
    )
    b = {"bias": jnp.ones(10), "k": jnp.ones(2)}
    out = f({"w": jnp.ones((1, 3))}, b, jnp.ones((1, 3)))
    np.testing.assert_array_equal(np.asarray(out), np.full((1, 3), 4.0))
