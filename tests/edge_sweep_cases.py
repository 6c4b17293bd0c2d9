"""Every public function of ``lax``, ``numpy.linalg``, ``numpy.fft``, ``nn``, ``scipy.special``,
``scipy.linalg``, ``scipy.signal``, ``scipy.stats`` and ``random`` called on edge-case inputs
(0-d arrays, empty arrays, wrong ranks, mismatched shapes, out-of-range axes and dimension
numbers, empty carries), recorded from JAX by ``tools/gen_golden_edge_sweep.py`` into
``tests/golden/edge_sweep.json`` and checked in trellax by ``tests/test_edge_sweep.py``.

A case is a Python expression evaluated in :func:`environment`: the short names below bind the
namespaces (``lax``, ``la`` for ``numpy.linalg``, ``sp`` for ``scipy.special``, ...) and the
inputs (``s`` a 0-d float32, ``e`` a ``(0,)`` float32, ...). The generator writes the expressions
it built (by arity from JAX's signatures, plus the hand-written lists here) as the golden keys, so
the test evaluates exactly what JAX evaluated. A result is recorded as the shape, dtype and weak
flag of every array leaf with its values (exact text for up to :data:`MAX_VALUES` elements, a
NaN-aware sum beyond), or an error as its class name.
"""

from __future__ import annotations

import inspect
import warnings
from types import ModuleType
from typing import Any

import numpy as np

#: the inputs, evaluated with ``jnp`` and ``random`` bound
INPUTS = {
    "s": "jnp.array(0.5, jnp.float32)",
    "i": "jnp.array(3, jnp.int32)",
    "b": "jnp.array(True)",
    "c": "jnp.array(1 + 2j, jnp.complex64)",
    "e": "jnp.zeros((0,), jnp.float32)",
    "e2": "jnp.zeros((0, 3), jnp.float32)",
    "e3": "jnp.zeros((3, 0), jnp.float32)",
    "ee": "jnp.zeros((0, 0), jnp.float32)",
    "eb": "jnp.zeros((0, 2, 2), jnp.float32)",
    "ie": "jnp.zeros((0,), jnp.int32)",
    "be": "jnp.zeros((0,), bool)",
    "v": "jnp.array([0.5, -1.5, 2.0], jnp.float32)",
    "iv": "jnp.array([0, 2, 1], jnp.int32)",
    "bv": "jnp.array([True, False, True])",
    "m": "jnp.array([[2.0, 1.0], [1.0, 3.0]], jnp.float32)",
    "m23": "jnp.arange(6, dtype=jnp.float32).reshape(2, 3) / 4",
    "r3": "jnp.arange(8, dtype=jnp.float32).reshape(2, 2, 2) / 8 + jnp.eye(2, dtype=jnp.float32)",
    "K": "random.PRNGKey(0)",
    "k": "random.key(0)",
}

#: namespace name in the golden file -> module path under ``jax``/``trellax``
NAMESPACES = {
    "lax": "lax",
    "linalg": "numpy.linalg",
    "fft": "numpy.fft",
    "nn": "nn",
    "special": "scipy.special",
    "scipy_linalg": "scipy.linalg",
    "signal": "scipy.signal",
    "stats": "scipy.stats",
    "random": "random",
}

#: short name each namespace has in the expressions
SHORT = {
    "lax": "lax",
    "linalg": "la",
    "fft": "fft",
    "nn": "nn",
    "special": "sp",
    "scipy_linalg": "sl",
    "signal": "sig",
    "stats": "st",
    "random": "random",
}

#: results with more elements are recorded as a NaN-aware sum and a NaN count
MAX_VALUES = 24

#: argument tuples (input names) by arity for the automatic sweep
ARGS: dict[int, list[tuple[str, ...]]] = {
    1: [("s",), ("i",), ("b",), ("e",), ("e2",), ("v",), ("r3",)],
    2: [("s", "s"), ("e", "e"), ("e", "s"), ("v", "e"), ("v", "m"), ("i", "s")],
    3: [("s", "s", "s"), ("e", "e", "e"), ("v", "e", "s"), ("v", "m", "s")],
}

#: extra arguments of the matrix namespaces
MATRIX_ARGS: dict[int, list[tuple[str, ...]]] = {
    1: [("ee",), ("e3",), ("eb",), ("m",)],
    2: [("ee", "e"), ("m", "v"), ("m", "m"), ("eb", "eb"), ("ee", "ee")],
}

#: functions the automatic sweep leaves out: they take callables, axis names or tokens, run a
#: distributed protocol, or are the hand-written lists' business
AUTO_SKIP = {
    "lax": {
        "associative_scan", "cond", "custom_linear_solve", "custom_root", "fori_loop", "map",
        "reduce", "reduce_window", "scan", "switch", "while_loop", "sort", "composite",
        "platform_dependent", "psend", "precv", "ragged_all_to_all", "with_sharding_constraint",
        "scatter_apply", "dce_sink", "stage", "pcast", "pbroadcast", "create_token", "after_all",
        "rng_bit_generator", "rng_uniform", "scaled_dot", "full", "iota",
    },
    "nn": {"get_scaled_dot_general_config", "scaled_dot_general", "scaled_matmul"},
    "scipy_linalg": {"funm"},
    "random": {"wrap_key_data", "clone", "key_impl"},
}  # fmt: skip

_DIST = (
    "logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "pmf", "logpmf",
    "entropy", "mean", "var",
)  # fmt: skip

LAX = [
    # reductions and arg-reductions: empty, 0-d, out-of-range and repeated axes
    *(
        f"lax.{f}({x}, {a})"
        for f in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod")
        for x, a in [("e", "(0,)"), ("s", "()"), ("v", "(1,)"), ("v", "(-1,)"), ("e2", "(0,)"),
                     ("e2", "(1,)"), ("v", "(0, 0)"), ("s", "(0,)")]
    ),
    *(f"lax.{f}({x}, {a})" for f in ("reduce_and", "reduce_or", "reduce_xor")
      for x, a in [("be", "(0,)"), ("b", "()"), ("bv", "(1,)"), ("ie", "(0,)"), ("e", "(0,)")]),
    *(
        f"lax.{f}({x}, {a}, jnp.int32)"
        for f in ("argmax", "argmin")
        for x, a in [("e", "0"), ("s", "0"), ("v", "1"), ("v", "-1"), ("e2", "1"), ("e2", "0"),
                     ("e3", "1"), ("iv", "0")]
    ),
    "lax.argmax(v, 0, jnp.float32)",
    *(
        f"lax.{f}({x}, {a})"
        for f in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp")
        for x, a in [("e", "0"), ("s", "0"), ("v", "1"), ("v", "-1"), ("e2", "1"), ("m23", "1")]
    ),
    "lax.cumsum(v, 0, reverse=True)", "lax.cumsum(b, 0)", "lax.cumsum(bv, 0)",
    "lax.reduce(v, 0.0, lax.add, (0,))", "lax.reduce(e, 0.0, lax.add, (0,))",
    "lax.reduce(v, 0.0, lax.add, (1,))", "lax.reduce(s, 0.0, lax.add, ())",
    "lax.reduce(e2, -jnp.inf, lax.max, (0,))", "lax.reduce((v, iv), (0.0, 0), lambda a, b: (a[0] + b[0], a[1] + b[1]), (0,))",
    "lax.reduce(v, jnp.zeros(2), lax.add, (0,))",
    "lax.reduce_window(v, 0.0, lax.add, (2,), (1,), 'VALID')",
    "lax.reduce_window(e, 0.0, lax.add, (1,), (1,), 'VALID')",
    "lax.reduce_window(v, 0.0, lax.add, (4,), (1,), 'VALID')",
    "lax.reduce_window(v, 0.0, lax.add, (2, 2), (1, 1), 'VALID')",
    "lax.reduce_window(v, 0.0, lax.add, (2,), (0,), 'VALID')",
    "lax.reduce_window(v, 0.0, lax.add, (2,), (1,), 'SAME')",
    "lax.reduce_window(s, 0.0, lax.add, (), (), 'VALID')",
    "lax.reduce_window(v, -jnp.inf, lax.max, (2,), (2,), [(1, 1)])",
    "lax.reduce_window(v, 0.0, lax.add, (2,), (1,), 'BOGUS')",
    # shapes: broadcasting, reshaping, slicing
    "lax.broadcast(s, (2,))", "lax.broadcast(e, (0,))", "lax.broadcast(v, (-1,))",
    "lax.broadcast(v, ())",
    "lax.broadcast_in_dim(s, (2, 3), ())", "lax.broadcast_in_dim(v, (2, 3), (1,))",
    "lax.broadcast_in_dim(v, (3,), ())", "lax.broadcast_in_dim(v, (2, 4), (1,))",
    "lax.broadcast_in_dim(e, (2, 0), (1,))", "lax.broadcast_in_dim(v, (3, 2), (2,))",
    "lax.broadcast_in_dim(m, (2, 2), (1, 0))", "lax.broadcast_in_dim(m, (2, 2, 2), (1, 1))",
    "lax.broadcast_in_dim(jnp.ones((1,)), (0,), (0,))", "lax.broadcast_in_dim(s, (-1,), ())",
    "lax.broadcast_shapes((2, 1), (1, 3))", "lax.broadcast_shapes((2,), (3,))",
    "lax.broadcast_shapes((0,), (1,))", "lax.broadcast_shapes((), ())", "lax.broadcast_shapes()",
    "lax.broadcast_shapes((0,), (2,))",
    "lax.broadcast_to_rank(s, 2)", "lax.broadcast_to_rank(v, 0)", "lax.broadcast_to_rank(e, 2)",
    "lax.broadcasted_iota(jnp.int32, (2, 3), 1)", "lax.broadcasted_iota(jnp.int32, (0, 3), 0)",
    "lax.broadcasted_iota(jnp.int32, (2, 3), 2)", "lax.broadcasted_iota(jnp.int32, (), 0)",
    "lax.broadcasted_iota(jnp.float32, (3,), -1)",
    "lax.iota(jnp.int32, 0)", "lax.iota(jnp.float32, 3)", "lax.iota(jnp.int32, -1)",
    "lax.iota(bool, 2)",
    "lax.full((), 1.0)", "lax.full((0, 3), 1.0)", "lax.full((-1,), 1.0)", "lax.full((2,), v)",
    "lax.full((3,), v)", "lax.full((2,), e)",
    "lax.full_like(e, 2.0)", "lax.full_like(s, 1, jnp.int32, (0,))", "lax.full_like(v, s)",
    "lax.full_like(v, v)",
    "lax.collapse(r3, 0, 2)", "lax.collapse(s, 0, 1)", "lax.collapse(e2, 0, 2)",
    "lax.collapse(v, 1, 0)", "lax.collapse(r3, 1)", "lax.collapse(r3, 0, 5)",
    "lax.expand_dims(s, (0,))", "lax.expand_dims(v, (1,))", "lax.expand_dims(v, (3,))",
    "lax.expand_dims(v, (-1,))", "lax.expand_dims(e, (0, 1))", "lax.expand_dims(v, (0, 0))",
    "lax.reshape(e, (0, 5))", "lax.reshape(v, (2,))", "lax.reshape(s, (1, 1))",
    "lax.reshape(v, (-1,))", "lax.reshape(e2, (3, 0))", "lax.reshape(m23, (3, 2), (1, 0))",
    "lax.reshape(m23, (6,), (0,))", "lax.reshape(s, ())", "lax.reshape(e, ())",
    "lax.squeeze(jnp.zeros((1, 0)), (0,))", "lax.squeeze(v, (0,))", "lax.squeeze(s, ())",
    "lax.squeeze(v, (1,))", "lax.squeeze(jnp.zeros((1, 1)), (-1,))",
    "lax.squeeze(jnp.zeros((1, 1)), (0, 0))",
    "lax.transpose(m23, (1, 0))", "lax.transpose(s, ())", "lax.transpose(v, (1,))",
    "lax.transpose(m23, (0, 0))", "lax.transpose(e2, (1, 0))", "lax.transpose(m23, (0,))",
    "lax.transpose(m23, (-1, 0))",
    "lax.rev(v, (0,))", "lax.rev(s, ())", "lax.rev(v, (1,))", "lax.rev(e, (0,))",
    "lax.rev(v, (-1,))", "lax.rev(m23, (0, 0))",
    "lax.pad(v, 0.0, [(1, 1, 0)])", "lax.pad(v, 0.0, [(1, 1, 1)])", "lax.pad(e, 0.0, [(1, 1, 0)])",
    "lax.pad(v, 0.0, [(-2, -2, 0)])", "lax.pad(v, 0.0, [(1, 1, 0), (0, 0, 0)])",
    "lax.pad(s, 0.0, [])", "lax.pad(e, 0.0, [(0, 0, 1)])", "lax.pad(v, 0.0, [(-1, 0, 1)])",
    "lax.pad(v, 0.0, [(0, 0, -1)])", "lax.pad(v, v, [(1, 1, 0)])", "lax.pad(v, 0, [(1, 1, 0)])",
    "lax.slice(v, (1,), (3,))", "lax.slice(v, (2,), (1,))", "lax.slice(v, (0,), (5,))",
    "lax.slice(s, (), ())", "lax.slice(e, (0,), (0,))", "lax.slice(v, (0,), (3,), (0,))",
    "lax.slice(v, (0,), (3,), (2,))", "lax.slice(v, (-1,), (3,))", "lax.slice(m23, (0,), (1,))",
    "lax.slice_in_dim(v, 0, 2)", "lax.slice_in_dim(v, -2, None)", "lax.slice_in_dim(v, 0, 2, axis=1)",
    "lax.slice_in_dim(e, 0, 0)", "lax.slice_in_dim(v, 0, 5)", "lax.slice_in_dim(v, 2, 1)",
    "lax.index_in_dim(v, 1)", "lax.index_in_dim(v, 5)", "lax.index_in_dim(s, 0)",
    "lax.index_in_dim(e, 0)", "lax.index_in_dim(m23, 1, axis=1, keepdims=False)",
    "lax.index_in_dim(v, -1)", "lax.index_in_dim(v, -4)",
    "lax.dynamic_slice(v, (1,), (2,))", "lax.dynamic_slice(v, (-2,), (3,))",
    "lax.dynamic_slice(v, (0,), (4,))", "lax.dynamic_slice(v, (0, 0), (1, 1))",
    "lax.dynamic_slice(s, (), ())", "lax.dynamic_slice(e, (0,), (0,))",
    "lax.dynamic_slice(v, (5,), (2,))", "lax.dynamic_slice(v, (i,), (1,))",
    "lax.dynamic_slice(v, (s,), (1,))", "lax.dynamic_slice(v, (0,), (-1,))",
    "lax.dynamic_slice(v, iv[:1], (1,))",
    "lax.dynamic_slice_in_dim(v, 1, 2)", "lax.dynamic_slice_in_dim(e, 0, 0)",
    "lax.dynamic_slice_in_dim(v, 0, 2, axis=1)", "lax.dynamic_slice_in_dim(v, -1, 2)",
    "lax.dynamic_index_in_dim(v, 1)", "lax.dynamic_index_in_dim(e, 0)",
    "lax.dynamic_index_in_dim(s, 0)", "lax.dynamic_index_in_dim(v, 5)",
    "lax.dynamic_index_in_dim(v, -1, keepdims=False)", "lax.dynamic_index_in_dim(m23, 1, 2)",
    "lax.dynamic_update_slice(v, jnp.ones(2), (-1,))", "lax.dynamic_update_slice(v, e, (0,))",
    "lax.dynamic_update_slice(v, m, (0,))", "lax.dynamic_update_slice(s, s, ())",
    "lax.dynamic_update_slice(v, jnp.ones(4), (0,))", "lax.dynamic_update_slice(v, jnp.ones(2), (5,))",
    "lax.dynamic_update_slice(v, jnp.ones(2, jnp.int32), (0,))",
    "lax.dynamic_update_slice(v, jnp.ones(2), (0, 0))", "lax.dynamic_update_slice(e, e, (0,))",
    "lax.dynamic_update_slice_in_dim(v, jnp.ones(2), 2, 0)",
    "lax.dynamic_update_slice_in_dim(v, jnp.ones(2), 0, 1)",
    "lax.dynamic_update_slice_in_dim(e2, e2, 0, 1)",
    "lax.dynamic_update_index_in_dim(v, 9.0, 1, 0)", "lax.dynamic_update_index_in_dim(v, s, -1, 0)",
    "lax.dynamic_update_index_in_dim(e, s, 0, 0)", "lax.dynamic_update_index_in_dim(m23, v, 0, 0)",
    "lax.dynamic_update_index_in_dim(m23, jnp.ones(2), 0, 0)",
    "lax.concatenate([s, s], 0)", "lax.concatenate([e, v], 0)", "lax.concatenate([v, m], 0)",
    "lax.concatenate([v], 1)", "lax.concatenate([], 0)", "lax.concatenate([e2, m23], 0)",
    "lax.concatenate([v, iv], 0)", "lax.concatenate([v, v], -1)", "lax.concatenate([e, e], 0)",
    "lax.concatenate([e2, e3], 1)",
    "lax.split(v, (1, 2))", "lax.split(v, (2, 2))", "lax.split(e, (0,))", "lax.split(s, ())",
    "lax.split(v, (3,), axis=1)", "lax.split(e2, (0, 0), axis=0)", "lax.split(v, (-1, 4))",
    "lax.tile(v, (2,))", "lax.tile(s, ())", "lax.tile(v, (2, 2))", "lax.tile(e, (3,))",
    "lax.tile(v, (0,))", "lax.tile(v, (-1,))",
    "lax.select(b, s, s)", "lax.select(bv, v, v)", "lax.select(bv, v, e)", "lax.select(b, v, v)",
    "lax.select(be, e, e)", "lax.select(iv, v, v)", "lax.select(bv, v, iv)",
    "lax.select_n(b, s, s)", "lax.select_n(iv, v, v, v)", "lax.select_n(i, s, s)",
    "lax.select_n(b)", "lax.select_n(be, e, e)", "lax.select_n(bv, v)",
    "lax.select_n(jnp.array([0, 5, 1]), v, v)",
    "lax.clamp(0.0, v, 1.0)", "lax.clamp(e, e, e)", "lax.clamp(v, s, m)", "lax.clamp(s, v, s)",
    "lax.clamp(1.0, v, 0.0)", "lax.clamp(0, iv, 1)", "lax.clamp(v, v, v)",
    # sorting and top-k
    "lax.sort(v)", "lax.sort(e)", "lax.sort(s)", "lax.sort(v, dimension=1)",
    "lax.sort((v, iv), num_keys=1)", "lax.sort(m, dimension=-1)", "lax.sort(())",
    "lax.sort((v, e))", "lax.sort((v, iv), num_keys=3)", "lax.sort((e, ie), num_keys=2)",
    "lax.sort(bv)", "lax.sort(c)", "lax.sort(v, is_stable=True)", "lax.sort([v], num_keys=0)",
    "lax.sort_key_val(v, v)", "lax.sort_key_val(e, e)", "lax.sort_key_val(v, e)",
    "lax.sort_key_val(s, s)", "lax.sort_key_val(m, m, dimension=0)",
    "lax.top_k(v, 2)", "lax.top_k(v, 4)", "lax.top_k(e, 0)", "lax.top_k(s, 1)",
    "lax.top_k(v, -1)", "lax.top_k(m23, 0)", "lax.top_k(e2, 1)", "lax.top_k(v, 3)",
    "lax.approx_max_k(v, 2)", "lax.approx_max_k(e, 0)", "lax.approx_min_k(v, 4)",
    "lax.approx_max_k(s, 1)",
    # dot and matmul
    "lax.dot(v, v)", "lax.dot(e, e)", "lax.dot(v, e)", "lax.dot(m, v)", "lax.dot(s, s)",
    "lax.dot(m23, jnp.zeros((3, 0)))", "lax.dot(e2, jnp.zeros((3, 2)))", "lax.dot(r3, m)",
    "lax.dot(iv, v)", "lax.dot(iv, iv)", "lax.dot(bv, bv)", "lax.dot(m23, v)",
    "lax.dot(v, v, preferred_element_type=jnp.int32)",
    "lax.dot_general(m23, m23, (((1,), (1,)), ((), ())))",
    "lax.dot_general(m23, m23, (((1,), (0,)), ((), ())))",
    "lax.dot_general(m23, m23, (((2,), (1,)), ((), ())))",
    "lax.dot_general(r3, r3, (((2,), (1,)), ((0,), (0,))))",
    "lax.dot_general(r3, m23, (((2,), (0,)), ((0,), (0,))))",
    "lax.dot_general(eb, eb, (((2,), (1,)), ((0,), (0,))))",
    "lax.dot_general(s, s, (((), ()), ((), ())))",
    "lax.dot_general(v, v, (((0,), (0,)), ((), ())))",
    "lax.dot_general(v, v, (((0, 0), (0, 0)), ((), ())))",
    "lax.dot_general(v, v, (((0,), ()), ((), ())))",
    "lax.dot_general(r3, r3, (((2,), (1,)), ((0,), (1,))))",
    "lax.dot_general(r3, r3, (((-1,), (1,)), ((0,), (0,))))",
    "lax.dot_general(e2, e2, (((1,), (1,)), ((), ())))",
    "lax.batch_matmul(r3, r3)", "lax.batch_matmul(v, v)", "lax.batch_matmul(eb, eb)",
    "lax.batch_matmul(r3, m)", "lax.batch_matmul(r3, jnp.ones((3, 2, 2)))",
    "lax.ragged_dot(jnp.zeros((0, 2)), jnp.zeros((1, 2, 3)), jnp.zeros((1,), jnp.int32))",
    "lax.ragged_dot(jnp.ones((3, 2)), jnp.ones((2, 2, 3)), jnp.array([1, 2], jnp.int32))",
    "lax.ragged_dot(jnp.ones((3, 2)), jnp.ones((2, 2, 3)), jnp.array([1, 1], jnp.int32))",
    "lax.ragged_dot(v, jnp.ones((2, 2, 3)), jnp.array([1, 2], jnp.int32))",
    # elementwise edge values and dtype checks
    "lax.integer_pow(s, 2)", "lax.integer_pow(e, 3)", "lax.integer_pow(s, -1)",
    "lax.integer_pow(i, -1)", "lax.integer_pow(s, 0)", "lax.integer_pow(b, 2)",
    "lax.integer_pow(v, 2.0)", "lax.integer_pow(iv, 0)",
    "lax.pow(s, e)", "lax.pow(i, i)", "lax.pow(iv, -1)", "lax.pow(v, iv)", "lax.pow(s, 2)",
    "lax.div(i, 0)", "lax.div(iv, jnp.zeros(3, jnp.int32))", "lax.rem(i, 0)", "lax.rem(s, 0.0)",
    "lax.div(jnp.int32(-7), 2)", "lax.rem(jnp.int32(-7), 2)", "lax.div(b, b)",
    "lax.div(jnp.iinfo(jnp.int32).min, jnp.int32(-1))",
    "lax.shift_left(i, i)", "lax.shift_left(ie, ie)", "lax.shift_left(i, 40)",
    "lax.shift_right_arithmetic(jnp.int32(-8), 40)", "lax.shift_right_logical(jnp.int32(-8), 40)",
    "lax.shift_left(s, s)", "lax.shift_left(iv, jnp.int32(-1))",
    "lax.population_count(i)", "lax.population_count(ie)", "lax.population_count(s)",
    "lax.clz(jnp.int32(0))", "lax.clz(ie)", "lax.clz(b)",
    "lax.nextafter(s, s)", "lax.nextafter(e, e)", "lax.nextafter(i, i)",
    "lax.nextafter(jnp.float32(0), jnp.float32(1))",
    "lax.convert_element_type(e, jnp.int32)", "lax.convert_element_type(s, bool)",
    "lax.convert_element_type(b, jnp.float32)", "lax.convert_element_type(c, jnp.float32)",
    "lax.convert_element_type(jnp.float32(jnp.nan), jnp.int32)",
    "lax.convert_element_type(jnp.float32(3e9), jnp.int32)",
    "lax.convert_element_type(v, 'bogus')",
    "lax.bitcast_convert_type(s, jnp.int32)", "lax.bitcast_convert_type(v, jnp.int16)",
    "lax.bitcast_convert_type(e, jnp.int8)", "lax.bitcast_convert_type(s, jnp.float16)",
    "lax.bitcast_convert_type(jnp.zeros((3, 2), jnp.int16), jnp.float32)",
    "lax.bitcast_convert_type(jnp.zeros((3, 3), jnp.int16), jnp.float32)",
    "lax.bitcast_convert_type(b, jnp.int8)", "lax.bitcast_convert_type(jnp.zeros(0, jnp.int8), bool)",
    "lax.reduce_precision(s, 5, 10)", "lax.reduce_precision(e, 5, 10)",
    "lax.reduce_precision(s, 0, 0)", "lax.reduce_precision(i, 5, 10)",
    "lax.reduce_precision(jnp.float32(1e10), 5, 10)", "lax.reduce_precision(v, 8, 7)",
    "lax.complex(s, s)", "lax.complex(e, e)", "lax.complex(v, e)", "lax.complex(i, i)",
    "lax.complex(s, jnp.float16(1))",
    "lax.real(s)", "lax.imag(i)", "lax.conj(s)", "lax.conj(i)", "lax.abs(b)", "lax.neg(b)",
    "lax.sign(b)", "lax.round(s, 2)", "lax.round(i)", "lax.round(jnp.float32(2.5), 1)",
    "lax.round(jnp.float32(2.5), lax.RoundingMethod.TO_NEAREST_EVEN)",
    "lax.zeta(s, s)", "lax.zeta(jnp.float32(1), jnp.float32(1))", "lax.zeta(e, v)",
    "lax.polygamma(jnp.float32(1.5), s)", "lax.polygamma(i, s)", "lax.polygamma(e, e)",
    "lax.igamma(s, e)", "lax.igamma(jnp.float32(0), jnp.float32(0))",
    "lax.igammac(jnp.float32(0), jnp.float32(0))", "lax.igamma_grad_a(s, s)",
    "lax.random_gamma_grad(s, s)", "lax.betainc(s, s, s)", "lax.betainc(e, s, v)",
    "lax.bessel_i0e(e)", "lax.bessel_i1e(i)", "lax.erf_inv(jnp.float32(1))",
    "lax.lgamma(jnp.float32(0))", "lax.digamma(jnp.float32(0))", "lax.rsqrt(jnp.float32(-1))",
    "lax.acosh(jnp.float32(0.5))", "lax.log(jnp.float32(-0.0))", "lax.logistic(jnp.float32(-1e4))",
    "lax.tan(jnp.float32(jnp.pi / 2))", "lax.exp2(i)", "lax.cbrt(jnp.float32(-8))",
    "lax.mulhi(i, i)", "lax.mulhi(jnp.uint32(4294967295), jnp.uint32(3))", "lax.mulhi(s, s)",
    "lax.atan2(jnp.float32(0), jnp.float32(-0.0))", "lax.max(jnp.float32(jnp.nan), s)",
    "lax.min(s, jnp.float32(jnp.nan))", "lax.max(b, b)", "lax.add(b, b)", "lax.mul(b, b)",
    "lax.sub(b, b)", "lax.add(i, s)", "lax.add(i, 2.5)", "lax.add(s, 2)", "lax.add(v, m23)",
    "lax.eq(v, iv)", "lax.eq(e, s)", "lax.lt(c, c)", "lax.is_finite(i)", "lax.is_finite(e)",
    "lax.square(b)", "lax.sqrt(i)", "lax.exp(c)", "lax.tanh(e2)",
    "lax.bitwise_and(b, b)", "lax.bitwise_not(s)", "lax.bitwise_or(ie, ie)", "lax.bitwise_xor(i, s)",
    # gather and scatter
    "lax.gather(v, iv[:, None], lax.GatherDimensionNumbers((), (0,), (0,)), (1,))",
    "lax.gather(e, ie[:, None], lax.GatherDimensionNumbers((), (0,), (0,)), (1,))",
    "lax.gather(v, ie[:, None], lax.GatherDimensionNumbers((), (0,), (0,)), (1,))",
    "lax.gather(v, iv[:, None], lax.GatherDimensionNumbers((), (0,), (0,)), (2,))",
    "lax.gather(v, iv[:, None], lax.GatherDimensionNumbers((), (0,), (1,)), (1,))",
    "lax.gather(v, iv[:, None], lax.GatherDimensionNumbers((), (0,), (0,)), (1, 1))",
    "lax.gather(v, jnp.array([[5], [-7]]), lax.GatherDimensionNumbers((), (0,), (0,)), (1,))",
    "lax.gather(v, jnp.array([[5], [-7]]), lax.GatherDimensionNumbers((), (0,), (0,)), (1,), mode='fill')",
    "lax.gather(v, jnp.array([[5]]), lax.GatherDimensionNumbers((), (0,), (0,)), (1,), mode='promise_in_bounds')",
    "lax.gather(v, iv[:, None], lax.GatherDimensionNumbers((), (0,), (0,)), (1,), mode='bogus')",
    "lax.gather(v, s[None, None], lax.GatherDimensionNumbers((), (0,), (0,)), (1,))",
    "lax.scatter_add(v, iv[:, None], jnp.ones(3), lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_add(e, ie[:, None], e, lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_add(v, ie[:, None], e, lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_add(v, iv[:, None], jnp.ones(2), lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_add(v, iv[:, None], jnp.ones(3), lax.ScatterDimensionNumbers((), (0,), (1,)))",
    "lax.scatter_add(v, jnp.array([[5], [-7]]), jnp.ones(2), lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter(v, jnp.array([[5], [1]]), jnp.ones(2), lax.ScatterDimensionNumbers((), (0,), (0,)), mode='clip')",
    "lax.scatter_mul(v, iv[:, None], iv, lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_max(v, iv[:, None], jnp.ones(3), lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_min(s, jnp.zeros((0,), jnp.int32), s, lax.ScatterDimensionNumbers((), (), ()))",
    "lax.scatter_sub(v, iv[:, None], jnp.ones(3), lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_apply(v, iv[:, None], jnp.sin, lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.index_take(v, (iv,), (0,))", "lax.index_take(e, (ie,), (0,))",
    "lax.index_take(v, (iv,), (1,))", "lax.index_take(v, (iv, iv), (0,))",
    # convolution
    "lax.conv(jnp.zeros((1, 1, 0, 3)), jnp.zeros((1, 1, 1, 1)), (1, 1), 'VALID')",
    "lax.conv(jnp.zeros((0, 1, 4, 4)), jnp.ones((2, 1, 3, 3)), (1, 1), 'SAME')",
    "lax.conv(jnp.ones((1, 1, 4, 4)), jnp.ones((2, 2, 3, 3)), (1, 1), 'SAME')",
    "lax.conv(jnp.ones((1, 1, 2, 2)), jnp.ones((1, 1, 3, 3)), (1, 1), 'VALID')",
    "lax.conv(v, v, (1,), 'SAME')",
    "lax.conv(jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (0, 1), 'SAME')",
    "lax.conv(jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (1,), 'SAME')",
    "lax.conv(jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (1, 1), 'BOGUS')",
    "lax.conv_general_dilated(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 2)), (1,), 'VALID', feature_group_count=2)",
    "lax.conv_general_dilated(jnp.ones((1, 2, 4)), jnp.ones((2, 1, 2)), (1,), 'VALID', feature_group_count=2)",
    "lax.conv_general_dilated(jnp.ones((1, 2, 4)), jnp.ones((2, 2, 2)), (1,), 'VALID', batch_group_count=2)",
    "lax.conv_general_dilated(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 2)), (1,), [(0, 0)], rhs_dilation=(0,))",
    "lax.conv_general_dilated(jnp.ones((1, 4, 1)), jnp.ones((2, 1, 1)), (1,), 'VALID', dimension_numbers=('NWC', 'WIO', 'NWC'))",
    "lax.conv_general_dilated(jnp.ones((1, 4, 1)), jnp.ones((2, 1, 1)), (1,), 'VALID', dimension_numbers=('NWX', 'WIO', 'NWC'))",
    "lax.conv_transpose(jnp.ones((1, 4, 1)), jnp.ones((2, 1, 1)), (2,), 'SAME', dimension_numbers=('NWC', 'WIO', 'NWC'))",
    "lax.conv_transpose(jnp.zeros((0, 4, 1)), jnp.ones((2, 1, 1)), (1,), 'VALID', dimension_numbers=('NWC', 'WIO', 'NWC'))",
    "lax.conv_with_general_padding(jnp.ones((1, 1, 4)), jnp.ones((1, 1, 2)), (1,), [(1, 1)], (1,), (1,))",
    "lax.conv_general_dilated_patches(jnp.ones((1, 1, 4)), (2,), (1,), 'VALID')",
    "lax.conv_general_dilated_patches(jnp.zeros((0, 1, 4)), (2,), (1,), 'VALID')",
    "lax.conv_general_dilated_local(jnp.ones((1, 1, 4)), jnp.ones((3, 2, 1)), (1,), 'VALID', (2,))",
    "lax.conv_dimension_numbers((1, 1, 4), (1, 1, 2), None)",
    "lax.conv_dimension_numbers((1, 1, 4), (1, 1, 2), ('NCW', 'OIW'))",
    "lax.conv_general_shape_tuple((1, 1, 4), (1, 1, 2), (1,), 'VALID', lax.conv_dimension_numbers((1, 1, 4), (1, 1, 2), None))",
    "lax.conv_shape_tuple((1, 1, 4), (1, 1, 2), (1,), 'VALID')",
    "lax.conv_shape_tuple((1, 1, 4), (1, 1, 5), (1,), 'VALID')",
    "lax.conv_transpose_shape_tuple((1, 1, 4), (1, 1, 2), [(0, 0)], lax.conv_dimension_numbers((1, 1, 4), (1, 1, 2), None))",
    "lax.padtype_to_pads((4,), (2,), (1,), 'SAME')", "lax.padtype_to_pads((4,), (2,), (1,), 'BOGUS')",
    "lax.padtype_to_pads((0,), (2,), (1,), 'SAME')", "lax.padtype_to_pads((4,), (2,), (3,), 'SAME_LOWER')",
    "lax.reduce_window_shape_tuple((4,), (2,), (1,), [(0, 0)])",
    "lax.reduce_window_shape_tuple((4,), (5,), (1,), [(0, 0)])",
    # fft
    "lax.fft(v.astype(jnp.complex64), lax.FftType.FFT, (3,))",
    "lax.fft(e.astype(jnp.complex64), lax.FftType.FFT, (0,))",
    "lax.fft(v, lax.FftType.RFFT, (3,))", "lax.fft(v, lax.FftType.FFT, (3,))",
    "lax.fft(v.astype(jnp.complex64), lax.FftType.FFT, (4,))",
    "lax.fft(v.astype(jnp.complex64), lax.FftType.IRFFT, (4,))",
    "lax.fft(s.astype(jnp.complex64), lax.FftType.FFT, ())",
    "lax.fft(v.astype(jnp.complex64), 'fft', (3,))",
    # control flow with empty carries and empty xs
    "lax.scan(lambda c, x: (c + x, x * 2), 0.0, e)",
    "lax.scan(lambda c, x: (c, c), s, None, length=0)",
    "lax.scan(lambda c, x: (c, x), (), v)", "lax.scan(lambda c, x: (c, x), (), e2)",
    "lax.scan(lambda c, x: (c + x[0], x[1]), 0.0, (v, e))",
    "lax.scan(lambda c, x: (c, x), 0.0, s)", "lax.scan(lambda c, x: (c, None), 0.0, None)",
    "lax.scan(lambda c, x: (c, x), 0.0, v, length=4)",
    "lax.scan(lambda c, x: (c + 1, x), 0.0, v)",
    "lax.scan(lambda c, x: (v, x), 0.0, v)", "lax.scan(lambda c, x: (c, x), {}, e, reverse=True)",
    "lax.scan(lambda c, x: (c, x), 0.0, e, unroll=0)",
    "lax.scan(lambda c, x: ((c[0] + x, c[1]), ()), (0.0, e), v)",
    "lax.scan(lambda c, x: (c, x), 0.0, [], length=2)",
    "lax.fori_loop(0, 0, lambda j, c: c + 1.0, s)", "lax.fori_loop(0, 3, lambda j, c: c, ())",
    "lax.fori_loop(3, 0, lambda j, c: c + 1.0, s)", "lax.fori_loop(0.0, 3, lambda j, c: c, s)",
    "lax.fori_loop(0, 2, lambda j, c: c * 2, e)", "lax.fori_loop(i, 0, lambda j, c: c + j, 0)",
    "lax.fori_loop(0, 3, lambda j, c: c + 1, s)", "lax.fori_loop(0, 3, lambda j, c: v, s)",
    "lax.fori_loop(0, i, lambda j, c: c + j, 0)",
    "lax.while_loop(lambda c: False, lambda c: c, ())",
    "lax.while_loop(lambda c: c.shape[0] > 0, lambda c: c, e)",
    "lax.while_loop(lambda c: c < 1, lambda c: c + 1, v)",
    "lax.while_loop(lambda c: c < 3, lambda c: c + 1.0, 0)",
    "lax.while_loop(lambda c: c < 3, lambda c: c + 1, 0)",
    "lax.while_loop(lambda c: 1, lambda c: c + 1, 0)",
    "lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, e))",
    "lax.cond(True, lambda: 1.0, lambda: 2.0)", "lax.cond(b, lambda x: x, lambda x: x, e)",
    "lax.cond(bv, lambda x: x, lambda x: x, s)", "lax.cond(b, lambda x: x, lambda x: v, s)",
    "lax.cond(b, lambda x: x, lambda x: x.astype(jnp.int32), s)",
    "lax.cond(i, lambda: s, lambda: s)", "lax.cond(s, lambda: s, lambda: s)",
    "lax.cond(be, lambda: s, lambda: s)", "lax.cond(b, lambda: (), lambda: ())",
    "lax.cond(b, lambda: 1, lambda: 1.0)", "lax.cond(b, lambda x: x)",
    "lax.switch(5, [lambda x: x + 1, lambda x: x - 1], s)",
    "lax.switch(-1, [lambda x: x + 1, lambda x: x - 1], s)",
    "lax.switch(0, [], s)", "lax.switch(s, [lambda x: x], s)", "lax.switch(iv, [lambda x: x], s)",
    "lax.switch(i, [lambda: e, lambda: e])", "lax.switch(0, [lambda x: x, lambda x: v], s)",
    "lax.switch(jnp.int32(1), (lambda: (), lambda: ()))",
    "lax.map(lambda x: x * 2, e)", "lax.map(lambda x: x * 2, s)", "lax.map(lambda x: x, ())",
    "lax.map(lambda x: x.sum(), e2)", "lax.map(lambda x: x * 2, v, batch_size=2)",
    "lax.map(lambda x: x * 2, e, batch_size=2)", "lax.map(lambda x: x * 2, v, batch_size=0)",
    "lax.map(lambda x: x[0] + x[1], (v, e))",
    "lax.associative_scan(lax.add, e)", "lax.associative_scan(lax.add, s)",
    "lax.associative_scan(lax.add, v, axis=1)", "lax.associative_scan(lax.add, v, reverse=True)",
    "lax.associative_scan(lax.add, v, axis=-1)", "lax.associative_scan(lax.add, (v, e))",
    "lax.associative_scan(lax.add, e2, axis=1)", "lax.associative_scan(lax.add, ())",
    "lax.custom_root(lambda x: x - 2.0, 0.0, lambda f, x0: x0 + 2.0, lambda g, y: y)",
    "lax.custom_linear_solve(lambda x: 2.0 * x, v, lambda mv, b: b / 2.0)",
    "lax.custom_linear_solve(lambda x: 2.0 * x, e, lambda mv, b: b / 2.0)",
    "lax.optimization_barrier(())", "lax.optimization_barrier((s, e))",
    "lax.stop_gradient((s, e, ()))", "lax.stop_gradient(1)",
    # collectives outside a mapped axis
    "lax.psum(s, 'i')", "lax.axis_index('i')", "lax.pmax(e, 'i')", "lax.psum(s, ())",
    "lax.psum((), 'i')", "lax.all_gather(s, 'i')", "lax.ppermute(s, 'i', [])",
    "lax.axis_size('i')",
]  # fmt: skip

LINALG = [
    *(f"la.norm({x}{o})" for x in ("e", "ee", "e3", "s", "v", "m", "eb")
      for o in ("", ", ord=2", ", ord=1", ", ord=jnp.inf", ", ord='fro'", ", ord='nuc'",
                ", ord=0", ", ord=-1", ", axis=(0, 1)", ", axis=2", ", axis=0")),
    *(f"la.{f}({x})" for f in ("matrix_norm", "vector_norm")
      for x in ("e", "ee", "eb", "s", "v", "m")),
    "la.matrix_norm(ee, ord=2)", "la.matrix_norm(ee, ord='nuc')", "la.vector_norm(e, ord=0)",
    "la.vector_norm(e, ord=-jnp.inf)", "la.vector_norm(e, ord=jnp.inf)",
    "la.vector_norm(v, axis=1)", "la.vector_norm(m, axis=(0, 1), ord=3)",
    "la.matrix_power(ee, 0)", "la.matrix_power(m, -1)", "la.matrix_power(m, 0)",
    "la.matrix_power(eb, 3)", "la.matrix_power(v, 2)", "la.matrix_power(m23, 2)",
    "la.matrix_power(m, 1.5)", "la.matrix_power(s, 2)",
    "la.det(ee)", "la.det(eb)", "la.slogdet(ee)", "la.slogdet(eb)", "la.det(jnp.ones((1, 1)))",
    "la.inv(ee)", "la.inv(eb)", "la.pinv(e3)", "la.pinv(ee)", "la.pinv(s)", "la.pinv(v)",
    "la.solve(ee, e)", "la.solve(m, v)", "la.solve(ee, ee)", "la.solve(eb, eb)",
    "la.solve(m, jnp.ones(2))", "la.solve(m, jnp.ones((2, 2, 2)))", "la.solve(m23, v)",
    "la.solve(eb, jnp.zeros((0, 2)))", "la.solve(s, s)",
    "la.lstsq(e3, v)", "la.lstsq(ee, e)", "la.lstsq(m, v)", "la.lstsq(m23, jnp.ones(2))",
    "la.lstsq(s, s)",
    "la.matrix_rank(ee)", "la.matrix_rank(eb)", "la.matrix_rank(e3)", "la.matrix_rank(s)",
    "la.matrix_rank(v)",
    "la.cond(ee)", "la.cond(m)", "la.cond(m, 'fro')", "la.cond(m23)", "la.cond(eb)",
    "la.tensorinv(ee)", "la.tensorinv(jnp.eye(4).reshape(4, 2, 2), ind=1)",
    "la.tensorinv(m23)", "la.tensorinv(m, ind=0)",
    "la.tensorsolve(m, jnp.ones(2))", "la.tensorsolve(ee, e)", "la.tensorsolve(m, v)",
    "la.multi_dot([v])", "la.multi_dot([])", "la.multi_dot([v, v])", "la.multi_dot([e, e])",
    "la.multi_dot([m, v, v])", "la.multi_dot([m23, jnp.ones((3, 2)), m])", "la.multi_dot([s, s])",
    "la.cross(v, e)", "la.cross(v, v)", "la.cross(e2, e2)", "la.cross(m, m)",
    "la.cross(jnp.ones(2), jnp.ones(2))", "la.cross(v, v, axis=1)",
    "la.vecdot(s, s)", "la.vecdot(e, e)", "la.vecdot(v, e)", "la.vecdot(v, v, axis=1)",
    "la.vecdot(m23, v)",
    "la.outer(e, v)", "la.outer(s, s)", "la.outer(m, v)",
    "la.trace(s)", "la.trace(ee)", "la.trace(v)", "la.trace(eb)", "la.trace(m, offset=5)",
    "la.diagonal(s)", "la.diagonal(ee)", "la.diagonal(v)", "la.diagonal(eb, offset=1)",
    "la.matrix_transpose(s)", "la.matrix_transpose(v)", "la.matrix_transpose(eb)",
    "la.matmul(s, s)", "la.matmul(e, e)", "la.matmul(v, m)", "la.matmul(eb, eb)",
    "la.tensordot(e, e, 1)", "la.tensordot(v, v, 2)", "la.tensordot(s, s, 0)",
    "la.tensordot(m, m, ((0,), (2,)))",
    "la.eigh(m, UPLO='X')", "la.eigvalsh(m, 'X')", "la.cholesky(m, upper=True)",
    "la.qr(e3, mode='complete')", "la.qr(e3, mode='r')", "la.qr(m, mode='bogus')",
    "la.svd(e3, full_matrices=False)", "la.svd(ee, compute_uv=False)", "la.svd(e3)",
    "la.svdvals(e3)",
]  # fmt: skip

FFT = [
    *(f"fft.{f}({x})" for f in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
      for x in ("e", "s", "v", "c", "i", "e2", "e3")),
    *(f"fft.{f}({x})" for f in ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn",
                                "irfftn")
      for x in ("e", "s", "v", "e2", "ee", "m", "r3")),
    "fft.fft(v, n=0)", "fft.fft(v, n=-1)", "fft.fft(v, n=5)", "fft.fft(v, axis=1)",
    "fft.fft(v, axis=-2)", "fft.fft(v, norm='bogus')", "fft.fft(v, norm='ortho')",
    "fft.irfft(v, n=0)", "fft.irfft(v, n=1)", "fft.irfft(jnp.ones(1))", "fft.rfft(e, n=4)",
    "fft.rfft(v, n=1)", "fft.hfft(v, n=0)", "fft.hfft(jnp.ones(1))", "fft.ihfft(v, n=0)",
    "fft.fftn(m, s=(0, 2))", "fft.fftn(m, axes=(0, 0))", "fft.fftn(m, axes=(2,))",
    "fft.fftn(m, s=(2,), axes=(0, 1))", "fft.fftn(s, axes=())", "fft.fftn(m, axes=())",
    "fft.fft2(v, axes=(0, 1))", "fft.rfftn(m, s=(1, 1))", "fft.irfftn(m, s=(0, 2))",
    "fft.fftfreq(0)", "fft.fftfreq(-1)", "fft.fftfreq(3, d=0.0)", "fft.fftfreq(1)",
    "fft.fftfreq(4, d=v)", "fft.fftfreq(2.5)", "fft.fftfreq(i)",
    "fft.rfftfreq(0)", "fft.rfftfreq(-1)", "fft.rfftfreq(1)", "fft.rfftfreq(3, d=0.0)",
    "fft.rfftfreq(4, d=v)",
    "fft.fftshift(s)", "fft.fftshift(e)", "fft.ifftshift(s)", "fft.ifftshift(e)",
    "fft.fftshift(v, axes=1)", "fft.fftshift(m23, axes=(0, 1))", "fft.ifftshift(v, axes=-2)",
]  # fmt: skip

NN = [
    *(f"nn.{f}({x}{a})" for f in ("softmax", "log_softmax", "logsumexp", "standardize",
                                  "logmeanexp")
      for x in ("e", "e2", "s", "v", "i", "b", "ee")
      for a in ("", ", axis=1", ", axis=-1", ", axis=0", ", axis=(0, 1)")),
    "nn.softmax(v, where=bv)", "nn.softmax(e, where=be)", "nn.softmax(v, where=jnp.zeros(3, bool))",
    "nn.log_softmax(v, where=jnp.zeros(3, bool))", "nn.softmax(v, where=bv[:2])",
    "nn.logsumexp(v, b=v)", "nn.logsumexp(e, b=e)", "nn.logsumexp(v, return_sign=True)",
    "nn.logsumexp(v, b=-v, return_sign=True)", "nn.logsumexp(e, return_sign=True)",
    "nn.logsumexp(v, axis=1)", "nn.logsumexp(v, b=m)",
    "nn.one_hot(iv, 3)", "nn.one_hot(iv, 0)", "nn.one_hot(iv, -1)", "nn.one_hot(s, 3)",
    "nn.one_hot(ie, 3)", "nn.one_hot(i, 2)", "nn.one_hot(iv, 3, axis=0)", "nn.one_hot(iv, 3, axis=2)",
    "nn.one_hot(iv, 3, dtype=jnp.int8)", "nn.one_hot(iv, 2.5)", "nn.one_hot(iv, i)",
    "nn.one_hot(iv, 3, axis=-3)",
    "nn.glu(v)", "nn.glu(e)", "nn.glu(s)", "nn.glu(m23, axis=0)", "nn.glu(m, axis=2)",
    "nn.celu(s, alpha=0.0)", "nn.elu(i)", "nn.leaky_relu(e, 2.0)", "nn.gelu(s, approximate=False)",
    "nn.hard_tanh(i)", "nn.relu(b)", "nn.relu6(i)", "nn.squareplus(s, b=0.0)",
    "nn.log1mexp(jnp.float32(0))", "nn.log1mexp(jnp.float32(-1))", "nn.sparse_plus(e)",
    "nn.mish(b)", "nn.silu(i)", "nn.softplus(b)", "nn.sigmoid(i)", "nn.identity(e)",
    "nn.standardize(v, mean=s, variance=s)", "nn.standardize(v, epsilon=0.0, variance=0.0)",
    "nn.dot_product_attention(jnp.ones((1, 0, 2, 4)), jnp.ones((1, 0, 2, 4)), jnp.ones((1, 0, 2, 4)))",
    "nn.dot_product_attention(jnp.ones((0, 3, 2, 4)), jnp.ones((0, 3, 2, 4)), jnp.ones((0, 3, 2, 4)))",
    "nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 0, 2, 4)), jnp.ones((1, 0, 2, 4)))",
    "nn.dot_product_attention(jnp.ones((3, 2, 4)), jnp.ones((3, 2, 4)), jnp.ones((3, 2, 4)))",
    "nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 5)), jnp.ones((1, 3, 2, 4)))",
    "nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 1, 4)), jnp.ones((1, 3, 1, 4)))",
    "nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 3, 4)), jnp.ones((1, 3, 3, 4)))",
    "nn.dot_product_attention(jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 4)), jnp.ones((1, 3, 2, 4)), is_causal=True)",
]  # fmt: skip

SPECIAL = [
    "sp.logsumexp(e)", "sp.logsumexp(e2, axis=1)", "sp.logsumexp(e2, axis=0)", "sp.logsumexp(s, axis=0)",
    "sp.logsumexp(v, b=jnp.zeros(3))", "sp.logsumexp(v, axis=2)", "sp.logsumexp(v, b=e)",
    "sp.softmax(e)", "sp.softmax(e2, axis=1)", "sp.softmax(s)", "sp.log_softmax(e)",
    "sp.log_softmax(s, axis=0)", "sp.softmax(v, axis=1)",
    "sp.multigammaln(s, 0)", "sp.multigammaln(jnp.float32(3), 2)", "sp.multigammaln(e, 2)",
    "sp.multigammaln(jnp.float32(3), -1)", "sp.multigammaln(jnp.float32(3), 2.5)",
    "sp.bernoulli(0)", "sp.bernoulli(-1)", "sp.bernoulli(3)", "sp.bernoulli(i)",
    "sp.factorial(e)", "sp.factorial(jnp.float32(-1))", "sp.factorial(i, exact=True)",
    "sp.comb(e, e)", "sp.comb(i, 5)", "sp.comb(i, -1)", "sp.comb(i, 2, exact=True)",
    "sp.comb(i, 2, repetition=True)",
    "sp.bessel_jn(s, v=0)", "sp.bessel_jn(e, v=2)", "sp.bessel_jn(s, v=-1)", "sp.bessel_jn(s, v=2, n_iter=0)",
    "sp.sph_harm_y(jnp.int32(1), jnp.int32(1), s, s)", "sp.sph_harm_y(ie, ie, e, e)",
    "sp.sph_harm_y(jnp.int32(1), jnp.int32(1), s, s, n_max=0)",
    "sp.sph_harm_y(jnp.int32(2), jnp.int32(1), s, s, n_max=1)",
    "sp.sph_harm_y(iv, iv, v, e)",
    "sp.zeta(s, e)", "sp.zeta(jnp.float32(1))", "sp.zeta(jnp.float32(2))",
    "sp.polygamma(i, e)", "sp.polygamma(jnp.float32(1.5), s)", "sp.polygamma(jnp.int32(-1), s)",
    "sp.expn(i, e)", "sp.expn(jnp.int32(-1), s)", "sp.expn(s, s)",
    "sp.xlogy(jnp.float32(0), jnp.float32(0))", "sp.xlog1py(jnp.float32(0), jnp.float32(-1))",
    "sp.entr(jnp.float32(-1))", "sp.kl_div(e, e)", "sp.rel_entr(jnp.float32(0), jnp.float32(0))",
    "sp.gammainc(jnp.float32(0), jnp.float32(0))", "sp.gammaincc(e, s)",
    "sp.betainc(jnp.float32(0), jnp.float32(0), s)", "sp.boxcox(e, s)", "sp.boxcox(s, jnp.float32(0))",
    "sp.boxcox1p(s, e)", "sp.hyp1f1(e, e, e)", "sp.hyp2f1(s, s, s, e)", "sp.poch(s, e)",
    "sp.ndtri(jnp.float32(0))", "sp.ndtri(jnp.float32(1))", "sp.ndtri(jnp.float32(2))",
    "sp.log_ndtr(jnp.float32(-100))", "sp.log_ndtr(i)", "sp.erfinv(jnp.float32(-1))",
    "sp.logit(jnp.float32(0))", "sp.expit(i)", "sp.gammasgn(jnp.float32(-1))",
    "sp.gamma(jnp.float32(-1))", "sp.gamma(jnp.float32(0))", "sp.loggamma(jnp.float32(-0.5))",
    "sp.owens_t(e, s)", "sp.spence(jnp.float32(-1))", "sp.sici(e)", "sp.fresnel(e)", "sp.wofz(e)",
    "sp.wofz(c)", "sp.exp1(jnp.float32(0))", "sp.expi(jnp.float32(0))",
    "sp.i0(b)", "sp.i1e(e2)", "sp.dawsn(i)", "sp.erfcx(jnp.float32(-100))",
    "sp.beta(e, s)", "sp.betaln(s, e)",
]  # fmt: skip

SCIPY_LINALG = [
    "sl.block_diag()", "sl.block_diag(s, v, m)", "sl.block_diag(e)", "sl.block_diag(ee, m)",
    "sl.block_diag(r3)", "sl.block_diag(e2, e3)",
    "sl.toeplitz(e)", "sl.toeplitz(s)", "sl.toeplitz(v)", "sl.toeplitz(v, e)", "sl.toeplitz(m)",
    "sl.hankel(e)", "sl.hankel(s)", "sl.hankel(v, e)", "sl.hankel(m)",
    "sl.circulant(e)", "sl.circulant(s)", "sl.circulant(m)",
    "sl.companion(e)", "sl.companion(v)", "sl.companion(s)", "sl.companion(jnp.array([0.0, 1.0]))",
    "sl.companion(jnp.array([1.0]))",
    "sl.leslie(v, e)", "sl.leslie(v, jnp.ones(2))", "sl.leslie(e, e)", "sl.leslie(jnp.ones(1), e)",
    "sl.fiedler(e)", "sl.fiedler(s)", "sl.fiedler_companion(e)", "sl.fiedler_companion(jnp.ones(1))",
    "sl.convolution_matrix(v, 0)", "sl.convolution_matrix(e, 2)", "sl.convolution_matrix(v, 2, 'same')",
    "sl.convolution_matrix(v, 2, 'valid')", "sl.convolution_matrix(v, 2, 'bogus')",
    "sl.expm(ee)", "sl.expm(s)", "sl.expm(eb)", "sl.expm(v)", "sl.expm(m23)",
    "sl.expm_frechet(ee, ee)", "sl.expm_frechet(m, m23)",
    "sl.sqrtm(ee)", "sl.sqrtm(s)", "sl.sqrtm(m23)",
    "sl.funm(ee, jnp.exp)", "sl.funm(m, jnp.exp)", "sl.funm(s, jnp.exp)",
    "sl.lu(ee)", "sl.lu(e3)", "sl.lu(eb)", "sl.lu(s)", "sl.lu(m, permute_l=True)",
    "sl.lu_factor(ee)", "sl.lu_factor(e3)", "sl.lu_solve(sl.lu_factor(ee), e)",
    "sl.lu_solve(sl.lu_factor(m), v)",
    "sl.qr(e3)", "sl.qr(ee, mode='economic')", "sl.qr(e3, mode='r')", "sl.qr(m, pivoting=True)",
    "sl.qr(m, mode='bogus')", "sl.qr_multiply(m, v)", "sl.qr_multiply(m, jnp.ones(2))",
    "sl.schur(ee)", "sl.schur(e3)", "sl.hessenberg(ee)", "sl.rsf2csf(ee, ee)",
    "sl.cho_factor(ee)", "sl.cho_solve((ee, False), e)", "sl.cho_solve((m, False), v)",
    "sl.cho_solve(m, v)",
    "sl.solve_triangular(ee, e)", "sl.solve_triangular(m, v)", "sl.solve_triangular(m, jnp.ones(2), trans=3)",
    "sl.solve_triangular(e3, e)",
    "sl.solve_sylvester(ee, ee, ee)", "sl.solve_sylvester(m, m, m23)",
    "sl.solve(ee, e)", "sl.solve(m, v)", "sl.solve(m, jnp.ones(2), assume_a='bogus')",
    "sl.det(ee)", "sl.inv(ee)", "sl.inv(e3)", "sl.cholesky(ee)", "sl.eigh(ee)",
    "sl.eigh(m, m23)", "sl.eigh(m, eigvals_only=True, subset_by_index=(0, 0))",
    "sl.eigh_tridiagonal(e, e)", "sl.eigh_tridiagonal(v, jnp.ones(2), eigvals_only=True)",
    "sl.eigh_tridiagonal(v, v, eigvals_only=True)", "sl.eigh_tridiagonal(s, e, eigvals_only=True)",
    "sl.eigh_tridiagonal(jnp.ones(1), e, eigvals_only=True)",
    "sl.svd(e3)", "sl.svd(ee, compute_uv=False)", "sl.polar(ee)", "sl.polar(e3)", "sl.polar(m, side='bogus')",
    *(f"sl.{f}({n})" for f in ("hadamard", "pascal", "hilbert", "dft", "helmert", "invhilbert",
                                "invpascal")
      for n in ("0", "1", "-1", "3", "2.5")),
    "sl.pascal(3, kind='lower')", "sl.pascal(3, kind='bogus')", "sl.dft(3, scale='sqrtn')",
    "sl.helmert(3, full=True)",
]  # fmt: skip

SIGNAL = [
    *(f"sig.{f}({x}, {y}{a})" for f in ("convolve", "correlate", "fftconvolve")
      for x, y in [("e", "v"), ("v", "e"), ("s", "s"), ("v", "m"), ("e", "e"), ("v", "v"),
                   ("m", "m"), ("iv", "iv")]
      for a in ("", ", mode='same'", ", mode='valid'")),
    "sig.convolve(v, v, mode='bogus')", "sig.convolve(v, v, method='bogus')",
    "sig.convolve(v, v, method='fft')", "sig.correlate(v, v, method='fft')",
    "sig.fftconvolve(m, m, axes=1)", "sig.fftconvolve(m, m, axes=2)",
    *(f"sig.{f}({x}, {y}{a})" for f in ("convolve2d", "correlate2d")
      for x, y in [("v", "v"), ("m", "m"), ("ee", "m"), ("m", "ee"), ("s", "s"), ("e2", "m")]
      for a in ("", ", mode='same'", ", mode='valid'")),
    "sig.convolve2d(m, m, boundary='wrap')", "sig.convolve2d(m, m, fillvalue=1.0)",
    "sig.detrend(e)", "sig.detrend(s)", "sig.detrend(v)", "sig.detrend(v, type='constant')",
    "sig.detrend(v, type='bogus')", "sig.detrend(e2, axis=1)", "sig.detrend(v, axis=1)",
    "sig.detrend(jnp.ones(1))", "sig.detrend(v, bp=[1])",
    "sig.stft(e)", "sig.stft(s)", "sig.stft(jnp.ones(8), nperseg=4)",
    "sig.stft(jnp.ones(8), nperseg=0)", "sig.stft(jnp.ones(8), nperseg=4, noverlap=4)",
    "sig.stft(jnp.ones(8), nperseg=16)", "sig.stft(e2, nperseg=2)",
    "sig.welch(e)", "sig.welch(s)", "sig.welch(jnp.ones(8), nperseg=4)",
    "sig.welch(jnp.ones(8), nperseg=4, average='median')", "sig.welch(jnp.ones(8), nperseg=4, average='bogus')",
    "sig.csd(e, e)", "sig.csd(jnp.ones(8), jnp.ones(8), nperseg=4)", "sig.csd(jnp.ones(8), None, nperseg=4)",
    "sig.csd(jnp.ones(8), jnp.ones(6), nperseg=4)",
    "sig.istft(jnp.ones((3, 5), jnp.complex64), nperseg=4)", "sig.istft(jnp.ones(5, jnp.complex64))",
    "sig.istft(jnp.ones((3, 0), jnp.complex64), nperseg=4)",
]  # fmt: skip

STATS = [
    "st.mode(e)", "st.mode(s)", "st.mode(e2)", "st.mode(e2, axis=1)", "st.mode(v, axis=1)",
    "st.mode(m, axis=None)", "st.mode(iv)", "st.mode(v, keepdims=True)",
    "st.rankdata(e)", "st.rankdata(s)", "st.rankdata(e2, axis=1)", "st.rankdata(m, axis=None)",
    "st.rankdata(v, method='bogus')", "st.rankdata(v, axis=1)", "st.rankdata(v, nan_policy='omit')",
    *(f"st.rankdata(m, method='{mm}')" for mm in ("average", "min", "max", "dense", "ordinal")),
    "st.sem(e)", "st.sem(s)", "st.sem(e2)", "st.sem(e2, axis=1)", "st.sem(v, ddof=3)",
    "st.sem(v, axis=1)", "st.sem(v, nan_policy='omit')", "st.sem(v, nan_policy='raise')",
    "st.norm.logpdf(v, loc=e)", "st.norm.pdf(s, scale=0.0)", "st.norm.cdf(e, loc=v)",
    "st.multivariate_normal.logpdf(v, e, ee)", "st.multivariate_normal.logpdf(e, e, ee)",
    "st.multivariate_normal.logpdf(v, v, m)", "st.multivariate_normal.logpdf(s, s, s)",
    "st.multivariate_normal.pdf(jnp.ones(2), jnp.zeros(2), m)",
    "st.dirichlet.logpdf(e, e)", "st.dirichlet.logpdf(v, v)", "st.dirichlet.pdf(jnp.array([0.5, 0.5]), jnp.ones(2))",
    "st.dirichlet.logpdf(jnp.array([0.5, 0.5]), jnp.ones(3))",
    "st.multinomial.logpmf(iv, 3, v)", "st.multinomial.logpmf(ie, 0, e)",
    "st.multinomial.pmf(jnp.array([1, 2]), 3, jnp.array([0.5, 0.5]))",
    "st.gaussian_kde(e)", "st.gaussian_kde(v).evaluate(e)", "st.gaussian_kde(v).evaluate(s)",
    "st.gaussian_kde(v)(v)", "st.gaussian_kde(jnp.ones(3))(v)",
]  # fmt: skip

RANDOM = [
    *(f"random.{f}(K, {shp})" for f in ("normal", "uniform", "bits", "cauchy", "exponential",
                                        "gumbel", "laplace", "logistic", "rademacher",
                                        "maxwell", "double_sided_maxwell", "orthogonal",
                                        "bernoulli")
      for shp in ("()", "(0,)", "(0, 3)", "(2, 0)") if f != "bernoulli" and f != "orthogonal"),
    *(f"random.normal(k, {shp}, {dt})" for shp in ("()", "(0,)") for dt in ("jnp.float16", "jnp.int32")),
    *(f"random.{f}(K, {a}, {shp})" for f in ("gamma", "poisson", "t", "chisquare", "pareto",
                                             "rayleigh", "weibull_min", "wald", "loggamma",
                                             "geometric", "generalized_normal", "lognormal",
                                             "bernoulli")
      for a, shp in [("s", "()"), ("s", "(0,)"), ("e", "None"), ("v", "(0,)"), ("v", "(3,)"),
                     ("v", "(2,)"), ("e", "(0, 0)")]),
    "random.weibull_min(K, 1.0, 1.0, ())", "random.weibull_min(K, e, e, (0,))",
    "random.weibull_min(K, 1.0, 1.0, (0,))",
    "random.beta(K, s, s, ())", "random.beta(K, e, e)", "random.beta(K, v, s, (0,))",
    "random.beta(K, v, e)",
    "random.f(K, s, s, ())", "random.f(K, e, s)", "random.binomial(K, e, e)",
    "random.binomial(K, jnp.float32(5), s, ())", "random.binomial(K, jnp.float32(5), s, (0,))",
    "random.binomial(K, jnp.float32(5), v)",
    "random.triangular(K, 0.0, s, 1.0, ())", "random.triangular(K, e, e, e)",
    "random.truncated_normal(K, -1.0, 1.0, ())", "random.truncated_normal(K, -1.0, 1.0, (0,))",
    "random.truncated_normal(K, e, e)", "random.truncated_normal(K, 1.0, -1.0, ())",
    "random.uniform(K, (), minval=1.0, maxval=0.0)", "random.uniform(K, (0,), minval=v)",
    "random.uniform(K, (3,), minval=e)", "random.uniform(K, (), jnp.int32)",
    "random.uniform(K, (-1,))", "random.normal(K, (2.0,))", "random.normal(K, 3)",
    "random.randint(K, (), 0, 0)", "random.randint(K, (0,), 0, 10)", "random.randint(K, (), 5, 2)",
    "random.randint(K, (), 0, 10, jnp.float32)", "random.randint(K, (3,), e, 10)",
    "random.randint(K, (), 0, 2**40)", "random.randint(K, (2,), v, 10)",
    "random.bernoulli(K, 0.5, ())", "random.bernoulli(K, 0.5, (0,))", "random.bernoulli(K, e)",
    "random.bernoulli(K, v, (2,))",
    "random.categorical(K, e)", "random.categorical(K, e2)", "random.categorical(K, e3)",
    "random.categorical(K, e3, axis=0)", "random.categorical(K, s)", "random.categorical(K, v)",
    "random.categorical(K, v, shape=(0,))", "random.categorical(K, v, axis=1)",
    "random.categorical(K, m, shape=(3,))", "random.categorical(K, v, replace=False, shape=(3,))",
    "random.categorical(K, v, replace=False, shape=(4,))",
    "random.choice(K, 0, ())", "random.choice(K, 0, (0,))", "random.choice(K, e, (0,))",
    "random.choice(K, 3, (0,))", "random.choice(K, 3, (4,), replace=False)",
    "random.choice(K, 3, ())", "random.choice(K, v, ())", "random.choice(K, s, ())",
    "random.choice(K, -1)", "random.choice(K, v, (2,), p=e)", "random.choice(K, v, (2,), p=v)",
    "random.choice(K, e2, (0,))", "random.choice(K, m, (1,), axis=1)", "random.choice(K, m, (1,), axis=2)",
    "random.permutation(K, 0)", "random.permutation(K, e)", "random.permutation(K, s)",
    "random.permutation(K, -1)", "random.permutation(K, m, axis=1)", "random.permutation(K, v, axis=1)",
    "random.permutation(K, m, independent=True)", "random.permutation(K, 2.5)",
    "random.split(K, 0)", "random.split(K, -1)", "random.split(K, (2, 0))", "random.split(k, 0)",
    "random.split(K, 2.0)", "random.split(v)", "random.split(jnp.zeros(3, jnp.uint32))",
    "random.split(k[None], 2)",
    "random.fold_in(K, s)", "random.fold_in(K, ie)", "random.fold_in(K, 2**40)", "random.fold_in(k, -1)",
    "random.key_data(k)", "random.key_data(K)", "random.key_data(s)", "random.key(s)",
    "random.key(2**40)", "random.key(-1)", "random.key(ie)", "random.PRNGKey(ie)", "random.PRNGKey(-1)",
    "random.key_dtype(k)", "random.wrap_key_data(jnp.zeros(2, jnp.uint32))",
    "random.wrap_key_data(jnp.zeros(3, jnp.uint32))", "random.wrap_key_data(jnp.zeros((0, 2), jnp.uint32))",
    "random.clone(k)",
    "random.dirichlet(K, e)", "random.dirichlet(K, jnp.ones((0, 3)))", "random.dirichlet(K, v, (0,))",
    "random.dirichlet(K, s)", "random.dirichlet(K, jnp.ones(3), ())", "random.dirichlet(K, jnp.ones(3), (2,))",
    "random.multinomial(K, 3, jnp.array([0.5, 0.5]))", "random.multinomial(K, 3, e)",
    "random.multinomial(K, 0, jnp.array([0.5, 0.5]))", "random.multinomial(K, 3, jnp.array([0.5, 0.5]), shape=(0, 2))",
    "random.multinomial(K, 3, s)",
    "random.multivariate_normal(K, e, ee)", "random.multivariate_normal(K, jnp.zeros(2), m)",
    "random.multivariate_normal(K, jnp.zeros(2), m, (0,))", "random.multivariate_normal(K, v, m)",
    "random.multivariate_normal(K, jnp.zeros(2), m, method='bogus')",
    "random.multivariate_normal(K, s, s)",
    "random.orthogonal(K, 0)", "random.orthogonal(K, 1)", "random.orthogonal(K, 2, (0,))",
    "random.orthogonal(K, -1)",
    "random.ball(K, 0)", "random.ball(K, 2, 1.0, (0,))", "random.ball(K, 2, 0.0)", "random.ball(K, 2, -1.0)",
    "random.ball(K, 1)",
    "random.rademacher(K, (), jnp.float32)", "random.rademacher(K, (2,), jnp.int8)",
    "random.bits(K, (), jnp.uint8)", "random.bits(K, (0,), jnp.uint64)", "random.bits(K, (), jnp.float32)",
    "random.generalized_normal(K, 0.0, ())", "random.generalized_normal(K, -1.0, ())",
    "random.gamma(K, 0.0, ())", "random.gamma(K, -1.0, ())", "random.poisson(K, -1.0, ())",
    "random.poisson(K, 0.0, ())", "random.poisson(K, s, (), jnp.float32)",
    "random.geometric(K, 0.0, ())", "random.geometric(K, 1.0, ())",
]  # fmt: skip

ISSUE24 = [
    # issue 24 section 2: crashes where JAX returns a value, and the other way round
    "nn.softmax(e)", "nn.log_softmax(e)", "nn.softmax(e2)", "nn.log_softmax(e2, axis=0)",
    "jax.eval_shape(jax.jacfwd(jnp.sin), jax.ShapeDtypeStruct((10**6,), jnp.float32))",
    "jax.eval_shape(lambda k: random.permutation(k, 10**12), random.key(0))",
    "opt_step(optax.adam(0.1, nesterov=True), v)",
    "opt_step(optax.adam(0.1, nesterov=True), (s, e))",
    "optax.exponential_decay(1.0, 0, 0.5)(3)",
    "optax.exponential_decay(1.0, 0, 0.5, transition_begin=2)(3)",
    "jax.linear_transpose(lambda x: x * 2, jnp.int32(1))(jnp.int32(3))",
    "jax.grad(sp.zeta)(jnp.float32(3), jnp.float32(2))",
    "jax.grad(sp.zeta, 1)(jnp.float32(3), jnp.float32(2))",
    "nn.one_hot(iv, -1)", "jnp.zeros(3, bool).at[0].add(True)",
    "jax.vmap(lambda x: lax.ppermute(x, 'i', [(0, 1)]), axis_name='i')(v)",
    "jax.vmap(jax.grad(lambda x: lax.pmax(x, 'i')), axis_name='i')(v)",
    "jax.grad(lambda x: lax.nextafter(x, 1.0))(s)",
    "jnp.concatenate([s, s])", "jnp.vecdot(s, s)", "jnp.std(s, axis=0)", "lax.dot(v, m)",
    # transformations of the empty and the 0-d
    "jax.vmap(jnp.sin)(e)", "jax.vmap(jnp.sin)(s)", "jax.vmap(lambda x: x, in_axes=1)(v)",
    "jax.vmap(lambda x, y: x + y)(v, e)", "jax.vmap(lambda x: x)(())", "jax.vmap(jnp.sum)(e2)",
    "jax.vmap(lambda x: x, out_axes=2)(v)", "jax.vmap(lambda x: x, in_axes=-2)(m23)",
    "jax.grad(jnp.sum)(e)", "jax.grad(lambda x: x)(v)", "jax.grad(lambda x: x.sum())(i)",
    "jax.grad(lambda x: x)(e)", "jax.jacfwd(jnp.sin)(e)", "jax.jacrev(jnp.sin)(e)",
    "jax.jacfwd(jnp.sum)(e2)", "jax.hessian(jnp.sum)(e)", "jax.jacrev(lambda x: x)(s)",
    "jax.jvp(jnp.sin, (e,), (e,))", "jax.jvp(jnp.sin, (s,), (v,))", "jax.jvp(jnp.sin, (s,), (i,))",
    "jax.vjp(jnp.sin, e)[1](e)", "jax.vjp(jnp.sin, s)[1](v)",
    "jax.jit(lambda x: x)(())", "jax.jit(jnp.sum)(e)", "jax.jit(lambda x: x[0])(e)",
    "jax.linearize(jnp.sin, e)[1](e)", "jax.eval_shape(jnp.sum, e)",
    "jax.eval_shape(lambda x: x @ x, v)", "jax.eval_shape(lambda x: x @ x, e2)",
    "jax.hessian(lambda x: (x ** 3).sum())(e)",
]  # fmt: skip


def opt_step(tx: Any, params: Any) -> Any:
    """The updates of one step of the optimizer ``tx`` with the gradient ``params``."""
    return tx.update(params, tx.init(params), params)[0]


def environment(top: ModuleType, mods: dict[str, Any], optim: Any) -> dict[str, Any]:
    """The names the expressions use: ``top`` is ``jax`` or ``trellax``, ``mods`` maps each
    :data:`NAMESPACES` key to its module, ``optim`` is optax or ``trellax.optim``."""
    env: dict[str, Any] = {"jax": top, "jnp": top.numpy, "optax": optim, "opt_step": opt_step}
    env.update({SHORT[n]: mod for n, mod in mods.items()})
    for tag, expr in INPUTS.items():
        env[tag] = eval(expr, env)
    return env


def arity(fn: Any) -> int:
    """The number of required positional parameters of ``fn`` (1 when unknown)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return max(1, sum(p.kind in kinds and p.default is inspect.Parameter.empty for p in params))


def public(mod: Any) -> list[str]:
    """The public functions of ``mod`` (not classes)."""
    return sorted(
        n
        for n in dir(mod)
        if not n.startswith("_")
        and callable(getattr(mod, n))
        and not isinstance(getattr(mod, n), type)
    )


def auto_cases(ns: str, mod: Any) -> list[str]:
    """Calls of every public function of ``mod`` on the :data:`ARGS` of its arity."""
    short = SHORT[ns]
    out = []
    for name in public(mod):
        if name in AUTO_SKIP.get(ns, ()):
            continue
        k = arity(getattr(mod, name))
        sets = ARGS.get(k, [("s",) * k, ("e",) * k])
        if ns in ("linalg", "scipy_linalg", "fft"):
            sets = sets + MATRIX_ARGS.get(k, [])
        if ns == "random":
            sets = (
                [("K", *a) for a in ARGS.get(k - 1, [("s",) * (k - 1)])]
                if k > 1
                else [("K",), ("k",)]
            )
        out += [f"{short}.{name}({', '.join(a)})" for a in sets]
    return out


def stats_cases(st: Any) -> list[str]:
    """The distributions of ``scipy.stats``: each method on 0-d, empty and mismatched inputs."""
    out = []
    for dist in sorted(n for n in dir(st) if not n.startswith("_")):
        mod = getattr(st, dist)
        if not isinstance(mod, ModuleType) or dist in ("multivariate_normal", "dirichlet"):
            continue
        for f in _DIST:
            if not hasattr(mod, f):
                continue
            k = arity(getattr(mod, f))
            for a in [("s",) * k, ("e",) * k, ("v",) + ("e",) * (k - 1)]:
                out.append(f"st.{dist}.{f}({', '.join(a)})")
    return out


HAND = {
    "lax": LAX,
    "linalg": LINALG,
    "fft": FFT,
    "nn": NN,
    "special": SPECIAL,
    "scipy_linalg": SCIPY_LINALG,
    "signal": SIGNAL,
    "stats": STATS,
    "random": RANDOM,
    "issue24": ISSUE24,
}


def all_cases(mods: dict[str, Any]) -> dict[str, list[str]]:
    """Every case, by namespace: the automatic sweep, then the hand-written lists."""
    out: dict[str, list[str]] = {}
    for ns, hand in HAND.items():
        cases = auto_cases(ns, mods[ns]) if ns in mods else []
        if ns == "stats":
            cases += stats_cases(mods[ns])
        out[ns] = list(dict.fromkeys(cases + hand))
    return out


def _text(x: Any) -> str:
    return str(x.item()) if hasattr(x, "item") else str(x)


def leaf(v: Any) -> str:
    """One result leaf: ``"shape dtype w=0|1 = v1 v2 ..."`` for an array, ``"type:value"``
    for a Python scalar, the type name otherwise."""
    if isinstance(v, (bool, int, float, complex, str)) or v is None:
        return f"{type(v).__name__}:{v}"
    if not (hasattr(v, "shape") and hasattr(v, "dtype")):
        return "callable" if callable(v) else type(v).__name__
    head = f"{tuple(v.shape)} {v.dtype} w={int(bool(getattr(v, 'weak_type', False)))}"
    if type(v).__name__ == "ShapeDtypeStruct" or str(v.dtype).startswith("key"):
        return head
    a = np.asarray(v)
    if a.size > MAX_VALUES:
        f = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
        return f"{head} sum={_text(np.nansum(f))} nan={int(np.isnan(f).sum())}"
    return f"{head} = " + " ".join(_text(x) for x in a.ravel())


def leaves(v: Any) -> list[Any]:
    """The leaves of a result made of tuples, lists and dicts (namedtuples included)."""
    if isinstance(v, (tuple, list)):
        return [x for y in v for x in leaves(y)]
    if isinstance(v, dict):
        return [x for k in sorted(v, key=str) for x in leaves(v[k])]
    return [v]


def error_name(e: BaseException) -> str:
    """``"ERR <class>"``, with the nearest built-in base after a ``:`` for other classes."""
    name = type(e).__name__
    for base in type(e).__mro__:
        if base.__module__ == "builtins":
            return f"ERR {name}" if base is type(e) else f"ERR {name}:{base.__name__}"
    return f"ERR {name}"


def describe(env: dict[str, Any], expr: str) -> str:
    """The recorded outcome of ``expr``: its leaves joined by ``" | "``, or its error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = eval(expr, env)
            return " | ".join(leaf(x) for x in leaves(v)) or "empty"
    except Exception as e:  # the error class is the recorded value
        return error_name(e)
