"""Generate golden data for ``vmap`` from a real JAX.

Run from the repository root inside a virtual environment that has ``jax``, ``numpy`` and
``ml_dtypes`` installed::

    python tools/gen_golden_vmap.py

The output is ``tests/golden/vmap.json``; ``tests/test_golden_vmap.py`` evaluates the same source
strings with trellax and never imports JAX. This script must not import trellax. It takes a few
seconds. The output is deterministic.

Layout: ``{"meta": {...versions...}, "arrays": {NAME: array}, "cases": [case, ...]}``.

* ``arrays``: the named inputs the sources use, each ``{"dtype", "shape", "values"}`` (values as
  nested lists; NaN and infinities as JSON's ``NaN``/``Infinity``). Every one is a strong array.
* A case is ``{"name", "group", "src", "result"}`` (plus ``"config": {"x64", "promotion"}`` for
  cases run with ``jax_enable_x64`` or another promotion mode; the arrays stay as listed): ``src`` is a Python expression evaluated with
  the arrays bound by name and with ``vmap``, ``jit``, ``grad``, ``value_and_grad``, ``jvp``, ``custom_jvp``, ``custom_vjp``,
  ``lax`` (``jax.lax``), ``xnp`` (``jax.numpy``) and ``np`` (NumPy); the trellax side binds the
  same names to its own functions. ``result`` is either ``{"outputs": [leaf, ...]}`` -- the
  output pytree's leaves in flattening order, each ``{"dtype", "weak_type", "shape", "values"}``
  -- or ``{"error": class name, "message": str}``.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
import warnings
from pathlib import Path
from typing import Any

import numpy as np

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "vmap.json"


def _values(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    n = math.prod(shape)
    k = np.arange(n)
    if dtype == "bool":
        v: np.ndarray = k % 3 == 0
    elif dtype.startswith(("int", "uint")):
        v = (k * 5) % 7 - (0 if dtype.startswith("u") else 3)
    else:
        v = ((k * 7) % 11 - 5) / 4.0  # quarters in [-1.25, 1.25]: exact in every float dtype
    return v.reshape(shape)


#: name -> (dtype, shape, values or None for the default pattern)
ARRAYS: dict[str, tuple[str, tuple[int, ...], Any]] = {
    "X": ("float32", (4, 3), None),
    "Y": ("float32", (3, 4), None),
    "Z": ("float32", (4, 3, 5), None),
    "V": ("float32", (4,), None),
    "M": ("float32", (4, 3, 3), None),
    "I": ("int32", (4,), [2, 0, 1, 2]),
    "J": ("int32", (4, 2), [[0, 2], [1, 1], [2, 0], [-1, 5]]),
    "K": ("int8", (4, 3), None),
    "U": ("uint8", (4, 3), None),
    "B": ("bool", (4, 3), None),
    "H": ("float16", (4, 3), None),
    "BF": ("bfloat16", (4, 3), None),
    "S": ("float32", (6,), [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5]),
    "N": ("int32", (4,), [0, 1, 3, 5]),
    "IMG": ("float32", (2, 1, 5, 5), None),
    "KER": ("float32", (2, 3, 1, 2, 2), None),
}

#: custom_vjp / custom_jvp functions of (x, y), written as expressions so both sides share them.
CV = (
    "(lambda f: (f.defvjp(lambda x, y: (f(x, y), (x, y)), lambda r, g: (3.0 * g * r[1], g * r[0])),"
    " f)[1])(custom_vjp(lambda x, y: xnp.sin(x) * y))"
)
CJ = (
    "(lambda f: (f.defjvp(lambda p, t: (f(*p), 5.0 * t[0] + t[1] * p[0])), f)[1])"
    "(custom_jvp(lambda x, y: xnp.sin(x) * y))"
)

#: (group, name, source). Sources use only the names the module docstring lists.
CASES: list[tuple[str, str, str]] = [
    # -- in_axes / out_axes ----------------------------------------------------------------------
    ("axes", "default", "vmap(lambda x: x * 2)(X)"),
    ("axes", "in1", "vmap(lambda x: x.sum(), in_axes=1)(X)"),
    ("axes", "in_neg1", "vmap(lambda x: x + 1, in_axes=-1)(Z)"),
    ("axes", "in_neg2", "vmap(lambda x: x.max(), in_axes=-2)(Z)"),
    ("axes", "out1", "vmap(lambda x: x * x, out_axes=1)(Z)"),
    ("axes", "out_neg1", "vmap(lambda x: x.T, out_axes=-1)(Z)"),
    ("axes", "in1_out2", "vmap(lambda x: xnp.outer(x, x), in_axes=1, out_axes=2)(X)"),
    ("axes", "tuple_none", "vmap(lambda x, y: x @ y, in_axes=(0, None))(X, Y)"),
    ("axes", "tuple_none_first", "vmap(lambda y, x: x @ y, in_axes=(None, 0))(Y, X)"),
    ("axes", "list", "vmap(lambda x, y: x + y, in_axes=[0, 1])(X, Y)"),
    (
        "axes",
        "dict",
        "vmap(lambda t: t['a'] + t['b'], in_axes=({'a': 0, 'b': 1},))({'a': X, 'b': Y})",
    ),
    (
        "axes",
        "dict_none",
        "vmap(lambda t: t['a'] * t['b'], in_axes=({'a': 0, 'b': None},))({'a': X, 'b': X[0]})",
    ),
    ("axes", "prefix_tuple", "vmap(lambda p: p[0] - p[1][0], in_axes=((0, (1,)),))((X, (Y,)))"),
    ("axes", "prefix_leaf", "vmap(lambda p: p[0] + p[1], in_axes=(1,))((Y, Y))"),
    ("axes", "out_tuple", "vmap(lambda x: (x, x.sum()), out_axes=(1, 0))(X)"),
    ("axes", "out_dict", "vmap(lambda x: {'s': x.sum(), 'x': x}, out_axes={'s': 0, 'x': -1})(X)"),
    ("axes", "out_none_unbatched", "vmap(lambda x: (x, Y), out_axes=(0, None))(X)"),
    ("axes", "out_prefix", "vmap(lambda x: (x, (x, x)), out_axes=(0, 1))(X)"),
    ("axes", "unbatched_out_weak", "vmap(lambda x: 1.0)(X)"),
    ("axes", "unbatched_out_int", "vmap(lambda x: 3)(X)"),
    ("axes", "unbatched_out_strong", "vmap(lambda x: Y)(X)"),
    ("axes", "unbatched_out_axis1", "vmap(lambda x: Y, out_axes=1)(X)"),
    ("axes", "axis_size", "vmap(lambda x: x + 1, in_axes=None, axis_size=3)(V)"),
    ("axes", "axis_size_agrees", "vmap(lambda x: x * 2, axis_size=4)(X)"),
    ("axes", "kwargs", "vmap(lambda x, y: x - y)(X, y=X)"),
    ("axes", "python_scalar_unmapped", "vmap(lambda x, s: x * s, in_axes=(0, None))(X, 2)"),
    ("axes", "none_leaf_out", "vmap(lambda x: (x, None))(X)"),
    # -- dtypes and weak flags ---------------------------------------------------------------------
    ("dtypes", "weak_in", "vmap(lambda x: x * 2)(xnp.broadcast_to(1.5, (3, 2)))"),
    (
        "dtypes",
        "weak_in_strong_unmapped",
        "vmap(lambda x, y: x + y, in_axes=(0, None))(xnp.broadcast_to(1.5, (4,)), V[0])",
    ),
    ("dtypes", "int8_plus_py", "vmap(lambda x: x + 1)(K)"),
    ("dtypes", "uint8_mul", "vmap(lambda x: x * x)(U)"),
    ("dtypes", "bool_and", "vmap(lambda b: b & b[0])(B)"),
    ("dtypes", "f16_mean", "vmap(lambda x: x.mean())(H)"),
    ("dtypes", "bf16_sum", "vmap(lambda x: x.sum())(BF)"),
    ("dtypes", "int_mean", "vmap(lambda x: x.mean())(K)"),
    ("dtypes", "promote_int8_f16", "vmap(lambda k, h: k * h)(K, H)"),
    ("dtypes", "astype", "vmap(lambda x: x.astype(xnp.int8))(X)"),
    ("dtypes", "true_divide_int", "vmap(lambda k: k / 2)(K)"),
    (
        "dtypes",
        "special",
        "vmap(lambda s: (xnp.sign(s), xnp.maximum(s, 0.0), s * 0))(S.reshape(2, 3))",
    ),
    ("dtypes", "special_sqrt", "vmap(xnp.sqrt)(S)"),
    # -- ops ------------------------------------------------------------------------------------------
    ("ops", "sin_mul", "vmap(lambda x: xnp.sin(x) * x)(Z)"),
    ("ops", "add_unbatched_row", "vmap(lambda x, r: x + r, in_axes=(0, None))(X, V[:3])"),
    ("ops", "sum_axis", "vmap(lambda z: z.sum(axis=1))(Z)"),
    ("ops", "max_keepdims", "vmap(lambda z: z.max(axis=0, keepdims=True))(Z)"),
    ("ops", "argmax", "vmap(lambda z: xnp.argmax(z, axis=1), in_axes=2)(Z)"),
    ("ops", "cumsum", "vmap(lambda x: xnp.cumsum(x))(X)"),
    ("ops", "cumprod_rev", "vmap(lambda z: lax.cumprod(z, axis=1, reverse=True))(Z)"),
    ("ops", "sort", "vmap(lambda z: xnp.sort(z, axis=0), in_axes=1)(Z)"),
    ("ops", "argsort", "vmap(xnp.argsort)(X)"),
    ("ops", "top_k", "vmap(lambda x: lax.top_k(x, 2))(Z)"),
    ("ops", "transpose", "vmap(lambda z: z.T, in_axes=2)(Z)"),
    ("ops", "reshape", "vmap(lambda z: z.reshape(5, 3))(Z)"),
    ("ops", "squeeze_expand", "vmap(lambda x: xnp.expand_dims(x, 0)[:, None].squeeze(1))(X)"),
    ("ops", "broadcast_to", "vmap(lambda x: xnp.broadcast_to(x, (2, 3)))(X)"),
    (
        "ops",
        "concat_unbatched",
        "vmap(lambda x, y: xnp.concatenate([x, y]), in_axes=(0, None))(X, V)",
    ),
    ("ops", "stack", "vmap(lambda x: xnp.stack([x, -x], axis=1))(X)"),
    ("ops", "pad", "vmap(lambda x: xnp.pad(x, (1, 2)))(X)"),
    ("ops", "pad_batched_value", "vmap(lambda x, v: lax.pad(x, v, [(1, 0, 1)]))(X, V)"),
    ("ops", "slice_step", "vmap(lambda z: z[1:, ::2])(Z)"),
    ("ops", "int_index", "vmap(lambda z: z[2, -1])(Z)"),
    ("ops", "gather_unbatched_idx", "vmap(lambda x: x[xnp.array([2, 0, 0])])(X)"),
    ("ops", "gather_batched_idx", "vmap(lambda x, i: x[i])(X, I)"),
    ("ops", "gather_batched_idx_only", "vmap(lambda i: Y[i], in_axes=0)(I)"),
    ("ops", "gather_2d_idx", "vmap(lambda z, j: z[:, j])(Z, J)"),
    ("ops", "take_along", "vmap(lambda x, j: xnp.take_along_axis(x, j[:2] % 3, axis=0))(X, J)"),
    ("ops", "scatter_set", "vmap(lambda x, i: x.at[i].set(-1.0))(X, I)"),
    ("ops", "scatter_add_dup", "vmap(lambda x, j: x.at[j].add(10.0))(X, J)"),
    ("ops", "scatter_unbatched_operand", "vmap(lambda i: Y[0].at[i].mul(3.0))(I)"),
    ("ops", "scatter_batched_updates", "vmap(lambda u: Y.at[0].set(u))(X[:, :1].repeat(4, 1))"),
    ("ops", "dynamic_slice", "vmap(lambda z, i: lax.dynamic_slice(z, (i, i), (2, 2)))(Z, I)"),
    (
        "ops",
        "dynamic_update_slice",
        "vmap(lambda x, i: lax.dynamic_update_slice(x, xnp.ones(2), (i,)))(X, I)",
    ),
    ("ops", "where", "vmap(lambda x: xnp.where(x > 0, x, -1.0))(X)"),
    ("ops", "where_unbatched_cond", "vmap(lambda x: xnp.where(B[0], x, 0.0))(X)"),
    ("ops", "select_n", "vmap(lambda i, x: lax.select_n(i % 2 == 0, x, -x))(I, X)"),
    ("ops", "clip", "vmap(lambda x, v: xnp.clip(x, -v, v))(X, V)"),
    ("ops", "dot_both", "vmap(lambda x, y: x @ y)(Z, Z.transpose(0, 2, 1))"),
    ("ops", "dot_matvec", "vmap(lambda m, v: m @ v, in_axes=(0, None))(M, V[:3])"),
    ("ops", "dot_in_axes", "vmap(lambda a, b: a @ b, in_axes=(1, 0))(Z, Z.transpose(1, 2, 0))"),
    (
        "ops",
        "einsum",
        "vmap(lambda a, b: xnp.einsum('ij,kj->ik', a, b), in_axes=(0, 2))(Z, Z.transpose(1, 2, 0))",
    ),
    (
        "ops",
        "dot_general_batch",
        "vmap(lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))))(Z.reshape(4, 3, 5, 1), M[:, :, :1].reshape(4, 3, 1, 1))",
    ),
    ("ops", "flip_roll", "vmap(lambda x: xnp.roll(xnp.flip(x), 1))(X)"),
    ("ops", "triu", "vmap(xnp.triu)(M)"),
    ("ops", "iota_inside", "vmap(lambda x: x + xnp.arange(3))(X)"),
    ("ops", "int_ops", "vmap(lambda k: (k // 2, k % 3, k >> 1, -k))(K)"),
    ("ops", "compare", "vmap(lambda x, y: (x < y, x == y), in_axes=(0, 1))(X, Y)"),
    (
        "ops",
        "nan_reductions",
        "vmap(lambda s: (xnp.nanmax(s), xnp.nansum(s), s.min()))(S.reshape(2, 3))",
    ),
    ("ops", "fft", "vmap(lambda x: xnp.fft.fft(x))(X)"),
    ("ops", "inv", "vmap(lambda m: xnp.linalg.inv(m + 4 * xnp.eye(3)))(M)"),
    ("ops", "cholesky", "vmap(lambda m: xnp.linalg.cholesky(m @ m.T + xnp.eye(3)))(M)"),
    ("ops", "det", "vmap(xnp.linalg.det)(M)"),
    ("ops", "solve", "vmap(lambda m, v: xnp.linalg.solve(m + 4 * xnp.eye(3), v))(M, X)"),
    (
        "ops",
        "conv_lhs",
        "vmap(lambda x: lax.conv_general_dilated(x, KER[0], (1, 1), 'SAME'))(IMG.reshape(2, 1, 1, 5, 5))",
    ),
    ("ops", "conv_rhs", "vmap(lambda w: lax.conv_general_dilated(IMG, w, (1, 2), 'VALID'))(KER)"),
    (
        "ops",
        "conv_both_groups",
        "vmap(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), [(1, 0), (0, 1)], feature_group_count=1))(IMG.reshape(2, 1, 1, 5, 5), KER)",
    ),
    (
        "ops",
        "reduce_window_max",
        "vmap(lambda x: lax.reduce_window(x, -xnp.inf, lax.max, (2, 2), (1, 2), 'SAME'))(Z)",
    ),
    (
        "ops",
        "reduce_window_sum",
        "vmap(lambda x: lax.reduce_window(x, 0.0, lax.add, (2,), (1,), 'VALID'), in_axes=1)(X)",
    ),
    (
        "ops",
        "conv_transpose",
        "vmap(lambda x: lax.conv_transpose(x, KER[0].transpose(2, 3, 1, 0), (2, 2), 'SAME'))(IMG.transpose(0, 2, 3, 1).reshape(2, 1, 5, 5, 1))",
    ),
    # -- nesting with jit and autodiff -------------------------------------------------------------
    (
        "nest",
        "vmap_vmap_pairwise",
        "vmap(vmap(lambda a, b: ((a - b) ** 2).sum(), (None, 0)), (0, None))(X, X)",
    ),
    ("nest", "vmap_vmap_axes", "vmap(vmap(lambda x: x * 2, in_axes=1), in_axes=2)(Z)"),
    ("nest", "vmap_vmap_out", "vmap(vmap(lambda x: x.sum(), out_axes=0), out_axes=1)(Z)"),
    ("nest", "vmap_jit", "vmap(jit(lambda x: x @ x.T))(Z)"),
    ("nest", "jit_vmap", "jit(vmap(lambda x: xnp.tanh(x).sum()))(X)"),
    ("nest", "vmap_grad", "vmap(grad(lambda x: (x ** 3).sum()))(X)"),
    (
        "nest",
        "vmap_grad_params",
        "vmap(grad(lambda w, x: xnp.tanh(w @ x).sum()), in_axes=(None, 0))(Y.T, X)",
    ),
    ("nest", "grad_vmap", "grad(lambda x: vmap(lambda r: xnp.sin(r).prod())(x).sum())(X)"),
    (
        "nest",
        "value_and_grad_per_example",
        "vmap(value_and_grad(lambda x, y: ((x - y) ** 2).mean()))(X, X[::-1])",
    ),
    ("nest", "jvp_vmap", "jvp(vmap(xnp.sin), (X,), (xnp.ones_like(X),))"),
    ("nest", "vmap_jvp", "vmap(lambda x: jvp(xnp.exp, (x,), (x,)))(X)"),
    ("nest", "jit_vmap_grad", "jit(vmap(grad(lambda x: xnp.log1p(x ** 2).sum())))(Z)"),
    (
        "nest",
        "grad_grad_vmap",
        "grad(lambda v: grad(lambda v: vmap(lambda a: a ** 3)(v).sum())(v).sum())(V)",
    ),
    # -- custom_jvp / custom_vjp under vmap: the custom rule is used, batched ---------------------
    (
        "custom",
        "vjp_grad_vmap",
        f"grad(lambda x, y: vmap({CV})(x, y).sum(), argnums=(0, 1))(X, X * 2)",
    ),
    (
        "custom",
        "vjp_grad_vmap_shared",
        f"grad(lambda y: vmap({CV}, in_axes=(0, None))(X, y).sum())(X[0])",
    ),
    ("custom", "vjp_vmap_grad", f"vmap(grad({CV}, argnums=(0, 1)))(V, V)"),
    ("custom", "vjp_values", f"vmap({CV}, in_axes=(1, None))(X, V)"),
    (
        "custom",
        "vjp_jit_grad_vmap",
        f"jit(grad(lambda x: vmap({CV}, in_axes=(0, None))(x, X[0]).sum()))(X)",
    ),
    ("custom", "vjp_nested_vmap", f"grad(lambda z: vmap(vmap({CV}))(z, z).sum())(Z)"),
    (
        "custom",
        "jvp_grad_vmap",
        f"grad(lambda x, y: vmap({CJ})(x, y).sum(), argnums=(0, 1))(X, X * 2)",
    ),
    (
        "custom",
        "jvp_grad_vmap_shared",
        f"grad(lambda y: vmap({CJ}, in_axes=(0, None))(X, y).sum())(X[0])",
    ),
    ("custom", "jvp_jvp_vmap", f"jvp(vmap({CJ}), (V, V), (xnp.ones(4), V))"),
    ("custom", "jvp_vmap_grad", f"vmap(grad({CJ}))(V, V)"),
    ("custom", "vjp_jvp_vmap_error", f"jvp(vmap({CV}), (V, V), (V, V))"),
    # -- control flow --------------------------------------------------------------------------------
    (
        "control",
        "cond_batched_pred",
        "vmap(lambda x: lax.cond(x > 0, lambda x: x * 10.0, lambda x: -x, x))(V)",
    ),
    (
        "control",
        "cond_unbatched_pred",
        "vmap(lambda x: lax.cond(True, lambda x: x * 2, lambda x: -x, x))(X)",
    ),
    (
        "control",
        "cond_pred_batched_only",
        "vmap(lambda p: lax.cond(p, lambda: V, lambda: -V))(B[:, 0])",
    ),
    (
        "control",
        "cond_nan_untaken",
        "vmap(lambda x: lax.cond(x > 0, xnp.log, lambda x: x * 2, x))(V)",
    ),
    (
        "control",
        "cond_grad_masked",
        "grad(lambda x: vmap(lambda x: lax.cond(x > 0, xnp.sqrt, lambda x: x, x))(x).sum())(V * (V > 0))",
    ),
    (
        "control",
        "cond_grad_log",
        "grad(lambda x: vmap(lambda x: lax.cond(x > 0, xnp.log, lambda x: x * 2, x))(x).sum())(V)",
    ),
    (
        "control",
        "vmap_grad_cond",
        "vmap(grad(lambda x: lax.cond(x > 0, xnp.sqrt, lambda x: x, x)))(V * (V > 0))",
    ),
    (
        "control",
        "cond_weak_branches",
        "vmap(lambda x: lax.cond(x > 0, lambda: 1.0, lambda: 2.0))(V)",
    ),
    (
        "control",
        "switch_batched",
        "vmap(lambda i, x: lax.switch(i, [xnp.sin, xnp.cos, lambda x: x * 3], x))(I, V)",
    ),
    (
        "control",
        "switch_out_of_range",
        "vmap(lambda n: lax.switch(n, [lambda: 0, lambda: 1, lambda: 2]))(N)",
    ),
    (
        "control",
        "while_batched_pred",
        "vmap(lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2), (0, 1.0)))(N)",
    ),
    (
        "control",
        "while_batched_carry",
        "vmap(lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * x), (0, x)))(V)",
    ),
    (
        "control",
        "while_batched_const",
        "vmap(lambda lim: lax.while_loop(lambda c: c < lim, lambda c: c * 2.0 + 1.0, 0.5))(V + 2)",
    ),
    (
        "control",
        "fori_batched_body",
        "vmap(lambda a: lax.fori_loop(0, 3, lambda i, c: c * a + i, 1.0))(V)",
    ),
    (
        "control",
        "fori_batched_bound",
        "vmap(lambda n: lax.fori_loop(0, n, lambda i, c: c + i, 0))(N)",
    ),
    (
        "control",
        "scan_batched_xs",
        "vmap(lambda xs: lax.scan(lambda c, x: (c + x, c * x), 0.0, xs))(X)",
    ),
    (
        "control",
        "scan_batched_init",
        "vmap(lambda c0: lax.scan(lambda c, x: (c * x, c), c0, V))(V)",
    ),
    (
        "control",
        "scan_xs_axis1",
        "vmap(lambda xs: lax.scan(lambda c, x: (c + x.sum(), x * c), 0.0, xs), in_axes=1)(Z)",
    ),
    (
        "control",
        "scan_reverse",
        "vmap(lambda xs: lax.scan(lambda c, x: (c * 2 + x, c), 1.0, xs, reverse=True))(X)",
    ),
    ("control", "map", "vmap(lambda x: lax.map(lambda r: r.sum(), x))(Z)"),
    # -- collectives ---------------------------------------------------------------------------------
    ("collective", "psum", "vmap(lambda x: lax.psum(x, 'i'), axis_name='i')(X)"),
    ("collective", "pmean", "vmap(lambda x: lax.pmean(x, 'i'), axis_name='i')(X)"),
    ("collective", "pmean_int", "vmap(lambda k: lax.pmean(k, 'i'), axis_name='i')(K)"),
    (
        "collective",
        "pmax_pmin",
        "vmap(lambda x: (lax.pmax(x, 'i'), lax.pmin(x, 'i')), axis_name='i')(X)",
    ),
    ("collective", "psum_const", "vmap(lambda x: lax.psum(1, 'i'), axis_name='i')(X)"),
    ("collective", "psum_unbatched", "vmap(lambda x: lax.psum(Y, 'i'), axis_name='i')(X)"),
    ("collective", "axis_index", "vmap(lambda x: lax.axis_index('i'), axis_name='i')(X)"),
    ("collective", "all_gather", "vmap(lambda x: lax.all_gather(x, 'i'), axis_name='i')(X)"),
    (
        "collective",
        "all_gather_axis1",
        "vmap(lambda x: lax.all_gather(x, 'i', axis=1), axis_name='i')(X)",
    ),
    (
        "collective",
        "all_gather_tiled",
        "vmap(lambda x: lax.all_gather(x, 'i', tiled=True), axis_name='i')(X)",
    ),
    (
        "collective",
        "nested_two_names",
        "vmap(vmap(lambda x: lax.psum(x, ('i', 'j')), axis_name='j'), axis_name='i')(X)",
    ),
    (
        "collective",
        "nested_inner_name",
        "vmap(vmap(lambda x: lax.psum(x, 'j'), axis_name='j'), axis_name='i')(X)",
    ),
    (
        "collective",
        "nested_outer_name",
        "vmap(vmap(lambda x: lax.pmax(x, 'i'), axis_name='j'), axis_name='i')(X)",
    ),
    (
        "collective",
        "batchnorm_stats",
        "vmap(lambda x: (x - lax.pmean(x, 'b')) / xnp.sqrt(lax.pmean(x * x, 'b') + 1e-5), axis_name='b')(X)",
    ),
    (
        "collective",
        "grad_psum",
        "grad(lambda x: vmap(lambda r: lax.psum(r, 'i').sum() * r.sum(), axis_name='i')(x).sum())(X)",
    ),
    # -- errors --------------------------------------------------------------------------------------
    ("errors", "sizes_two", "vmap(lambda a, b: a + b)(V, X[0])"),
    ("errors", "sizes_three", "vmap(lambda a, b, c: a)(V, V, X[0])"),
    ("errors", "sizes_axis_size", "vmap(lambda a: a, axis_size=5)(V)"),
    ("errors", "sizes_in_axes", "vmap(lambda a, b: a, in_axes=(0, 1))(X, X)"),
    ("errors", "sizes_tree", "vmap(lambda t: t)({'p': V, 'q': X[0]})"),
    ("errors", "in_axes_len", "vmap(lambda a, b: a, in_axes=(0,))(V, V)"),
    ("errors", "in_axes_float", "vmap(lambda a: a, in_axes=1.0)"),
    ("errors", "in_axes_str_leaf", "vmap(lambda a, b: a, in_axes=(0, 'a'))"),
    ("errors", "in_axes_range", "vmap(lambda a: a, in_axes=2)(X)"),
    ("errors", "in_axes_range_neg", "vmap(lambda a: a, in_axes=-3)(X)"),
    ("errors", "in_axes_scalar", "vmap(lambda a: a)(1.0)"),
    (
        "errors",
        "in_axes_not_prefix",
        "vmap(lambda t: t, in_axes=({'a': 0, 'c': 0},))({'a': V, 'b': V})",
    ),
    ("errors", "out_axes_range", "vmap(lambda a: a, out_axes=2)(X)"),
    ("errors", "out_axes_none_batched", "vmap(lambda a: a, out_axes=None)(V)"),
    ("errors", "out_axes_none_tuple", "vmap(lambda a: (a, a), out_axes=(0, None))(V)"),
    ("errors", "no_mapped", "vmap(lambda a: a, in_axes=None)(V)"),
    ("errors", "no_args", "vmap(lambda: 1)()"),
    ("errors", "string_arg", "vmap(lambda s: s)('abc')"),
    ("errors", "unbound_name", "vmap(lambda x: lax.psum(x, 'j'), axis_name='i')(V)"),
]


#: (group, name, source, x64, promotion mode): batching under the other configurations, where
#: dtypes and weak flags must be those of the unbatched computation.
CONFIG_CASES: list[tuple[str, str, str, bool, str]] = [
    ("x64", "x64_weak_scalar", "vmap(lambda x: x + 1.0)(X)", True, "standard"),
    ("x64", "x64_arange", "vmap(lambda x: x * xnp.arange(3))(X)", True, "standard"),
    ("x64", "x64_sum_dtype", "vmap(lambda x: x.sum(dtype=xnp.float64))(X)", True, "standard"),
    ("x64", "x64_int", "vmap(lambda i: (i + 1, i * 2.5))(I)", True, "standard"),
    ("x64", "x64_unbatched_out", "vmap(lambda x: (1.0, 2))(X)", True, "standard"),
    (
        "x64",
        "x64_psum_const",
        "vmap(lambda x: lax.psum(1, 'i'), axis_name='i')(X)",
        True,
        "standard",
    ),
    (
        "x64",
        "x64_fori",
        "vmap(lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2, x))(V)",
        True,
        "standard",
    ),
    (
        "x64",
        "x64_while_index",
        "vmap(lambda n: lax.while_loop(lambda c: c < n, lambda c: c + 1, 0))(N)",
        True,
        "standard",
    ),
    ("x64", "x64_grad", "vmap(grad(lambda x: (x * 2.0) ** 2))(V)", True, "standard"),
    (
        "x64",
        "x64_cond_weak",
        "vmap(lambda x: lax.cond(x > 0, lambda: 1.0, lambda: 2.0))(V)",
        True,
        "standard",
    ),
    ("strict", "strict_same", "vmap(lambda x: x * 2.0)(X)", False, "strict"),
    ("strict", "strict_mixed_error", "vmap(lambda x, k: x * k)(X, K)", False, "strict"),
    ("strict", "strict_f16_error", "vmap(lambda x, h: x + h)(X, H)", False, "strict"),
    ("strict", "strict_unbatched_mixed", "vmap(lambda x: x + H[0], in_axes=0)(X)", False, "strict"),
]


def _leaf(x: Any) -> dict[str, Any]:
    a = np.asarray(x)
    values = (
        a.astype(np.float64).tolist()
        if a.dtype.kind == "V" or a.dtype.name == "bfloat16"
        else a.tolist()
    )
    if a.dtype.kind == "c":
        values = [np.real(a).tolist(), np.imag(a).tolist()]
    return {
        "dtype": a.dtype.name,
        "weak_type": bool(getattr(x, "weak_type", False)),
        "shape": list(a.shape),
        "values": values,
    }


def run(src: str, env: dict[str, Any]) -> dict[str, Any]:
    import jax

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eval(src, dict(env))
            leaves = jax.tree.leaves(out)
            return {"outputs": [_leaf(x) for x in leaves]}
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}


def main() -> None:
    import jax
    import jax.numpy as jnp

    arrays: dict[str, Any] = {}
    env: dict[str, Any] = {
        "vmap": jax.vmap,
        "jit": jax.jit,
        "grad": jax.grad,
        "value_and_grad": jax.value_and_grad,
        "jvp": jax.jvp,
        "custom_jvp": jax.custom_jvp,
        "custom_vjp": jax.custom_vjp,
        "lax": jax.lax,
        "xnp": jnp,
        "np": np,
    }
    for name, (dtype, shape, values) in ARRAYS.items():
        v = _values(dtype, shape) if values is None else np.array(values)
        a = jnp.asarray(v, dtype)
        assert a.shape == shape
        env[name] = a
        arrays[name] = {
            "dtype": dtype,
            "shape": list(shape),
            "values": np.asarray(a).tolist()
            if dtype != "bfloat16"
            else np.asarray(a, np.float64).tolist(),
        }
    names = [n for _, n, _ in CASES] + [c[1] for c in CONFIG_CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    cases = [
        {"name": name, "group": group, "src": src, "result": run(src, env)}
        for group, name, src in CASES
    ]
    for group, name, src, x64, mode in CONFIG_CASES:
        jax.config.update("jax_enable_x64", x64)
        try:
            with jax.numpy_dtype_promotion(mode):
                result = run(src, env)
        finally:
            jax.config.update("jax_enable_x64", False)
        config = {"x64": x64, "promotion": mode}
        cases.append({"name": name, "group": group, "src": src, "config": config, "result": result})
    versions = {n: importlib.metadata.version(n) for n in ("jax", "jaxlib", "numpy", "ml_dtypes")}
    doc = {
        "meta": {**versions, "python": platform.python_version(), "x64": False},
        "arrays": arrays,
        "cases": cases,
    }
    lines = ["{"]
    lines.append(f'"meta": {json.dumps(doc["meta"], sort_keys=True)},')
    lines.append(f'"arrays": {json.dumps(arrays, sort_keys=True)},')
    lines.append('"cases": [')
    lines.append(",\n".join(json.dumps(c, sort_keys=True) for c in cases))
    lines.append("]}")
    OUT_PATH.write_text("\n".join(lines) + "\n", encoding="utf-8")
    errors = sum("error" in c["result"] for c in cases)
    print(f"wrote {OUT_PATH} ({len(cases)} cases, {errors} errors)")


if __name__ == "__main__":
    main()
