"""Errors and edge cases of ``trellax.nn``'s lifted transforms and module API that the Flax golden
cases (``tests/test_nn_linen_golden.py``) do not cover."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as tnp
import trellax.random as random
from trellax.flax import core, ids

KEY = random.PRNGKey(0)


def test_vmap_collection_without_axis_is_invisible() -> None:
    # as in Flax: a collection no filter selects is neither visible nor mutable inside
    class Counter(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            self.variable("stats", "n", lambda: tnp.zeros(()))
            return nn.Dense(2)(x)

    model = nn.vmap(Counter, variable_axes={"params": 0}, split_rngs={"params": True})()
    with pytest.raises(nn.errors.ScopeCollectionNotFound, match='"n" from collection "stats"'):
        model.init(KEY, tnp.ones((3, 4)))


def test_partitioned_scan_needs_partition_name() -> None:
    class Layer(nn.Module):
        @nn.compact
        def __call__(self, c: Any, _: Any) -> Any:
            init = nn.with_partitioning(nn.initializers.lecun_normal(), ("a", "b"))
            return nn.Dense(2, kernel_init=init)(c), None

    model = nn.scan(Layer, variable_axes={"params": 0}, split_rngs={"params": True}, length=2)()
    with pytest.raises(nn.errors.PartitioningUnspecifiedError, match="partition_name"):
        model.init(KEY, tnp.ones((1, 2)), None)


def test_transformed_method_cannot_return_a_module() -> None:
    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            return nn.remat(lambda mdl, x: nn.Dense(2, parent=None))(self, x)

    with pytest.raises(nn.errors.TransformedMethodReturnValueError):
        M().init(KEY, tnp.ones((1, 2)))


def test_module_bound_outside_the_transformed_one_is_lifted() -> None:
    class Wrapper(nn.Module):
        inner: Any

        @nn.compact
        def __call__(self, x: Any) -> Any:
            return self.inner(x)

    class M(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            shared = nn.Dense(2)
            shared(x)
            return nn.vmap(Wrapper, variable_axes={"params": None})(shared)(x[None])

    x = tnp.asarray(np.arange(2.0).reshape(1, 2), tnp.float32)
    variables = M().init(KEY, x)
    assert set(variables["params"]) == {"Dense_0"}  # the shared module's scope, lifted
    y = M().apply(variables, x)
    dense = variables["params"]["Dense_0"]
    np.testing.assert_allclose(np.asarray(y), np.asarray(x @ dense["kernel"] + dense["bias"])[None])


def test_scan_inside_jit_and_grad() -> None:
    model = nn.RNN(nn.GRUCell(3))
    x = tnp.asarray(np.random.default_rng(0).standard_normal((2, 4, 2)), tnp.float32)
    v = model.init(KEY, x)

    def loss(p: Any) -> Any:
        return tnp.sum(model.apply({"params": p}, x) ** 2)

    g_eager = trellax.grad(loss)(v["params"])
    g_jit = trellax.jit(trellax.grad(loss))(v["params"])
    for a, b in zip(trellax.tree_util.tree_leaves(g_eager), trellax.tree_util.tree_leaves(g_jit)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


def test_default_filters_are_hashable_modules_stay_hashable() -> None:
    assert hash(nn.RNN(nn.LSTMCell(2))) == hash(nn.RNN(nn.LSTMCell(2)))


def test_logical_to_mesh_axes_rules() -> None:
    rules = (("batch", "X"), ("features", "X"), ("heads", "Y"), ("batch", "Z"))
    spec = nn.logical_to_mesh_axes(("batch", "length", "heads", "features"), rules)
    assert tuple(spec) == ("X", None, "Y", None)
    with pytest.raises(ValueError, match="occur more than once"):
        nn.logical_to_mesh_axes(("a", "a"), rules)


def test_flax_ids_and_core_meta() -> None:
    a = ids.uuid()
    assert a == a and copy.copy(a) != a and copy.deepcopy(a) != a and ids.uuid() != a
    assert core.AxisMetadata is nn.meta.AxisMetadata and core.meta.unbox is nn.unbox


def test_modules_inside_pytree_arguments_are_lifted() -> None:
    # Flax's "Module lifecycle" note: a closure made a flax.struct PyTreeNode holding a Dense
    # passes through nn.vmap; the Dense is lifted with the method (its params gain the axis)
    from collections.abc import Callable, Iterable

    from trellax.flax import struct

    class Partial(struct.PyTreeNode):
        fn: Callable[..., Any] = struct.field(pytree_node=False)
        args: Iterable[Any]

        def __call__(self, *args: Any) -> Any:
            return self.fn(*(tuple(self.args) + args))

    class Foo(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            dense = nn.Dense(x.shape[-1])
            vmap_inner = nn.vmap(
                Foo.inner, in_axes=0, variable_axes={"params": 0}, split_rngs={"params": True}
            )
            return vmap_inner(self, x, Partial(lambda mdl, x: mdl(x) + 1, [dense]))

        def inner(self, x: Any, fn: Any) -> Any:
            for _ in range(3):
                x = fn(x)
            return x

    x = tnp.ones((3, 2))
    variables = Foo().init(random.key(0), x)
    kernel = np.asarray(variables["params"]["Dense_0"]["kernel"])
    bias = np.asarray(variables["params"]["Dense_0"]["bias"])
    assert kernel.shape == (3, 2, 2) and bias.shape == (3, 2)
    want = np.ones((3, 2), np.float32)
    for _ in range(3):
        want = np.einsum("bi,bio->bo", want, kernel) + bias + 1
    np.testing.assert_allclose(Foo().apply(variables, x), want, rtol=1e-5)
