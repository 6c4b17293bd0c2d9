"""Behaviours that programs added to the corpus on 2026-11-29 (session 16: Flax's nnx guides,
JAX's type promotion page and examples) showed trellax getting wrong, each checked here
without JAX."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

import trellax
from trellax.sharding import Mesh


def test_a_lone_string_is_one_mesh_axis_name() -> None:
    # nnx's key concepts guide: jax.make_mesh((jax.device_count(),), 'model')
    mesh = trellax.make_mesh((1,), "model")
    assert mesh.axis_names == ("model",)
    assert dict(mesh.shape) == {"model": 1}
    assert Mesh(np.array(trellax.devices()[:1]), "xy").axis_names == ("xy",)


def test_flax_errors_end_with_their_entry_on_flax_s_error_page() -> None:
    # nnx's pytree guide prints a caught TraceContextError: Flax's message ends with this link
    import pickle

    from trellax.flax import errors

    page = "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"
    err = errors.TraceContextError("Cannot mutate 'Foo' from different trace level")
    assert str(err) == (
        f"Cannot mutate 'Foo' from different trace level ({page}#flax.errors.TraceContextError)"
    )
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == str(err)  # unpickling does not add the link twice


def test_backends_are_initialized_once_the_devices_are_asked_for() -> None:
    # Flax's sharding guide: `if not jax._src.xla_bridge.backends_are_initialized():` before
    # jax.config.update('jax_num_cpu_devices', 8); a fresh process answers False
    code = (
        "import trellax.compat; trellax.compat.install()\n"
        "import jax, jax.numpy as jnp\n"
        "from jax._src import xla_bridge\n"
        "print(xla_bridge.backends_are_initialized())\n"
        "jax.config.update('jax_num_cpu_devices', 4)\n"
        "print(len(jax.devices()), xla_bridge.backends_are_initialized())\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "4", "True"]


def test_with_sharding_constraint_refuses_explicit_axes() -> None:
    # nnx's key concepts guide constrains a model to P(None, 'model') on a make_mesh mesh
    # (whose axes are Explicit): JAX refuses it and points to reshard
    import pytest

    from trellax.sharding import AxisType, NamedSharding, PartitionSpec

    x = trellax.numpy.ones(4)
    explicit = trellax.make_mesh((1,), "model")
    with pytest.raises(ValueError) as info:
        trellax.lax.with_sharding_constraint(x, NamedSharding(explicit, PartitionSpec("model")))
    assert str(info.value) == (
        "The spec of NamedSharding passed to with_sharding_constraint can only refer to Auto "
        "axes of the mesh. Got spec=P('model',) and mesh=AbstractMesh('model': 1, "
        "axis_types=(Explicit,), device_kind=cpu, num_cores=None, platform=cpu). You probably "
        "meant to use `reshard` API?"
    )
    with pytest.raises(ValueError, match="only refer to Auto axes"):
        trellax.jit(
            lambda x: trellax.lax.with_sharding_constraint(
                x, NamedSharding(explicit, PartitionSpec("model"))
            )
        )(x)
    # a spec naming no axis, or Auto axes only, is accepted
    trellax.lax.with_sharding_constraint(x, NamedSharding(explicit, PartitionSpec()))
    auto = trellax.make_mesh((1,), "model", axis_types=(AxisType.Auto,))
    trellax.lax.with_sharding_constraint(x, NamedSharding(auto, PartitionSpec("model")))


def test_partition_spec_entries_are_canonical() -> None:
    from trellax.sharding import PartitionSpec as P

    assert P(None, ("x",)) == P(None, "x") and repr(P(None, ("x",))) == "P(None, 'x')"
    assert P(["x", "y"])[0] == ("x", "y") and repr(P(("x", "y"))) == "P(('x', 'y'),)"


def test_reshard_fits_a_longer_spec_of_nones_to_each_rank() -> None:
    # nnx's optimization cookbook: reshard(model, P(None, None)) over kernels and biases
    from trellax.sharding import AxisType, PartitionSpec, reshard

    mesh = trellax.make_mesh((1, 1), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    with trellax.set_mesh(mesh):
        out = reshard(
            {"b": trellax.numpy.ones(8), "k": trellax.numpy.ones((2, 8))}, PartitionSpec(None, None)
        )
    assert out["b"].sharding.spec == PartitionSpec(None)
    assert out["k"].sharding.spec == PartitionSpec(None, None)


def test_shaped_array_repr_writes_dims_without_spaces() -> None:
    # nnx's optimization cookbook prints jax.typeof(...) of a kernel: ShapedArray(float32[2,8])
    from trellax.core import ShapedArray

    assert repr(trellax.typeof(trellax.numpy.ones((2, 8)))) == "ShapedArray(float32[2,8])"
    weak = ShapedArray((2, 3, 4), np.dtype("int8"), weak_type=True)
    assert repr(weak) == "ShapedArray(int8[2,3,4], weak_type=True)"


def test_jit_folds_log_of_exp_as_xla_does() -> None:
    # JAX's FAQ: jnp.log(jnp.exp(100.0)) is inf eagerly and 100.0 under jit, XLA folding log(exp)
    tnp = trellax.numpy

    def f(x: trellax.Array) -> trellax.Array:
        return tnp.log(tnp.exp(x))

    assert float(f(100.0)) == float("inf")
    assert float(trellax.jit(f)(100.0)) == 100.0
    assert float(trellax.jit(f)(tnp.float16(20.0))) == 20.0
    special = tnp.array([1e3, -1e3, np.nan, np.inf, -np.inf])
    np.testing.assert_array_equal(np.asarray(trellax.jit(f)(special)), np.asarray(special))
    # the exp read elsewhere is kept; bfloat16 (widened by XLA first) and complex are not folded
    both = trellax.jit(lambda x: (f(x), tnp.exp(x)))(100.0)
    assert [float(v) for v in both] == [100.0, float("inf")]
    assert float(trellax.jit(f)(tnp.bfloat16(100.0))) == float("inf")
    z = tnp.complex64(1 + 10j)
    assert complex(trellax.jit(f)(z)) == complex(f(z))
    # inside a compiled loop body too; exp(log(x)) stays
    loop = trellax.jit(lambda x: trellax.lax.fori_loop(0, 2, lambda i, c: f(c), x))
    assert float(loop(100.0)) == 100.0
    assert np.isnan(float(trellax.jit(lambda x: tnp.exp(tnp.log(x)))(-1.0)))


def test_stateful_rng_draws_fold_a_counter_into_its_key() -> None:
    # JAX's JEP 28845 page: stateful_rng(1701).random((5,)) twice gives new draws; the values
    # are those of fold_in(key(1701), 0) and then of fold_in(..., 1), as observed on JAX 0.10.2
    from trellax import random
    from trellax.experimental.random import StatefulPRNG, stateful_rng

    rng = stateful_rng(1701)
    first, second = rng.random((5,)), rng.random((5,))
    base = random.key(1701)
    for i, drawn in enumerate([first, second]):
        want = random.uniform(random.fold_in(base, i), (5,))
        np.testing.assert_array_equal(np.asarray(drawn), np.asarray(want))
    np.testing.assert_allclose(
        np.asarray(first), [0.09609699, 0.26730824, 0.5619041, 0.24421775, 0.7715055], rtol=1e-6
    )
    assert int(rng._counter[...]) == 2
    rng = stateful_rng(1701)
    assert rng.integers(5, size=(3,)).tolist() == [4, 4, 2]
    normal = stateful_rng(1701).normal(1.0, 2.0, size=(2,))
    np.testing.assert_allclose(np.asarray(normal), [-1.608232, -0.24194872], rtol=1e-6)
    assert stateful_rng(1701).uniform(tnp_zeros(3), 2.0).shape == (3,)
    children = stateful_rng(1701).spawn(2)
    assert len(children) == 2 and all(isinstance(c, StatefulPRNG) for c in children)
    assert random.key_data(children[1]._base_key).tolist() == [1786472918, 773143027]
    assert float(trellax.jit(stateful_rng(42).uniform)()) == np.float32(0.5302608)


def tnp_zeros(n: int) -> trellax.Array:
    return trellax.numpy.zeros(n)


def test_jax_transfer_guard_is_an_option_the_three_guards_read() -> None:
    # JAX's transfer guard page starts with jax.config.update("jax_transfer_guard", "allow")
    import pytest

    config = trellax.config
    assert config.jax_transfer_guard is None
    try:
        config.update("jax_transfer_guard", "log")
        assert config.jax_transfer_guard == "log"
        assert config.jax_transfer_guard_host_to_device == "log"
        with trellax.transfer_guard_device_to_host("disallow"):
            assert config.jax_transfer_guard_device_to_host == "disallow"
        with pytest.raises(ValueError, match="new enum value must be None or in"):
            config.update("jax_transfer_guard", "bad")
    finally:
        config.update("jax_transfer_guard", None)


def test_initializers_take_out_sharding() -> None:
    # Flax's nnx sharding guide calls initializers with out_sharding= (JAX's signature)
    import pytest

    from trellax.nn import initializers as init
    from trellax.sharding import NamedSharding, PartitionSpec

    key = trellax.random.key(0)
    mesh = trellax.make_mesh((1,), "x")
    spec = NamedSharding(mesh, PartitionSpec(None, "x"))
    for make in [
        init.lecun_normal(),
        init.glorot_uniform(),
        init.normal(),
        init.uniform(),
        init.truncated_normal(),
        init.orthogonal(),
        init.constant(2.0),
    ]:
        plain = make(key, (2, 3))
        placed = make(key, (2, 3), trellax.numpy.float32, out_sharding=spec)
        np.testing.assert_array_equal(np.asarray(placed), np.asarray(plain))
        with pytest.raises(TypeError, match="out_sharding"):
            make(key, (2, 3), None, 3)
