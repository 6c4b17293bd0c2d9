"""Behaviours real JAX programs showed (the corpus of tests/corpus), pinned with JAX's answers."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as jnp
import trellax.random as jr
from trellax.experimental import io_callback
from trellax.sharding import PartitionSpec


def _printed(fn: object, *args: object) -> list[str]:
    seen: list[str] = []

    def probe(x: object) -> object:
        seen.append(repr(x))
        assert str(x) == repr(x)
        return x

    fn(probe, *args)  # type: ignore[operator]
    return seen


def test_tracer_reprs_are_jaxs() -> None:
    # JAX 0.10.2 prints these (its "Thinking in JAX" and debugging docs print traced values)
    assert _printed(lambda f, x: trellax.jit(f)(x), 1.0) == ["JitTracer(~float32[])"]
    ones = jnp.ones((2, 3), jnp.int32)
    assert _printed(lambda f, x: trellax.jit(f)(x), ones) == ["JitTracer(int32[2,3])"]
    assert _printed(lambda f, x: trellax.grad(f)(x), 1.0) == [
        "GradTracer(primal=1.0, typeof(tangent)=f32[])"
    ]
    assert _printed(lambda f, x: trellax.vmap(f)(x), jnp.ones(3)) == [
        "VmapTracer(aval=float32[], batched=float32[3])"
    ]
    assert _printed(lambda f, x: trellax.jvp(f, (x,), (x,)), 1.0) == [
        "JVPTracer(primal=1.0, tangent=1.0)"
    ]
    assert _printed(lambda f, x: trellax.jacfwd(f)(x), 1.0) == [
        "JVPTracer(primal=1.0, tangent=VmapTracer(aval=~float32[], batched=~float32[1]))"
    ]


def test_grad_through_real_and_imag_is_strong() -> None:
    # JAX: the cotangent of z from real(z)/imag(z) pairs it with a strong zero
    g = trellax.grad(lambda z: jnp.real(z) ** 2 + jnp.imag(z) ** 2)(3.0 + 4j)
    assert g.dtype == jnp.complex64 and not g.weak_type
    assert complex(g) == 6 - 8j
    # a holomorphic grad keeps the weak flag of its input
    h = trellax.grad(jnp.sin, holomorphic=True)(3.0 + 4j)
    assert h.weak_type


def test_real_transpose_keeps_infinite_cotangent_finite_elsewhere() -> None:
    _, pullback = trellax.vjp(jnp.real, jnp.ones(3, jnp.complex64))
    (ct,) = pullback(jnp.array([jnp.inf, 1.0, 2.0]))
    assert [complex(c) for c in ct] == [complex(jnp.inf, 0), 1 + 0j, 2 + 0j]


def test_samplers_accept_out_sharding_and_typeof_has_a_sharding() -> None:
    # optax's tree_random_like passes out_sharding=jax.typeof(leaf).sharding
    x = jnp.ones(3)
    sharding = trellax.typeof(x).sharding
    key = jr.key(0)
    want = jr.normal(key, (3,))
    for out_sharding in (None, sharding, PartitionSpec()):
        got = jr.normal(key, (3,), out_sharding=out_sharding)
        assert (got == want).all()
    assert "out_sharding" in inspect.signature(jr.uniform).parameters
    with pytest.raises(TypeError, match="out_sharding"):
        jr.uniform(key, out_sharding="cpu")


def test_transcendental_functions_accept_accuracy() -> None:
    x = jnp.array([0.5, 1.0])
    for fn in (lax.exp, lax.log, lax.sin, lax.cos, lax.tan, lax.tanh, lax.sqrt, lax.rsqrt):
        want = fn(x)
        for accuracy in (None, lax.Tolerance(rtol=1e-3), lax.AccuracyMode.HIGHEST):
            assert (fn(x, accuracy=accuracy) == want).all()
        assert "accuracy" in inspect.signature(fn).parameters
    with pytest.raises(TypeError, match="accuracy"):
        lax.exp(x, accuracy=1e-3)


def test_grad_and_jacobians_rebuild_custom_nodes_with_none_leaves() -> None:
    # JAX's docs ("Custom pytrees and initialization with unexpected values"): jacobian of a
    # custom node whose __init__ calls jnp.asarray fails with asarray(None)'s ValueError
    class Box:
        def __init__(self, a: object) -> None:
            self.a = jnp.asarray(a)

    trellax.tree_util.register_pytree_node(
        Box, lambda b: ((b.a,), None), lambda _, children: Box(*children)
    )
    box = Box(jnp.arange(3.0))
    for transform in (trellax.jacobian, trellax.jacfwd):
        with pytest.raises(ValueError, match="None"):
            transform(lambda b: jnp.sum(b.a))(box)
    # JAX 0.10.2's grad no longer rebuilds its input tree with None leaves (observed)
    g = trellax.grad(lambda b: jnp.sum(b.a))(box)
    assert isinstance(g, Box) and np.asarray(g.a).tolist() == [1.0, 1.0, 1.0]


def test_an_object_answering_every_attribute_is_not_an_array() -> None:
    # a plotting mock (every attribute is another mock) reached jnp.arange in a JAX notebook:
    # JAX raises TypeError, trellax raised KeyError from deep inside promotion
    class Anything:
        def __getattr__(self, name: str) -> Anything:
            return Anything()

    with pytest.raises(TypeError, match="Cannot determine dtype"):
        jnp.result_type(Anything())
    with pytest.raises(TypeError):
        jnp.arange(Anything())


def test_unused_pure_callback_is_removed_under_jit_io_callback_is_not() -> None:
    # JAX's external-callbacks doc: an unused pure_callback is eliminated by the compiler
    calls: list[str] = []

    def note(name: str) -> Any:
        def cb() -> Any:
            calls.append(name)
            return np.int32(0)

        return cb

    spec = trellax.ShapeDtypeStruct((), np.int32)

    @trellax.jit
    def f() -> Any:
        trellax.pure_callback(note("pure"), spec)
        io_callback(note("io"), spec)
        return 1.0

    f()
    assert calls == ["io"]


def test_ordered_io_callback_refuses_vmap() -> None:
    f = trellax.jit(lambda x: io_callback(lambda v: np.asarray(v) + 1, x, x, ordered=True))
    assert (f(jnp.zeros(2)) == 1).all()
    with pytest.raises(ValueError, match="Cannot `vmap` ordered IO callback"):
        trellax.vmap(f)(jnp.zeros(3))
    unordered = trellax.vmap(lambda x: io_callback(lambda v: np.asarray(v) + 1, x, x))
    assert (unordered(jnp.zeros(3)) == 1).all()


def test_io_callback_without_results_under_grad_of_jit() -> None:
    # JAX's external-callbacks doc: the callback does not depend on the differentiated input
    calls: list[int] = []

    @trellax.jit
    def f(x: Any) -> Any:
        io_callback(lambda: calls.append(1), None)
        return x

    assert float(trellax.grad(f)(1.0)) == 1.0
    assert calls == [1]
