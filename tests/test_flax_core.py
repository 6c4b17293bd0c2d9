"""Flax's functional core (``trellax.flax.core``): scopes, ``init``/``apply``, the filter
algebra, lifted transforms, the core layers; and the helpers that came with it
(``nn.kw_only_dataclasses``, ``nn.partitioning``'s axis-annotated variables, typed keys in
``isclose``/``broadcast_to``/``reshape``)."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest
from absl import flags

import trellax
import trellax.nn as nn
import trellax.numpy as jnp
from trellax import random
from trellax.flax import core, errors
from trellax.flax.core import lift, scope
from trellax.nn import kw_only_dataclasses, partitioning
from trellax.sharding import PartitionSpec


def test_core_dense_matches_linen_dense() -> None:
    # Linen is built on the core in Flax: a core layer pushed at the same path gets the same
    # key, hence the same parameters as the Linen layer.
    x = jnp.ones((2, 4))
    _, variables = core.init(lambda s, x: core.nn.dense(s.push("Dense_0"), x, 3))(random.key(0), x)

    class Net(nn.Module):
        @nn.compact
        def __call__(self, x):  # type: ignore[no-untyped-def]
            return nn.Dense(3)(x)

    linen = Net().init(random.key(0), x)["params"]["Dense_0"]
    core_params = variables["params"]["Dense_0"]
    np.testing.assert_array_equal(core_params["kernel"], linen["kernel"])
    np.testing.assert_array_equal(core_params["bias"], linen["bias"])
    y = core.apply(lambda s, x: core.nn.dense(s.push("Dense_0"), x, 3))(variables, x)
    np.testing.assert_allclose(y, x @ linen["kernel"] + linen["bias"], rtol=1e-6)


def test_make_rng_is_lazy_rng_of_the_count() -> None:
    def f(s):  # type: ignore[no-untyped-def]
        assert s.has_rng("params") and not s.has_rng("dropout")
        return s.make_rng("params"), s.make_rng("params")

    (a, b), _ = core.init(f)(random.key(0))
    first = scope.LazyRng.create(random.key(0), 1).as_jax_rng()
    second = scope.LazyRng.create(random.key(0), 2).as_jax_rng()
    assert bool(a == first) and bool(b == second) and not bool(a == b)


def test_child_names_and_reservation() -> None:
    def f(s):  # type: ignore[no-untyped-def]
        def layer(s, x):  # type: ignore[no-untyped-def]
            return s.param("w", nn.initializers.ones_init(), (x.shape[-1],)) * x

        s.child(layer)(jnp.ones(2))
        s.child(layer)(jnp.ones(2))
        with pytest.raises(ValueError, match="Duplicate use of scope name"):
            s.push("layer_0")

    _, variables = core.init(f)(random.key(0))
    assert sorted(variables["params"]) == ["layer_0", "layer_1"]


def test_scope_errors() -> None:
    def f(s):  # type: ignore[no-untyped-def]
        s.param("test", nn.initializers.ones_init(), (4,))

    with pytest.raises(errors.ScopeParamShapeError, match=r"shape \(4,\).*shape \(2,\)"):
        core.apply(f)({"params": {"test": np.ones((2,))}})
    with pytest.raises(errors.ApplyScopeInvalidVariablesStructureError):
        core.apply(f)({"params": {"params": {"test": np.ones((4,))}}})
    with pytest.raises(errors.ScopeCollectionNotFound):
        core.Scope({}).param("test", nn.initializers.zeros_init(), ())

    def g(s):  # type: ignore[no-untyped-def]
        s.put_variable("state", "test", 123)

    with pytest.raises(errors.ModifyScopeVariableError, match='collection "state" is immutable'):
        core.init(g, mutable="params")(random.key(0))


def test_variable_mutability_and_apply_outputs() -> None:
    def f(s):  # type: ignore[no-untyped-def]
        v = s.variable("state", "count", lambda: 0)
        if v.is_mutable():
            v.value += 1
        return v.value

    y, state = core.apply(f, mutable="state")({})
    assert y == 1 and state == {"state": {"count": 1}}
    assert core.apply(f)(state) == 1  # immutable: read only, no variables returned


def test_filter_algebra() -> None:
    deny = scope.DenyList
    assert scope.union_filters(["a", "b"], ["b", "c"]) == {"a", "b", "c"}
    assert scope.union_filters(deny(["a", "b"]), deny(["b", "c"])) == deny({"b"})
    assert scope.intersect_filters(deny(["a", "b"]), ["b", "c"]) == {"c"}
    assert scope.subtract_filters(True, "a") == deny("a")
    assert scope.subtract_filters(deny(["a", "b"]), ["b", "c"]) == deny({"a", "b", "c"})
    assert scope.in_filter(deny("a"), "b") and not scope.in_filter(deny("a"), "a")
    xs = {"params": {"x": 1}, "stats": {"y": 2}}
    assert scope.group_collections(xs, [False, True, True]) == ({}, xs, {})
    with pytest.raises(errors.InvalidFilterError):
        scope.in_filter(3, "a")


def test_is_valid_rng() -> None:
    key = random.key(0)
    assert scope._is_valid_rng(key) and not scope._is_valid_rng(random.split(key))
    assert scope._is_valid_rng(random.PRNGKey(0))
    assert not scope._is_valid_rng(random.split(random.PRNGKey(0)))


def test_lifted_vmap_and_jit_cache() -> None:
    def f(s, x):  # type: ignore[no-untyped-def]
        dense = lift.vmap(
            core.nn.dense,
            in_axes=(0, None),
            variable_axes={"params": 0},
            split_rngs={"params": True},
        )
        return dense(s.push("dense"), x, 2)

    y, variables = core.init(f)(random.key(0), jnp.ones((3, 4)))
    assert y.shape == (3, 2) and variables["params"]["dense"]["kernel"].shape == (3, 4, 2)

    traces = 0

    @lift.jit
    def g(s, _hash, x):  # type: ignore[no-untyped-def]
        nonlocal traces
        traces += 1
        return core.nn.dense(s, x, 1)

    _, params = core.init(g)(random.key(0), 1, np.ones((3, 2)))
    core.init(g)(random.key(0), 1, np.ones((3, 2)))
    assert traces == 1
    core.apply(g)(params, 1, np.ones((3, 2)))
    core.apply(g)(params, 1, np.ones((3, 2)))
    assert traces == 2


def test_map_variables_and_custom_vjp_argnums() -> None:
    def tied(s, x):  # type: ignore[no-untyped-def]
        def transpose(tree):  # type: ignore[no-untyped-def]
            return trellax.tree_util.tree_map(lambda a: a.T, tree)

        dec = lift.map_variables(
            core.nn.dense, "params", map_in_fn=transpose, map_out_fn=transpose, mutable=True
        )
        return dec(s.push("dec"), x, 3, bias=False)

    _, variables = core.init(tied)(random.key(0), jnp.ones((1, 5)))
    assert variables["params"]["dec"]["kernel"].shape == (3, 5)

    def fwd(s, x, features):  # type: ignore[no-untyped-def]
        return lift.vjp(lambda s, x: core.nn.dense(s, x, features), s, x)

    def bwd(features, vjp_fn, y_t):  # type: ignore[no-untyped-def]
        params_t, *inputs_t = vjp_fn(y_t)
        return (trellax.tree_util.tree_map(jnp.sign, params_t), *inputs_t)

    signed = lift.custom_vjp(core.nn.dense, fwd, bwd, nondiff_argnums=(2,))
    _, params = core.init(signed)(random.key(0), jnp.ones((1, 2)), 3)

    def loss(p):  # type: ignore[no-untyped-def]
        return jnp.sum(core.apply(signed)({"params": p}, jnp.ones((1, 2)), 3))

    grads = trellax.grad(loss)(params["params"])
    np.testing.assert_array_equal(grads["kernel"], np.ones((2, 3)))


def test_core_layers_shapes() -> None:
    def f(s, x):  # type: ignore[no-untyped-def]
        h = core.nn.conv(s.push("conv"), x, 4, (3, 3))
        h = core.nn.batch_norm(s.push("bn"), h)
        h = core.nn.group_norm(s.push("gn"), h, num_groups=2)
        h = core.nn.layer_norm(s.push("ln"), h)
        table = core.nn.embedding(s.push("embed"), 10, 4)
        return h, table.lookup(jnp.array([1, 2]))

    (h, e), variables = core.init(f)(random.key(0), jnp.ones((1, 5, 5, 2)))
    assert h.shape == (1, 5, 5, 4) and e.shape == (2, 4)
    assert variables["batch_stats"]["bn"]["mean"].shape == (4,)


def test_kw_only_dataclasses() -> None:
    @kw_only_dataclasses.dataclass
    class A:
        x: int = kw_only_dataclasses.field(default=1, kw_only=True)

    @kw_only_dataclasses.dataclass
    class B(A):
        size: float
        y: int = kw_only_dataclasses.field(default=3, kw_only=True)
        x: int = 2  # stays keyword-only, as A declared it

    assert list(inspect.signature(B.__init__).parameters) == ["self", "size", "x", "y"]
    assert dataclasses.asdict(B(4)) == {"x": 2, "size": 4, "y": 3}


def test_param_with_axes_and_fallbacks() -> None:
    class Net(nn.Module):
        @nn.compact
        def __call__(self, x):  # type: ignore[no-untyped-def]
            w = partitioning.param_with_axes(
                "w", lambda k, s: jnp.zeros(s), (2, 2), axes=("foo", "bar")
            )
            return x + w

    rules = (("foo", "model"), ("bar", "data"))
    with partitioning.axis_rules(rules):
        variables = Net().init(random.key(0), jnp.ones((2, 2)))
    assert variables["params_axes"]["w_axes"] == partitioning.AxisMetadata(("foo", "bar"))
    assert partitioning.get_axis_names(variables["params_axes"]) == {
        "w": PartitionSpec("foo", "bar")
    }
    x = jnp.ones((2, 2))
    with (
        partitioning.axis_rules(rules),
        pytest.raises(ValueError, match="did not match a rule"),
    ):
        partitioning.with_sharding_constraint(
            x, ("foo", "nope"), fallback=partitioning.RulesFallback.RAISE_ERROR
        )
    u = PartitionSpec.UNCONSTRAINED
    spec = partitioning.logical_to_mesh_axes(("a", "b"), rules=(("a", u), ("b", u)))
    assert spec == PartitionSpec(u, u)


def test_typed_keys_in_isclose_broadcast_reshape() -> None:
    k = random.key(0)
    assert bool(jnp.allclose(k, k)) and not bool(jnp.allclose(k, random.key(1)))
    b = jnp.broadcast_to(k, (2, 3))
    assert b.shape == (2, 3) and b.dtype == k.dtype
    assert jnp.reshape(b, (3, 2)).shape == (3, 2)
    assert bool(jnp.all(random.key_data(b[1, 2]) == random.key_data(k)))


def test_attention_einsum_overrides() -> None:
    q = jnp.ones((1, 4, 2)) * jnp.arange(4.0)[None, :, None]
    plain = nn.dot_product_attention(q, q, q)
    both = nn.dot_product_attention(
        q, q, q, qk_attn_weights_einsum=jnp.einsum, attn_weights_value_einsum=jnp.einsum
    )
    np.testing.assert_allclose(both, plain, rtol=1e-6)
    general = nn.dot_product_attention(q, q, q, einsum_dot_general=trellax.lax.dot_general)
    np.testing.assert_allclose(general, plain, rtol=1e-6)
    with pytest.raises(ValueError, match="specified together"):
        nn.dot_product_attention(q, q, q, qk_attn_weights_einsum=jnp.einsum)
    with pytest.raises(ValueError, match="mutually exclusive"):
        nn.dot_product_attention(
            q,
            q,
            q,
            precision="highest",
            qk_attn_weights_einsum=jnp.einsum,
            attn_weights_value_einsum=jnp.einsum,
        )


def test_attention_deprecation_warnings() -> None:
    x = jnp.ones((1, 3, 2))
    module = nn.MultiHeadDotProductAttention(num_heads=1, deterministic=True)
    with pytest.warns(DeprecationWarning, match="inputs_kv arg will be deprecated"):
        module.init(random.key(0), x, inputs_kv=x)
    variables = module.init(random.key(0), x, x)
    mask = jnp.ones((1, 1, 3, 3))
    with (
        pytest.warns(DeprecationWarning, match="may have intended to pass it to the `mask`"),
        pytest.raises(errors.ScopeParamShapeError),
    ):
        module.apply(variables, x, x, mask)


def test_sequential_builds_modules_in_its_layers() -> None:
    mlp = nn.Sequential([lambda x: nn.Dense(x.shape[-1])(x), nn.relu, lambda x: nn.Dense(2)(x)])
    params = mlp.init(random.key(0), jnp.ones((3, 5)))["params"]
    assert sorted(params) == ["Dense_0", "Dense_1"]
    with pytest.raises(ValueError, match="'layers' must be a sequence"):
        nn.Sequential(nn.Dense(3))  # type: ignore[arg-type]


def test_typed_key_at_set_and_get() -> None:
    keys = random.clone(jnp.broadcast_to(random.key(0), (2,)))
    new = keys.at[1].set(random.key(3))
    assert bool(new[1] == random.key(3)) and bool(new[0] == random.key(0))
    assert bool(new.at[1].get() == random.key(3))
    assert bool(keys[1] == random.key(0))  # the original is unchanged
    with pytest.raises(TypeError, match="takes keys"):
        keys.at[0].set(jnp.zeros(2, jnp.uint32))


def test_parse_flags_with_absl_marks_absl_flags_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    # absltest's temporary directories read absl's flags: JAX's parse_flags_with_absl parses
    # them (known flags only), and so does trellax's once the program has imported absl.
    fresh = flags.FlagValues()
    flags.DEFINE_string("test_only_dir", "/tmp/x", "a flag", flag_values=fresh)
    monkeypatch.setattr(flags, "FLAGS", fresh)
    monkeypatch.setattr("sys.argv", ["prog", "--jax_enable_x64=false"])
    assert not fresh.is_parsed()
    trellax.config.parse_flags_with_absl()
    assert fresh.is_parsed() and fresh.test_only_dir == "/tmp/x"
