"""trellax.flax.struct, .core (FrozenDict), .traverse_util, .configurations, .errors, .linen."""

from __future__ import annotations

import dataclasses
import pickle
import warnings
from collections import namedtuple
from typing import Any, Generic, TypeVar

import pytest

import trellax
import trellax.flax
import trellax.nn
import trellax.numpy as jnp
from trellax import tree_util
from trellax._src.compat.jax_src.tree_util import prefix_errors
from trellax.flax import configurations, errors, io, struct, traverse_util, typing
from trellax.flax.core import FrozenDict, copy, freeze, pop, pretty_repr, unfreeze

# ----------------------------------------------------------------- struct


@struct.dataclass
class Point:
    x: Any
    y: Any
    meta: Any = struct.field(pytree_node=False, default=None)


def test_struct_is_a_frozen_pytree_with_static_fields() -> None:
    p = Point(1.0, 2.0, meta={"a": 1})
    assert tree_util.tree_leaves(p) == [1.0, 2.0]
    doubled = tree_util.tree_map(lambda v: v * 2, p)
    assert doubled == Point(2.0, 4.0, meta={"a": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3.0  # type: ignore[misc]
    assert p.replace(y=5.0) == Point(1.0, 5.0, meta={"a": 1})
    paths = [tree_util.keystr(k) for k, _ in tree_util.tree_flatten_with_path(p)[0]]
    assert paths == [".x", ".y"]


def test_struct_through_jit_and_grad() -> None:
    @trellax.jit
    def f(p: Point) -> Any:
        return p.x * p.y

    assert float(f(Point(jnp.float32(2.0), jnp.float32(3.0), meta="m"))) == 6.0
    g = trellax.grad(lambda p: p.x * p.y)(Point(jnp.float32(2.0), jnp.float32(3.0), meta="m"))
    assert isinstance(g, Point) and float(g.x) == 3.0 and g.meta == "m"


def test_struct_keywords_and_double_wrap() -> None:
    @struct.dataclass(frozen=False)
    class Mutable:
        a: int = 1

    m = Mutable()
    m.a = 2
    assert m.a == 2

    @struct.dataclass
    class A:
        a: int = 1

    @struct.dataclass(kw_only=True)
    class B(A):
        b: int

    assert B(b=2).a == 1
    assert struct.dataclass(A) is A
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @struct.dataclass
        class C(A):
            b: int


def test_pytree_node_subclasses_and_generics() -> None:
    T = TypeVar("T")

    class Node(struct.PyTreeNode, Generic[T]):
        value: Any
        tag: str = struct.field(pytree_node=False, default="t")

    class Child(Node[int], kw_only=True):
        extra: int = 0

    c = Child(1, extra=2)
    assert tree_util.tree_leaves(c) == [1, 2]
    assert c.replace(value=5).value == 5
    assert Node.__parameters__ == (T,)
    with pytest.raises(NotImplementedError):
        struct.PyTreeNode()


def test_field_metadata_passes_through() -> None:
    @struct.dataclass
    class A:
        foo: int = struct.field(default=9, metadata={"baz": 9})

    assert A.__dataclass_fields__["foo"].metadata == {"baz": 9, "pytree_node": True}


def test_init_false_fields_are_recomputed() -> None:
    @struct.dataclass
    class Derived:
        a: Any
        twice: Any = dataclasses.field(init=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", self.a * 2)

    d = tree_util.tree_map(lambda v: v + 1, Derived(1))
    assert d.a == 2 and d.twice == 4


# ----------------------------------------------------------------- FrozenDict


def test_frozen_dict_basics() -> None:
    xs = {"a": 1, "b": {"c": 2}}
    frozen = freeze(xs)
    xs["b"]["c"] = 99
    assert unfreeze(frozen) == {"a": 1, "b": {"c": 2}}
    assert isinstance(frozen["b"], FrozenDict)
    assert frozen == {"a": 1, "b": {"c": 2}}
    with pytest.raises(ValueError, match="immutable"):
        frozen["a"] = 2  # type: ignore[index]
    assert hash(freeze({"a": 1, "b": {"c": 2}})) == hash(frozen)
    assert hash(freeze({"a": 1, "b": {"c": 3}})) != hash(frozen)
    assert list(frozen.items()) == [("a", 1), ("b", freeze({"c": 2}))]
    assert repr(frozen.keys()) == "frozen_dict_keys(['a', 'b'])"
    assert frozen.get("zz", 7) == 7


def test_frozen_dict_repr_is_flax_s() -> None:
    xs = FrozenDict({"a": 1, "b": {"c": 2, "d": {}}})
    assert (
        repr(xs) == "FrozenDict({\n    a: 1,\n    b: {\n        c: 2,\n        d: {},\n    },\n})"
    )
    assert repr(FrozenDict()) == "FrozenDict({})"
    assert pretty_repr({"a": {"b": 1}}) == "{\n    a: {\n        b: 1,\n    },\n}"
    assert pretty_repr(345) == "345"


def test_frozen_dict_copy_pop_and_helpers() -> None:
    frozen = FrozenDict({"a": 1, "b": {"c": 2}})
    rest, value = frozen.pop("b")
    assert rest == {"a": 1} and value == {"c": 2} and isinstance(value, FrozenDict)
    assert frozen.copy({"cls": 2}) == {"a": 1, "b": {"c": 2}, "cls": 2}
    new, v = pop({"a": 1, "b": 2}, "a")
    assert new == {"b": 2} and type(new) is dict and v == 1
    assert isinstance(copy(frozen, {"z": 0}), FrozenDict)
    assert type(copy({"a": 1}, {"z": 0})) is dict
    with pytest.raises(TypeError, match="Expected FrozenDict or dict"):
        copy([1], {})  # type: ignore[arg-type]


def test_frozen_dict_is_a_sorted_pytree_with_dict_keys() -> None:
    frozen = freeze({"c": 1, "b": {"a": 2}})
    leaves, treedef = tree_util.tree_flatten(frozen)
    assert leaves == [2, 1]
    assert tree_util.tree_unflatten(treedef, leaves) == frozen
    with_path, _ = tree_util.tree_flatten_with_path(frozen)
    assert with_path[0][0] == (tree_util.DictKey("b"), tree_util.DictKey("a"))
    mapped = tree_util.tree_map(lambda v: v * 10, frozen)
    assert isinstance(mapped, FrozenDict) and unfreeze(mapped) == {"c": 10, "b": {"a": 20}}


def test_frozen_dict_pickles() -> None:
    before = FrozenDict(a=FrozenDict(b=1, c=2))
    after = pickle.loads(pickle.dumps(before))
    assert after == before and after is not before


def test_nn_variables_interoperate_with_frozen_dicts() -> None:
    model = trellax.nn.Dense(2)
    variables = model.init(trellax.random.key(0), jnp.ones((1, 3)))
    assert type(variables) is dict  # as Flax 0.12.8
    out_plain = model.apply(variables, jnp.ones((1, 3)))
    out_frozen = model.apply(freeze(variables), jnp.ones((1, 3)))
    assert jnp.array_equal(out_plain, out_frozen)


# ----------------------------------------------------------------- traverse_util


def test_flatten_and_unflatten() -> None:
    xs = {"foo": 1, "bar": {"a": 2, "b": {}}}
    assert traverse_util.flatten_dict(xs) == {("foo",): 1, ("bar", "a"): 2}
    assert traverse_util.flatten_dict(freeze(xs), sep="/") == {"foo": 1, "bar/a": 2}
    kept = traverse_util.flatten_dict(xs, keep_empty_nodes=True)
    assert kept[("bar", "b")] is traverse_util.empty_node
    assert traverse_util.unflatten_dict(kept) == xs
    assert traverse_util.unflatten_dict({"foo": 1, "bar/a": 2}, sep="/") == {
        "foo": 1,
        "bar": {"a": 2},
    }
    leafy = traverse_util.flatten_dict(xs, is_leaf=lambda path, x: path == ("bar",))
    assert leafy == {("foo",): 1, ("bar",): {"a": 2, "b": {}}}
    assert traverse_util.flatten_dict({}, keep_empty_nodes=True) == {}
    with pytest.raises(TypeError, match="expects a dict"):
        traverse_util.flatten_dict([1])  # type: ignore[arg-type]


def test_path_aware_map() -> None:
    params = {"a": {"b": 10, "c": 2}, "d": {}}
    out = traverse_util.path_aware_map(lambda path, x: x + 1 if "b" in path else -x, params)
    assert out == {"a": {"b": 11, "c": -2}, "d": {}}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_traversals() -> None:
    Pt = namedtuple("Pt", "x y")
    t = traverse_util.t_identity
    assert list(t["foo"].iterate({"foo": 1})) == [1]
    assert t[1:3].update(lambda v: v * 2, (1, 2, 3, 4)) == (1, 4, 6, 4)
    assert t.y.update(lambda v: v * 2, Pt(1, 2)) == Pt(1, 4)
    assert t.y.update(lambda v: v * 2, Point(1, 2)) == Point(1, 4)
    data = [{"foo": 1, "bar": 2}, {"foo": 3, "bar": 4}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        merged = t.each().merge(
            traverse_util.TraverseItem("foo"), traverse_util.TraverseItem("bar")
        )
    assert list(merged.iterate(data)) == [1, 2, 3, 4]
    assert t.each().filter(lambda v: v < 0).update(lambda v: -v, [1, -2]) == [1, 2]
    assert t.tree().update(lambda v: v + 1, [{"a": 1}, (2,)]) == [{"a": 2}, (3,)]
    each = t["foo"].each()
    assert each.set([3, 4], {"foo": [1, 2]}) == {"foo": [3, 4]}
    with pytest.raises(ValueError, match="Not enough"):
        each.set([3], {"foo": [1, 2]})
    with pytest.raises(ValueError, match="Too many"):
        each.set([3, 4, 5], {"foo": [1, 2]})
    with pytest.raises(ValueError, match="list or tuple"):
        t.each().update(lambda v: v, {1, 2})


def test_traversal_construction_warns_deprecation() -> None:
    with pytest.warns(DeprecationWarning, match="will be deprecated"):
        traverse_util.TraverseEach()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_model_param_traversal() -> None:
    params = {"x": {"kernel": 1, "bias": 2, "y": {"kernel": 3, "bias": 4}, "z": {}}}
    names: list[str] = []

    def keep(name: str, _: Any) -> bool:
        names.append(name)
        return "kernel" in name

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        traversal = traverse_util.ModelParamTraversal(keep)
    assert list(traversal.iterate(params)) == [1, 3]
    assert set(names) == {"/x/kernel", "/x/bias", "/x/y/kernel", "/x/y/bias"}
    doubled = traversal.update(lambda v: v * 2, params)
    assert doubled == {"x": {"kernel": 2, "bias": 2, "y": {"kernel": 6, "bias": 4}, "z": {}}}
    assert isinstance(traversal.update(lambda v: v, freeze(params)), FrozenDict)
    with pytest.raises(ValueError, match="nested dict"):
        list(traversal.iterate([]))


# ----------------------------------------------------------------- config, errors, linen


def test_config_flags() -> None:
    config = trellax.flax.config
    assert config is configurations.config
    assert config.flax_use_orbax_checkpointing is True  # Flax 0.12.8's default
    assert config.flax_fix_rng_separator is False
    assert config.flax_return_frozendict is False
    config.update("flax_fix_rng_separator", True)
    try:
        assert config.flax_fix_rng_separator is True
    finally:
        config.update("flax_fix_rng_separator", False)
    with config.temp_flip_flag("return_frozendict", True):
        assert config.flax_return_frozendict is True
    assert config.flax_return_frozendict is False
    with pytest.raises(LookupError, match="Unrecognized config option"):
        config.update("flax_nonexistent", True)
    with pytest.raises(RuntimeError, match="already defined"):
        configurations.bool_flag("flax_profile", default=True, help="again")
    with pytest.raises(TypeError, match="bool"):
        bool(configurations.int_flag("flax_test_int_flag", default=3, help="h"))
    assert config.flax_test_int_flag == 3


def test_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLAX_TEST_ENV_FLAG", "off")
    assert configurations.bool_flag("flax_test_env_flag", default=True, help="h").value is False
    monkeypatch.setenv("FLAX_TEST_BAD", "maybe")
    with pytest.raises(ValueError, match="invalid truth value"):
        configurations.static_bool_env("FLAX_TEST_BAD", False)


def test_errors_are_flax_s_classes_shared_with_nn() -> None:
    assert errors.ScopeParamNotFoundError is trellax.nn.errors.ScopeParamNotFoundError
    assert issubclass(errors.InvalidCheckpointError, errors.FlaxError)
    assert not issubclass(errors.FlaxError, ValueError)
    e = errors.InvalidCheckpointError("/ckpt/checkpoint_3", 3)
    assert (
        str(e)
        == 'Trying to save an outdated checkpoint at step: "3" and path: "/ckpt/checkpoint_3".'
        " (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"
        "#flax.errors.InvalidCheckpointError)"
    )
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is errors.InvalidCheckpointError and str(again) == str(e)
    with pytest.raises(errors.ScopeCollectionNotFound, match="collection is empty"):
        trellax.nn.Dense(3).apply({}, jnp.ones(2))


def test_linen_is_nn() -> None:
    import trellax.flax.linen as linen  # the import path itself is under test

    assert linen is trellax.nn
    assert trellax.flax.linen.initializers is trellax.nn.initializers


def test_typing_and_io(tmp_path: Any) -> None:
    assert typing.PRNGKey is trellax.Array and typing.MISSING is typing.MISSING
    assert isinstance(typing.MISSING, typing.Missing)
    path = str(tmp_path / "f.txt")
    with io.GFile(path, "w") as f:
        f.write("héllo")
    assert io.exists(path) and io.listdir(str(tmp_path)) == ["f.txt"] and io.getsize(path) == 6
    io.copy(path, path + ".bak")
    with pytest.raises(errors.AlreadyExistsError, match="Trying overwrite an existing file"):
        io.rename(path + ".bak", path)
    io.rename(path + ".bak", path, overwrite=True)
    io.makedirs(str(tmp_path / "a" / "b"))
    assert sorted(io.glob(str(tmp_path / "*"))) == [str(tmp_path / "a"), path]
    io.rmtree(str(tmp_path / "a"))
    io.remove(path)
    assert io.listdir(str(tmp_path)) == []
    with io.override_mode(io.BackendMode.TF), pytest.raises(NotImplementedError, match="gfile"):
        io.exists(path)


def test_jax_src_tree_util_prefix_errors_stand_in() -> None:
    (error,) = prefix_errors(Point(1.0, [2.0], meta={}), Point(1.0, 2.0, meta={}))
    with pytest.raises(ValueError, match=r"in_axes\.y"):
        raise error("in_axes")
    (error,) = prefix_errors((1, 2), (1, 2, 3))
    assert "different lengths of tuple" in str(error("x"))
    (error,) = prefix_errors({"a": 1}, {"a": 1, "b": 2})
    assert "different numbers of pytree children" in str(error("x"))
    (error,) = prefix_errors(Point(1, 2, meta="a"), Point(1, 2, meta="b"))
    assert "different pytree metadata" in str(error("x"))
    assert prefix_errors(0, {"a": [1]}) == [] and prefix_errors(None, None) == []
