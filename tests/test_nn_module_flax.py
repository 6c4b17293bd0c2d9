"""Details of Flax's module system that Flax's own tests rely on (issue 25): dataclass field
order, ``kw_only`` subclasses, a class's own ``__hash__``, setup states, attribute freezing,
naming helpers, relaxed naming, adoption, deep clones, and the related linear-layer fixes."""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as tnp
import trellax.random as random
from trellax.flax import config, serialization
from trellax.flax.core import FrozenDict, Scope
from trellax.nn import module as nn_module

KEY = random.PRNGKey(0)


def test_parent_and_name_are_the_last_dataclass_fields() -> None:
    class A(nn.Module):
        bar: int

        def __call__(self, x: Any) -> Any:
            return x

    class B(A):
        baz: int

    assert list(A.__dataclass_fields__) == ["bar", "parent", "name"]
    assert list(B.__dataclass_fields__) == ["bar", "baz", "parent", "name"]
    b = B(1, 2, name="b")  # positional fields still in declaration order
    assert (b.bar, b.baz, b.name) == (1, 2, "b")
    x = tnp.ones((2,))
    assert B(1, 2).init_with_output(KEY, x)[1] == {}


def test_kw_only_subclass() -> None:
    class Base(nn.Module, kw_only=True):
        m: int = -1

    class Child(Base):
        c: int

        def __call__(self, x: Any) -> Any:
            return x * self.c * self.m

    with pytest.raises(TypeError, match="positional"):
        Base(2)  # type: ignore[misc]
    np.testing.assert_array_equal(np.asarray(Child(8)(tnp.ones(3))), [-8.0, -8.0, -8.0])


def test_a_class_keeps_its_own_hash() -> None:
    class H(nn.Module):
        x: int = 3
        y: int = 5

        def __hash__(self) -> int:
            return 42 + self.x

    assert hash(H(1, 2)) == hash(H(1, 5)) == 43
    assert hash(H(2, 2)) == 44


def test_setup_state_and_compact_name_scope_methods() -> None:
    class Foo(nn.Module):
        @nn.compact_name_scope
        def up(self, x: Any) -> Any:
            return nn.Dense(3)(x)

        @nn.compact_name_scope
        def down(self, x: Any) -> Any:
            return nn.Dense(3)(x)

        def __call__(self, x: Any) -> Any:
            return self.up(x) + self.down(x)

    assert set(Foo._compact_name_scope_methods) == {"up", "down"}
    assert nn.Dense._compact_name_scope_methods == ()
    params = Foo().init(KEY, tnp.ones((1, 2)))["params"]
    assert set(params) == {"up", "down"}
    bound = nn.Dense(2).bind({"params": {}})
    assert bound._state.setup_called == nn_module.SetupState.NEW
    repr(bound)  # repr runs no setup
    assert bound._state.setup_called == nn_module.SetupState.NEW


def test_freeze_attr() -> None:
    class P(NamedTuple):
        a: Any
        b: int

    assert nn_module._freeze_attr([1, [2, 3]]) == (1, (2, 3))
    frozen = nn_module._freeze_attr(P([1], 2))
    assert type(frozen) is P and frozen == P((1,), 2)
    d = nn_module._freeze_attr({"a": [1]})
    assert isinstance(d, FrozenDict) and d["a"] == (1,)


def test_setup_attributes_are_frozen_and_named() -> None:
    seen: dict[str, Any] = {}

    class M(nn.Module):
        def setup(self) -> None:
            self.layers = [nn.Dense(2), nn.Dense(3)]
            self.heads = {"b": nn.Dense(4), "a": nn.Dense(4)}

        def __call__(self, x: Any) -> Any:
            seen["types"] = (type(self.layers), type(self.heads))
            return self.heads["a"](self.layers[1](self.layers[0](x)))

    params = M().init(KEY, tnp.ones((1, 2)))["params"]
    assert seen["types"] == (tuple, FrozenDict)
    assert set(params) == {"layers_0", "layers_1", "heads_a"}


def test_local_method_names_and_suffix_pairs() -> None:
    class Base:
        @staticmethod
        def s(x: Any) -> Any:
            return x

        @classmethod
        def c(cls, x: Any) -> Any:
            return x

        def m(self, x: Any) -> Any:
            return x

    class Derived(Base):
        def n(self, x: Any) -> Any:
            return x

    assert nn_module._get_local_method_names(Base) == ("m",)
    assert nn_module._get_local_method_names(Derived) == ("n",)
    assert nn_module._get_local_method_names(Derived, exclude=("n",)) == ()
    for leaf in [(), [], {}, None, 0, set()]:
        assert nn_module._get_suffix_value_pairs(leaf) == [("", leaf)]
    assert nn_module._get_suffix_value_pairs({"b": 2, "a": {"d": 4, "c": 3}}) == [
        ("_a_c", 3),
        ("_a_d", 4),
        ("_b", 2),
    ]
    assert nn_module._get_suffix_value_pairs([5, 6]) == [("_0", 5), ("_1", 6)]


def test_return_frozendict_flag() -> None:
    x = tnp.zeros((2, 3))
    with config.temp_flip_flag("return_frozendict", True):
        v = nn.Dense(5).init(KEY, x)
        assert isinstance(v, FrozenDict)
        _, upd = nn.BatchNorm(use_running_average=False).init_with_output(KEY, x)
        assert isinstance(upd, FrozenDict)
    v = nn.Dense(5).init(KEY, x)
    assert type(v) is dict


def test_relaxed_naming_across_collections() -> None:
    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            a = self.variable("col1", "v", tnp.zeros, x.shape)
            b = self.variable("col2", "v", tnp.ones, x.shape)
            return x + a.value + b.value

    v = Foo().init(KEY, tnp.zeros((1,)))
    assert set(v) == {"col1", "col2"}

    class Clash(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            self.variable("col1", "v", tnp.zeros, x.shape)
            self.variable("col1", "v", tnp.zeros, x.shape)
            return x

    with pytest.raises(nn.errors.NameInUseError):
        Clash().init(KEY, tnp.zeros((1,)))

    class SubmoduleClash(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            self.variable("col1", "Dense_0", tnp.zeros, x.shape)
            return nn.Dense(2, name="Dense_0")(x)

    with pytest.raises(nn.errors.NameInUseError):
        SubmoduleClash().init(KEY, tnp.zeros((1,)))


def test_preserve_adopted_names_flag() -> None:
    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return x + self.param("p", nn.initializers.zeros, x.shape)

    class Bar(nn.Module):
        sub: nn.Module

        def __call__(self, x: Any) -> Any:
            return self.sub(x)

    x = tnp.zeros((1,))
    with config.temp_flip_flag("preserve_adopted_names", True):
        assert set(Bar(sub=Foo(name="foo")).init(KEY, x)["params"]) == {"foo"}

        class Two(nn.Module):
            a: nn.Module
            b: nn.Module

        with pytest.raises(nn.errors.NameInUseError):
            Two(Foo(name="foo"), Foo(name="foo")).init(KEY, x)
    assert set(Bar(sub=Foo(name="foo")).init(KEY, x)["params"]) == {"sub"}


def test_deep_clone_and_unbind() -> None:
    class Child(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return x @ self.param("w", nn.initializers.zeros, (x.shape[1], 5))

    class Parent(nn.Module):
        n: int
        template: Child

        @nn.compact
        def __call__(self, x: Any) -> Any:
            for _ in range(self.n):
                x = self.template.clone(parent=self, _deep_clone=True, name=None)(x)
            return x

    v = Parent(2, Child()).init(KEY, tnp.ones((3, 5)))
    assert set(v["params"]) == {"Child_0", "Child_1"}

    class Foo(nn.Module):
        sub: Any

        @nn.compact
        def __call__(self, x: Any) -> Any:
            return self.sub(nn.Dense(2)(x))

    module = Foo(Foo(nn.Dense(3)))
    x = tnp.ones((1, 2))
    variables = module.init(KEY, x)
    bound = module.bind(variables)
    np.testing.assert_array_equal(np.asarray(bound(x)), np.asarray(module.apply(variables, x)))
    unbound, _ = bound.unbind()
    assert unbound == module


def test_init_of_a_child_module_inside_a_parent() -> None:
    class Baz(nn.Module):
        def setup(self) -> None:
            self.b = self.param("b", lambda k: tnp.ones(()))

        def __call__(self, x: Any) -> Any:
            return x + self.b

    class Bar(nn.Module):
        baz: Baz

        def __call__(self, x: Any) -> Any:
            return self.baz(x)

    class Foo(nn.Module):
        def setup(self) -> None:
            self.bar = Bar(baz=Baz())

        def __call__(self, x: Any) -> Any:
            return self.bar.init_with_output(KEY, x)

    (y, inner), outer = Foo().init_with_output(KEY, tnp.ones(()))
    assert "params" in inner and "params" not in outer
    assert float(y) == 2.0


def test_explicit_bound_parent_outside_setup_raises() -> None:
    class Bar(nn.Module):
        def __call__(self, x: Any) -> Any:
            return nn.Dense(1, parent=self)(x)

    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return Bar()(x)

    with pytest.raises(nn.errors.AssignSubModuleError, match="setup"):
        Foo().init(KEY, tnp.ones((1, 3)))


@pytest.mark.parametrize(
    ("eqn", "lhs", "rhs", "out", "bias", "bcast", "explicit"),
    [
        ("ab...,bc...->ac...", (3, 4, 6), (4, 5, 6), (3, 5, 6), (5, 6), (1, 5, 6), "abX,bcX->acX"),
        (
            "d...ab,bc...->ad...c",
            (8, 6, 7, 3, 4),
            (4, 5, 6, 7),
            (3, 8, 6, 7, 5),
            (6, 7, 5),
            (1, 1, 6, 7, 5),
            "dXYab,bcXY->adXYc",
        ),
        (
            "d...ab,bc...->adc",
            (8, 6, 7, 3, 4),
            (4, 5, 6, 7),
            (3, 8, 5),
            (5,),
            (1, 1, 5),
            "dXYab,bcXY->adc",
        ),
        (
            "a...d,ej...f->adef",
            (3, 4, 5, 6),
            (7, 4, 5, 8),
            (3, 6, 7, 8),
            (7, 8),
            (1, 1, 7, 8),
            "aXYd,ejYf->adef",
        ),
        ("abd...,bc...->ac...", (3, 4, 6), (4, 5, 6), (3, 5, 6), (5, 6), (1, 5, 6), "abd,bcX->acX"),
    ],
)
def test_einsum_with_ellipses(
    eqn: str,
    lhs: tuple[int, ...],
    rhs: tuple[int, ...],
    out: tuple[int, ...],
    bias: tuple[int, ...],
    bcast: tuple[int, ...],
    explicit: str,
) -> None:
    layer = nn.Einsum(rhs, eqn, bias_init=nn.initializers.normal())
    x = random.normal(random.PRNGKey(1), lhs)
    v = layer.init(KEY, x)
    assert v["params"]["kernel"].shape == rhs and v["params"]["bias"].shape == bias
    y = layer.apply(v, x)
    assert y.shape == out
    k, b = np.asarray(v["params"]["kernel"]), np.asarray(v["params"]["bias"])
    want = np.einsum(explicit, np.asarray(x, np.float64), k) + b.reshape(bcast)
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-5, atol=1e-5)


def test_einsum_errors() -> None:
    x = tnp.ones((3, 4, 5))
    with pytest.raises(ValueError, match="must be explicit"):
        nn.Einsum((5, 6, 7), "abc,cde").init(KEY, x)
    with pytest.raises(ValueError, match="exactly one comma character, instead of 2"):
        nn.Einsum((5, 6, 7), "abc,cde,efg->abdfg").init(KEY, x)


def test_canonicalize_padding() -> None:
    pad = nn.linear.canonicalize_padding
    assert pad("SAME", 2) == "SAME"
    assert pad(2, 3) == [(2, 2)] * 3
    assert pad([1, (2, 3)], 2) == [(1, 1), (2, 3)]
    for bad, rank in (((2, 2), 3), ((2, 2), 1), ([None, (1, 2)], 2), (["x", 1], 2)):
        with pytest.raises(ValueError, match="Invalid padding"):
            pad(bad, rank)


def test_einsum_dot_general_hook() -> None:
    calls: list[Any] = []

    def dot(a: Any, b: Any, dn: Any, precision: Any, preferred_element_type: Any = None) -> Any:
        calls.append(preferred_element_type)
        return trellax.lax.dot_general(a, b, dn, precision, preferred_element_type)

    x, y = tnp.ones((2, 3), tnp.bfloat16), tnp.ones((3, 4), tnp.bfloat16)
    out = tnp.einsum("ij,jk->ik", x, y, _dot_general=dot)
    assert out.dtype == tnp.bfloat16 and calls == [tnp.dtype(tnp.bfloat16)]
    np.testing.assert_array_equal(np.asarray(out, np.float32), np.full((2, 4), 3.0))


def test_custom_vjp_none_cotangent_runs_upstream_rules() -> None:
    @trellax.custom_vjp
    def f(x: Any) -> Any:
        return x * 2

    f.defvjp(lambda x: (f(x), None), lambda res, g: (g * 0 + 7.0,))

    @trellax.custom_vjp
    def h(a: Any) -> Any:
        return a.sum()

    h.defvjp(lambda a: (h(a), None), lambda res, g: (None,))
    for grad in (trellax.grad(lambda x: h(f(x))), trellax.jit(trellax.grad(lambda x: h(f(x))))):
        np.testing.assert_array_equal(np.asarray(grad(tnp.ones(3))), [7.0, 7.0, 7.0])


def test_a_module_in_several_fields_is_adopted_once() -> None:
    class A(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            counter = self.variable("counter", "i", tnp.zeros, ())
            counter.value += 1
            return nn.Dense(1)(x)

    class B(nn.Module):
        subs: Any

        @nn.compact
        def __call__(self, x: Any) -> Any:
            return self.subs["foo"](x) + self.subs["bar"](x) + self.subs["baz"](x)

    a = A()
    b = B({"foo": a, "bar": a, "baz": a})
    x = tnp.ones((2, 2))
    variables = b.init(KEY, x)
    assert set(variables["params"]) == {"subs_bar"}  # the first key in order
    _, counters = b.apply(variables, x, mutable="counter")
    assert float(counters["counter"]["subs_bar"]["i"]) == 6.0

    class C(nn.Module):
        a: nn.Module
        b: nn.Module

        @nn.compact
        def __call__(self, x: Any) -> Any:
            return self.b(x) + self.a(x)

    class D(nn.Module):
        a: nn.Module

        @nn.compact
        def __call__(self, x: Any) -> Any:
            return self.a(x)

    shared = nn.Dense(2)
    params = C(shared, D(shared)).init(KEY, x)["params"]
    assert set(params) == {"a"}  # D's field is C's module a, not a copy under b


def test_bound_modules_refuse_hashing() -> None:
    assert hash(nn.Dense(3)) == hash(nn.Dense(3))
    with pytest.raises(TypeError, match="hold variables"):
        hash(nn.Dense(10, parent=Scope({})))


def test_debug_path_names_the_lifted_transforms() -> None:
    paths: list[tuple[tuple[str, ...], tuple[str, ...]]] = []

    class C(nn.Module):
        def setup(self) -> None:
            paths.append((self.path, self.scope.debug_path))

        @nn.compact
        def __call__(self, x: Any) -> Any:
            return x

    class B(nn.Module):
        def setup(self) -> None:
            self.c1 = nn.remat(nn.remat(C))()
            self.c2 = C()

        def __call__(self, x: Any) -> Any:
            return self.c1(x) + self.c2(x)

    B().init(KEY, tnp.ones((2,)))
    assert paths == [(("c1",), ("remat(remat(c1))",)), (("c2",), ("c2",))]


def test_lazy_init_computes_only_the_variables() -> None:
    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            k = self.param("kernel", nn.initializers.lecun_normal(), (x.shape[-1], x.shape[-1]))
            return x @ k

    big = trellax.ShapeDtypeStruct((1024 * 1024 * 1024, 128), tnp.float32)  # 512 GiB
    lazy = Foo().lazy_init(KEY, big)
    eager = Foo().init(KEY, tnp.ones((2, 128)))
    np.testing.assert_array_equal(
        np.asarray(lazy["params"]["kernel"]), np.asarray(eager["params"]["kernel"])
    )

    class Bar(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return x * self.param("kernel", lambda _: x)

    with pytest.raises(nn.errors.LazyInitError):
        Bar().lazy_init(KEY, trellax.ShapeDtypeStruct((8, 4), tnp.float32))
    # real arrays among the inputs are used as they are
    v = Bar().lazy_init(KEY, tnp.ones((2,)))
    np.testing.assert_array_equal(np.asarray(v["params"]["kernel"]), [1.0, 1.0])


def test_nn_jit_fingerprints_serializable_objects_by_state() -> None:
    class Node:
        def __init__(self, a: int) -> None:
            self.a = a

        def __hash__(self) -> int:
            raise AssertionError("hashed")

        def __eq__(self, other: object) -> bool:
            raise AssertionError("compared")

    def from_dict(node: Node, d: dict[str, Any]) -> Node:
        node.a = d["a"]
        return node

    serialization.register_serialization_state(Node, lambda n: {"a": n.a}, from_dict)
    traces = 0
    try:

        class Foo(nn.Module):
            node: Node

            @nn.jit
            @nn.compact
            def __call__(self, x: Any) -> Any:
                nonlocal traces
                traces += 1
                return self.node.a + nn.Dense(2)(x)

        for _ in range(2):
            Foo(Node(1)).init_with_output(KEY, tnp.ones((2, 2)))
        assert traces == 1
        Foo(Node(2)).init_with_output(KEY, tnp.ones((2, 2)))
        assert traces == 2
    finally:
        del serialization._STATE_DICT_REGISTRY[Node]


def test_private_methods_are_wrapped_as_flax_wraps_them() -> None:
    class Tied(nn.Module):
        @nn.compact
        def _call(self, x: Any, decode: bool) -> Any:
            def f(module: nn.Module) -> Any:
                return nn.Dense(4 if decode else 5, use_bias=False)(x)

            fn = (lambda v: trellax.tree_util.tree_map(lambda a: a.T, v)) if decode else None
            if fn is None:
                return nn.map_variables(f, "params", mutable=True)(self)
            return nn.map_variables(f, "params", fn, fn, mutable=True)(self)

        def __call__(self, x: Any) -> Any:
            return self._call(self._call(x, False), True)

    variables = Tied().init(KEY, tnp.ones((2, 4)))
    assert shapes(variables["params"]) == {"Dense_0": {"kernel": (4, 5)}}


def shapes(tree: Any) -> Any:
    return trellax.tree_util.tree_map(lambda a: tuple(a.shape), tree)


def test_the_vjp_function_is_a_pytree_of_residuals() -> None:
    x = tnp.arange(3.0)
    _, f = trellax.vjp(lambda v: tnp.sin(v) * v, x)
    leaves, treedef = trellax.tree_util.tree_flatten(f)
    assert leaves and all(isinstance(leaf, trellax.Array) for leaf in leaves)
    rebuilt = trellax.tree_util.tree_unflatten(treedef, leaves)
    want = np.cos(np.arange(3.0)) * np.arange(3.0) + np.sin(np.arange(3.0))
    np.testing.assert_allclose(np.asarray(rebuilt(tnp.ones(3))[0]), want, rtol=1e-6)
    jitted = trellax.jit(lambda v: trellax.vjp(lambda u: tnp.sin(u) * u, v)[1])(x)
    np.testing.assert_allclose(np.asarray(jitted(tnp.ones(3))[0]), want, rtol=1e-6)

    class Foo(nn.Module):
        @nn.compact
        def __call__(self, v: Any) -> Any:
            def f(mdl: Any, u: Any) -> Any:
                return mdl(u)

            def fwd(mdl: Any, u: Any) -> Any:
                return nn.vjp(f, mdl, u)  # the pullback is the residual

            def bwd(pullback: Any, g: Any) -> Any:
                params_t, u_t = pullback(g)
                return trellax.tree_util.tree_map(tnp.sign, params_t), u_t

            return nn.custom_vjp(f, forward_fn=fwd, backward_fn=bwd)(nn.Dense(1), v).reshape(())

    v = tnp.ones((2,))
    variables = Foo().init(KEY, v)
    grads = trellax.grad(Foo().apply)(variables, v)
    for leaf in trellax.tree_util.tree_leaves(grads):
        assert np.all(np.abs(np.asarray(leaf)) == 1.0)


def test_fix_rng_separator_flag_changes_make_rng_keys() -> None:
    # Flax's rng guide: paths ("ab", "cdef") and ("abc", "def") hash alike without separators;
    # with flax_fix_rng_separator a zero byte precedes each name and the call count
    class Leaf(nn.Module):
        def __call__(self) -> Any:
            return random.key_data(self.make_rng("rng"))

    class Node(nn.Module):
        leaf_name: str

        @nn.compact
        def __call__(self) -> Any:
            return Leaf(name=self.leaf_name)()

    class Model(nn.Module):
        @nn.compact
        def __call__(self) -> Any:
            return Node(name="ab", leaf_name="cdef")(), Node(name="abc", leaf_name="def")()

    root = random.key(33)

    def expected(parts: list[bytes]) -> list[int]:
        digest = hashlib.sha1(b"".join(parts)).digest()
        folded = random.fold_in(root, np.uint32(int.from_bytes(digest[:4], "big")))
        return np.asarray(random.key_data(folded)).tolist()

    a, b = Model().apply({}, rngs={"rng": root})
    assert np.asarray(a).tolist() == np.asarray(b).tolist() == expected([b"abcdef", b"\x01"])
    with config.temp_flip_flag("fix_rng_separator", True):
        a, b = Model().apply({}, rngs={"rng": root})
        # Flax 0.12.8 with JAX 0.10.2 gives these keys (measured in the reference venv)
        assert np.asarray(a).tolist() == [203191908, 3547421422]
        assert np.asarray(a).tolist() == expected([b"\0ab", b"\0cdef", b"\0\x01"])
        assert np.asarray(b).tolist() == expected([b"\0abc", b"\0def", b"\0\x01"])
        kernel = nn.Dense(2).init(random.key(1), tnp.ones((1, 2)))["params"]["kernel"]
        assert np.asarray(kernel).tolist()[0] == pytest.approx([0.34388262, -0.88560271])
    a, b = Model().apply({}, rngs={"rng": root})
    assert np.asarray(a).tolist() == np.asarray(b).tolist()
