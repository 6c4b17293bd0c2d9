"""The module system of ``trellax.nn``: names, collections, mutability, rng streams, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as tnp
import trellax.random as random

KEY = random.PRNGKey(0)


def shapes(tree: Any) -> Any:
    return trellax.tree_util.tree_map(lambda a: tuple(a.shape), tree)


class MLP(nn.Module):
    features: tuple[int, ...] = (3, 2)

    @nn.compact
    def __call__(self, x: Any) -> Any:
        for f in self.features[:-1]:
            x = nn.relu(nn.Dense(f)(x))
        return nn.Dense(self.features[-1], name="head")(x)


class SetupModel(nn.Module):
    def setup(self) -> None:
        self.layers = [nn.Dense(3), nn.Dense(4)]
        self.heads = {"a": nn.Dense(2)}
        self.w = self.param("w", nn.initializers.ones, (4,))

    def __call__(self, x: Any) -> Any:
        return self.heads["a"](self.layers[1](self.layers[0](x)) * self.w)

    def encode(self, x: Any) -> Any:
        return self.layers[0](x)


def test_compact_names_and_explicit_names() -> None:
    v = MLP((3, 3, 2)).init(KEY, tnp.ones((1, 4)))
    assert shapes(v) == {
        "params": {
            "Dense_0": {"kernel": (4, 3), "bias": (3,)},
            "Dense_1": {"kernel": (3, 3), "bias": (3,)},
            "head": {"kernel": (3, 2), "bias": (2,)},
        }
    }
    assert isinstance(v, dict) and isinstance(v["params"], dict)


def test_setup_names_lists_and_dicts_and_methods() -> None:
    m = SetupModel()
    v = m.init(KEY, tnp.ones((1, 4)))
    assert sorted(v["params"]) == ["heads_a", "layers_0", "layers_1", "w"]
    out = m.apply(v, tnp.ones((1, 4)), method="encode")
    assert out.shape == (1, 3)
    out2 = m.apply(v, tnp.ones((1, 4)), method=SetupModel.encode)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(out2))
    out3 = m.apply(v, tnp.ones((1, 4)), method=lambda mod, x: mod.encode(x) * 2)
    np.testing.assert_allclose(np.asarray(out3), 2 * np.asarray(out))
    with pytest.raises(AttributeError, match="nope"):  # as Flax: no such attribute
        m.apply(v, tnp.ones((1, 4)), method="nope")
    with pytest.raises(nn.errors.ApplyModuleInvalidMethodError):
        m.apply(v, tnp.ones((1, 4)), method=lambda: None)  # takes no module


def test_reusing_a_module_shares_parameters() -> None:
    class Twice(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            d = nn.Dense(3)
            return d(x) + d(x) + nn.Dense(3)(x)

    v = Twice().init(KEY, tnp.ones((1, 2)))
    assert sorted(v["params"]) == ["Dense_0", "Dense_1"]

    class Outer(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            inner = MLP()
            return inner(x) + inner(x)

    assert sorted(Outer().init(KEY, tnp.ones((1, 2)))["params"]["MLP_0"]) == ["Dense_0", "head"]


def test_name_in_use() -> None:
    class Clash(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            nn.Dense(3, name="a")(x)
            return nn.Dense(3, name="a")(x)

    with pytest.raises(nn.errors.NameInUseError, match='submodule "a" in Module Clash'):
        Clash().init(KEY, tnp.ones(3))


def test_sequential_top_level_and_inline() -> None:
    seq = nn.Sequential([nn.Dense(3), nn.relu, nn.Dense(2)])
    v = seq.init(KEY, tnp.ones((1, 4)))
    assert sorted(v["params"]) == ["layers_0", "layers_2"]
    assert seq.apply(v, tnp.ones((1, 4))).shape == (1, 2)

    class Inline(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dense(5)(nn.Sequential([nn.Dense(3), nn.Dense(2)])(x))

    assert sorted(Inline().init(KEY, tnp.ones((1, 4)))["params"]) == [
        "Dense_0",
        "Dense_1",
        "Dense_2",
    ]
    tuple_out = nn.Sequential([lambda x: (x, x + 1), lambda a, b: a * b])
    assert float(tuple_out.apply({}, tnp.asarray(2.0))) == 6.0
    with pytest.raises(ValueError, match="Empty Sequential"):
        nn.Sequential([]).apply({}, tnp.ones(1))


def test_same_key_same_params_different_modules_differ() -> None:
    a = MLP((3, 3, 2)).init(KEY, tnp.ones((1, 3)))
    b = MLP((3, 3, 2)).init(KEY, tnp.ones((1, 3)))
    c = MLP((3, 3, 2)).init(random.PRNGKey(1), tnp.ones((1, 3)))
    k0, k1 = a["params"]["Dense_0"]["kernel"], a["params"]["Dense_1"]["kernel"]
    np.testing.assert_array_equal(np.asarray(k0), np.asarray(b["params"]["Dense_0"]["kernel"]))
    assert not np.array_equal(np.asarray(k0), np.asarray(k1))
    assert not np.array_equal(np.asarray(k0), np.asarray(c["params"]["Dense_0"]["kernel"]))


def test_rng_streams_and_make_rng() -> None:
    class Noisy(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            k1, k2 = self.make_rng("noise"), self.make_rng("noise")
            return random.normal(k1, x.shape), random.normal(k2, x.shape)

    (a, b), _ = Noisy().init_with_output({"params": KEY, "noise": KEY}, tnp.ones(3))
    assert not np.array_equal(np.asarray(a), np.asarray(b))
    with pytest.raises(nn.errors.InvalidRngError, match='None needs PRNG for "noise"'):
        Noisy().apply({}, tnp.ones(3))
    # as Flax's scope: a missing stream falls back on "params" when there is one
    out, _ = nn.Sequential([nn.Dropout(0.5, deterministic=False)]).init_with_output(
        KEY, tnp.ones(8)
    )
    assert set(np.unique(np.asarray(out))) <= {0.0, 2.0}

    class Drop(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.Dropout(0.5, deterministic=False)(x)

    with pytest.raises(nn.errors.InvalidRngError, match='Dropout_0 needs PRNG for "dropout"'):
        Drop().apply({}, tnp.ones(3))
    out = Drop().apply({}, tnp.ones(1000), rngs={"dropout": KEY})
    kept = np.asarray(out) != 0
    assert 400 < kept.sum() < 600 and np.all(np.asarray(out)[kept] == 2.0)
    with pytest.raises(ValueError, match=r"should be a ``jax\.PRNGKey``"):  # Flax's error
        MLP().init({"params": None}, tnp.ones(3))
    with pytest.raises(nn.errors.InvalidRngError, match="RNGs should be"):
        MLP().init("test", tnp.ones(3))


def test_variables_mutability_and_sow() -> None:
    class Counter(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            count = self.variable("stats", "count", lambda: tnp.zeros((), tnp.int32))
            assert self.has_variable("stats", "count")
            if not self.is_initializing():
                count.value = count.value + 1
            self.sow("intermediates", "h", x)
            self.sow("intermediates", "h", x + 1)
            return x

    m = Counter()
    v = m.init(KEY, tnp.ones(2))
    assert v == {"stats": {"count": v["stats"]["count"]}} and int(v["stats"]["count"]) == 0
    with pytest.raises(
        nn.errors.ModifyScopeVariableError, match='"count" in "/" because collection "stats"'
    ):
        m.apply(v, tnp.ones(2))
    _, upd = m.apply(v, tnp.ones(2), mutable=["stats"])
    assert list(upd) == ["stats"] and int(upd["stats"]["count"]) == 1
    assert int(v["stats"]["count"]) == 0  # the caller's dict is not changed
    _, upd = m.apply(v, tnp.ones(2), mutable=True)
    assert len(upd["intermediates"]["h"]) == 2
    _, upd = m.apply(v, tnp.ones(2), mutable="stats")
    assert "intermediates" not in upd
    with pytest.raises(
        nn.errors.ScopeCollectionNotFound, match='access "count" from collection "stats"'
    ):
        m.apply({}, tnp.ones(2))
    _, fresh = m.apply({}, tnp.ones(2), mutable="stats")
    assert int(fresh["stats"]["count"]) == 1
    with pytest.raises(nn.errors.ScopeVariableNotFoundError):
        m.apply({"stats": {"other": tnp.zeros(())}}, tnp.ones(2))


def test_param_errors() -> None:
    d = nn.Dense(3)
    with pytest.raises(nn.errors.ScopeCollectionNotFound) as info:
        d.apply({}, tnp.ones(3))
    assert str(info.value) == (
        'Tried to access "kernel" from collection "params" in "/" but the collection is empty.'
        " (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"
        "#flax.errors.ScopeCollectionNotFound)"
    )
    with pytest.raises(nn.errors.ScopeParamNotFoundError, match='"bias" in scope "/"'):
        d.apply({"params": {"kernel": tnp.ones((3, 3))}}, tnp.ones(3))
    with pytest.raises(nn.errors.ScopeParamShapeError) as info2:
        d.apply({"params": {"kernel": tnp.ones((2, 3)), "bias": tnp.ones(3)}}, tnp.ones(3))
    assert (
        "expected to generate shape (3, 3), but the existing parameter it received has shape (2, 3)"
        in str(info2.value)
    )
    for err in (nn.errors.ScopeParamShapeError, nn.errors.InvalidRngError):
        assert issubclass(err, nn.errors.FlaxError) and not issubclass(err, ValueError)
    with pytest.raises(nn.errors.CallCompactUnboundModuleError):
        d(tnp.ones(3))


def test_unbound_attributes_settable_and_several_compact_methods() -> None:
    # As Flax 0.12: a module not yet bound may be changed, and a class may have several
    # @compact methods (they share the auto-name counters of one call).
    d = nn.Dense(3)
    d.features = 4
    assert d.features == 4

    class Two(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return self.b(nn.Dense(1)(x))

        @nn.compact
        def b(self, x: Any) -> Any:
            return nn.Dense(1)(x)

    params = Two().init(KEY, tnp.ones((1, 1)))["params"]
    assert set(params) == {"Dense_0", "Dense_1"}
    bound = nn.Dense(2).bind({"params": {"kernel": tnp.ones((1, 2)), "bias": tnp.zeros(2)}})
    with pytest.raises(nn.errors.SetAttributeFrozenModuleError, match="frozen outside of setup"):
        bound.features = 4


def test_merge_param() -> None:
    assert nn.merge_param("x", None, True) is True and nn.merge_param("x", False, None) is False
    with pytest.raises(ValueError, match='"d" must be passed to the constructor or at call time'):
        nn.merge_param("d", None, None)
    with pytest.raises(ValueError, match="passed to the constructor and at call time"):
        nn.merge_param("d", True, False)


def test_params_are_not_cast_and_dtype_follows_stored_params() -> None:
    d = nn.Dense(2)
    v = d.init(KEY, tnp.ones((1, 3)))
    v16 = trellax.tree_util.tree_map(lambda a: a.astype("bfloat16"), v)
    assert d.apply(v16, tnp.ones((1, 3), "bfloat16")).dtype == np.dtype("bfloat16")
    assert d.apply(v16, tnp.ones((1, 3), "float32")).dtype == np.float32


def test_apply_under_jit_and_bind() -> None:
    m = MLP()
    x = tnp.ones((2, 4))
    v = m.init(KEY, x)
    eager = m.apply(v, x)
    jitted = trellax.jit(m.apply)(v, x)
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(eager), rtol=1e-6)
    bound = SetupModel().bind(SetupModel().init(KEY, x))
    assert bound.encode(x).shape == (2, 3)
    assert bound.variables["params"]["w"].shape == (4,)


def test_repr_and_clone() -> None:
    d = nn.Dense(3, name="proj")
    # Flax's layout: one attribute per line, functions and dtypes by name, no name/parent
    assert repr(d).startswith("Dense(\n    # attributes\n    features = 3\n    use_bias = True\n")
    assert "param_dtype = float32\n" in repr(d) and "bias_init = zeros\n" in repr(d)
    assert d.clone(features=5).features == 5 and d.clone().name == "proj"
    assert nn.Dense(3) == nn.Dense(3) and hash(nn.Dense(3)) == hash(nn.Dense(3))
