"""Golden results from real JAX for the remaining ``jax.lax``, ``jax.lax.linalg`` and
``jax.scipy.linalg`` names of issue 14 (tests/test_golden_lax_more.py).

Run from the repository root with a Python that has jax 0.10.2 (``make golden`` builds one)::

    python tools/gen_golden_lax_more.py     # writes tests/golden/lax_more.json

``cases`` are expressions as in ``tools/gen_golden_names.py`` (same SPEC strings and records),
evaluated with ``jax``, ``jnp``, ``lax``, ``lax_linalg`` (``jax.lax.linalg``) and ``linalg``
(``jax.scipy.linalg``) in scope, with x64 off and on. ``reduce_precision`` holds, per operand
dtype and (exponent_bits, mantissa_bits), the SHA-256 of JAX's result bytes over bit patterns
made by :func:`bit_patterns` (every pattern for 16-bit types, a deterministic spread plus the
special values for 32/64-bit ones), so the test checks every bit of every result.

The script must not import trellax. Its output is deterministic.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import sys
from pathlib import Path
from typing import Any

import jax
import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_golden_names import leaf, make_arg

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "lax_more.json"

_F = "arr:float32:[[4.0, 1.0, 2.0], [1.0, 5.0, 0.5], [2.0, 0.5, 6.0]]"
_G = "arr:float32:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]"
_G64 = "arr:float64:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]"
_R = "arr:float32:[[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]"

CASES: list[tuple[str, list[str]]] = [
    # reduce_precision: dtypes, weak flags, errors
    ("lax.reduce_precision(a0, 5, 10)", ["arr:float32:[0.333333, 1e-06, 70000.0, -0.0, nan]"]),
    ("lax.reduce_precision(a0, 5, 10)", ["py:2.5"]),
    ("lax.reduce_precision(a0, 5, 10)", ["weak:0.1"]),
    ("lax.reduce_precision(a0, 8, 7)", ["arr:float64:[0.333333, 1e-40, 3.3e38]"]),
    ("lax.reduce_precision(a0, 5, 2)", ["arr:bfloat16:[1.3, 100.0, -3.0]"]),
    ("lax.reduce_precision(a0, 5, 2)", ["arr:int32:[1, 2]"]),
    ("lax.reduce_precision(a0, 5, 2)", ["arr:complex64:[1.0]"]),
    ("lax.reduce_precision(a0, 0, 2)", ["arr:float32:[1.0]"]),
    ("lax.reduce_precision(a0, 5, -1)", ["arr:float32:[1.0]"]),
    ("lax.reduce_precision(a0, 1.5, 2)", ["arr:float32:[1.0]"]),
    ("jax.grad(lambda x: lax.reduce_precision(x * 3.0, 5, 2))(a0)", ["py:1.3"]),
    ("jax.jvp(lambda x: lax.reduce_precision(x, 5, 2), (a0,), (a1,))", ["py:1.3", "py:1.37"]),
    ("jax.vmap(lambda x: lax.reduce_precision(x, 4, 3))(a0)", ["arr:float32:[0.1, 7.0, 1e5]"]),
    ("jax.jit(lambda x: lax.reduce_precision(x, 4, 3))(a0)", ["arr:float16:[0.1, 7.0, 1e4]"]),
    # custom_linear_solve / custom_root
    (
        "lax.custom_linear_solve(lambda x: a0 @ x, a1, lambda mv, y: jnp.linalg.solve(a0, y), "
        "symmetric=True)",
        [_F, "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "jax.grad(lambda a, b: lax.custom_linear_solve(lambda x: a @ x, b, "
        "lambda mv, y: jnp.linalg.solve(a, y), lambda vm, y: jnp.linalg.solve(a.T, y)).sum(), "
        "(0, 1))(a0, a1)",
        [_G, "arr:float32:[1.0, -2.0, 3.0]"],
    ),
    (
        "jax.jvp(lambda a: lax.custom_linear_solve(lambda x: a @ x, a1, "
        "lambda mv, y: jnp.linalg.solve(a, y)), (a0,), (a0 * 0.5 + 1.0,))",
        [_G, "arr:float32:[1.0, -2.0, 3.0]"],
    ),
    (
        "jax.grad(lambda b: lax.custom_linear_solve(lambda x: a0 @ x, b, "
        "lambda mv, y: jnp.linalg.solve(a0, y)).sum())(a1)",
        [_G, "arr:float32:[1.0, -2.0, 3.0]"],
    ),
    (
        "jax.vmap(lambda b: lax.custom_linear_solve(lambda x: a0 @ x, b, "
        "lambda mv, y: jnp.linalg.solve(a0, y), symmetric=True))(a1)",
        [_F, "arr:float32:[[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]]"],
    ),
    (
        "lax.custom_linear_solve(lambda x: a0 @ x, a1, "
        "lambda mv, y: (jnp.linalg.solve(a0, y), jnp.sum(y)), has_aux=True)",
        [_F, "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "lax.custom_linear_solve(lambda x: {'u': x['u'] * a0}, {'u': a1}, "
        "lambda mv, y: {'u': y['u'] / a0})",
        ["arr:float32:[2.0, 4.0]", "arr:float32:[1.0, 3.0]"],
    ),
    (
        "lax.custom_linear_solve(lambda x: x[:2], a0, lambda mv, y: y)",
        ["arr:float32:[1.0, 3.0, 4.0]"],
    ),
    (
        "lax.custom_linear_solve(lambda x: x, a0, lambda mv, y: y)",
        ["py:2.0"],
    ),
    (
        "jax.grad(lambda a: lax.custom_root(lambda x: x * x - a, a, "
        "lambda f, x: jax.lax.fori_loop(0, 30, lambda i, x: x - f(x) / (2 * x), x), "
        "lambda g, y: y / g(1.0)))(a0)",
        ["py:4.0"],
    ),
    (
        "lax.custom_root(lambda x: x * x - a0, a0, "
        "lambda f, x: jax.lax.fori_loop(0, 30, lambda i, x: x - f(x) / (2 * x), x), "
        "lambda g, y: y / g(1.0))",
        ["arr:float32:[4.0, 9.0]"],
    ),
    (
        "jax.grad(jax.grad(lambda a: lax.custom_root(lambda x: x * x - a, a, "
        "lambda f, x: jax.lax.fori_loop(0, 30, lambda i, x: x - f(x) / (2 * x), x), "
        "lambda g, y: y / g(1.0))))(a0)",
        ["py:4.0"],
    ),
    (
        "jax.vmap(jax.grad(lambda a: lax.custom_root(lambda x: x ** 3 - a, a, "
        "lambda f, x: jax.lax.fori_loop(0, 40, lambda i, x: x - f(x) / (3 * x * x), x), "
        "lambda g, y: y / g(1.0))))(a0)",
        ["arr:float32:[8.0, 27.0, 2.0]"],
    ),
    (
        "jax.jacobian(lambda a: lax.custom_root(lambda x: a @ x - a1, a1, "
        "lambda f, x: jnp.linalg.solve(a, a1), "
        "lambda g, y: jnp.linalg.solve(jax.jacobian(g)(y), y)))(a0)",
        [_F, "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "lax.custom_root(lambda x: x - a0, a0, lambda f, x: (x, jnp.sum(x)), lambda g, y: y, "
        "has_aux=True)",
        ["arr:float32:[1.0, 2.0]"],
    ),
    (
        "lax.custom_root(lambda x: x * x - a0, a0, "
        "lambda f, x: jax.lax.fori_loop(0, 30, lambda i, x: x - f(x) / (2 * x), x), "
        "lambda g, y: y / g(jnp.ones_like(y)))",
        ["arr:float32:[4.0, 9.0]"],
    ),
    (
        "jax.grad(lambda a: lax.custom_root(lambda x: x * x - a, a, "
        "lambda f, x: jax.lax.fori_loop(0, 30, lambda i, x: x - f(x) / (2 * x), x), "
        "lambda g, y: y / g(jnp.ones_like(y))).sum())(a0)",
        ["arr:float32:[4.0, 9.0]"],
    ),
    (
        "lax.custom_root(lambda x: (x, x), a0, lambda f, x: x, lambda g, y: y)",
        ["arr:float32:[1.0, 2.0]"],
    ),
    # stand-ins and option types
    ("lax.shape_as_value((2, 3))", []),
    ("lax.stage(a0)", ["py:2.0"]),
    ("lax.stage(a0)", ["arr:int8:[1, 2]"]),
    ("lax.platform_dependent(a0, cpu=lambda x: x + 1, default=lambda x: x - 1)", ["py:2.0"]),
    ("lax.platform_dependent(a0, tpu=lambda x: x + 1, default=lambda x: x * 3)", ["py:2.0"]),
    ("lax.platform_dependent(a0, tpu=lambda x: x + 1)", ["py:2.0"]),
    ("lax.composite(lambda x, y: x * y, name='my.mul')(a0, 3.0)", ["arr:float32:2.0"]),
    ("lax.after_all(a0)", ["arr:float32:2.0"]),
    ("lax.with_sharding_constraint(a0, None)", ["arr:float32:[2.0]"]),
    ("lax.Tolerance()", []),
    ("lax.Tolerance(rtol=-1.0)", []),
    ("[m.value for m in lax.DotAlgorithmPreset]", []),
    ("[m.value for m in lax.AccuracyMode]", []),
    ("[int(m) for m in lax.RandomAlgorithm]", []),
    ("lax.dot(a0, a0, precision=lax.DotAlgorithmPreset.F32_F32_F32)", ["arr:float32:[1.0, 2.0]"]),
    (
        "lax.dot_general(a0, a0, (((0,), (0,)), ((), ())), "
        "precision=lax.DotAlgorithm(jnp.float32, jnp.float32, jnp.float32))",
        ["arr:float32:[1.0, 2.0]"],
    ),
    # lax.linalg
    ("lax_linalg.lu(a0)", [_G]),
    ("lax_linalg.lu(a0)", [_G64]),
    ("lax_linalg.lu(a0)", [_R]),
    ("lax_linalg.lu(a0)", ["arr:complex64:[[1.0, 2j], [3.0, 4.0]]"]),
    ("lax_linalg.lu(a0)", ["arr:float32:[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 1.0], [1.0, 0.0]]]"]),
    ("lax_linalg.lu(a0)", ["arr:float32:[[0.0, 0.0], [0.0, 0.0]]"]),
    ("lax_linalg.lu(a0)", ["arr:float32:[1.0, 2.0]"]),
    ("lax_linalg.lu(a0)", ["arr:int32:[[1, 2], [3, 4]]"]),
    ("jax.jit(lax_linalg.lu)(a0)", [_G]),
    ("jax.grad(lambda a: lax_linalg.lu(a)[0].sum())(a0)", [_G]),
    ("lax_linalg.lu_pivots_to_permutation(a0, 4)", ["arr:int32:[2, 2, 2]"]),
    ("lax_linalg.lu_pivots_to_permutation(a0, 3)", ["arr:int32:[5, 1]"]),
    ("lax_linalg.lu_pivots_to_permutation(a0, 3)", ["arr:int32:[[1, 2], [0, 0]]"]),
    ("lax_linalg.lu_pivots_to_permutation(a0, 2)", ["arr:int32:[0, 1, 2]"]),
    ("lax_linalg.lu_pivots_to_permutation(a0, 3)", ["arr:float32:[0.0]"]),
    ("lax_linalg.lu_pivots_to_permutation(a0, 3)", ["arr:int64:[0]"]),
    (
        "lax_linalg.householder_product(a0, a1)",
        [
            "arr:float32:[[-5.9, -7.4], [0.5, 0.8], [0.8, -0.4]]",
            "arr:float32:[1.17, 1.3]",
        ],
    ),
    (
        "lax_linalg.householder_product(a0, a1)",
        ["arr:float64:[[1.0, 2.0], [0.5, 3.0], [0.25, 0.5]]", "arr:float64:[1.5]"],
    ),
    ("lax_linalg.householder_product(a0, a1)", [_R, "arr:float32:[1.0, 1.0, 1.0]"]),
    ("lax_linalg.symmetric_product(a0, a1, alpha=2.0, beta=0.5)", [_R, _G]),
    ("lax_linalg.symmetric_product(a0, a1)", [_R, "arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    (
        "lax_linalg.symmetric_product(a0, a1, alpha=1.0, beta=1.0, symmetrize_output=True)",
        [_R, _G],
    ),
    (
        "[lax_linalg.SvdAlgorithm(v) is m for v, m in [('default', lax_linalg.SvdAlgorithm.DEFAULT), "
        "('QR', lax_linalg.SvdAlgorithm.QR), ('Jacobi', lax_linalg.SvdAlgorithm.JACOBI), "
        "('polar', lax_linalg.SvdAlgorithm.POLAR), "
        "('divide_and_conquer', lax_linalg.SvdAlgorithm.DIVIDE_AND_CONQUER)]]",
        [],
    ),
    (
        "[lax_linalg.EighImplementation(v).name for v in ('qr', 'jacobi', 'qdwh')] == "
        "['QR', 'JACOBI', 'QDWH']",
        [],
    ),
    (
        "[lax_linalg.EigImplementation(v).name for v in ('cusolver', 'magma', 'lapack')] == "
        "['CUSOLVER', 'MAGMA', 'LAPACK']",
        [],
    ),
    (
        "[int(d) for d in lax.conv_transpose_shape_tuple((1, 5, 5, 3), (3, 3, 4, 3), (2, 2), "
        "'SAME', ('NHWC', 'HWIO', 'NHWC'))]",
        [],
    ),
    (
        "[int(d) for d in lax.conv_transpose_shape_tuple((1, 3, 5, 5), (4, 3, 3, 3), (1, 2), "
        "'VALID', ('NCHW', 'OIHW', 'NCHW'))]",
        [],
    ),
    (
        "[int(d) for d in lax.conv_transpose_shape_tuple((1, 3, 5, 5), (4, 3, 3, 3), (1, 2), "
        "[(1, 1), (0, 2)], ('NCHW', 'OIHW', 'NCHW'))]",
        [],
    ),
    # Schur and Hessenberg. Schur vectors are unique only up to a sign (a phase for complex
    # ones), which depends on the iteration's rounding: Schur results are compared through
    # ``jnp.abs`` (which still pins the eigenvalue order and LAPACK's 2x2 block conventions)
    ("[jnp.abs(r) for r in lax_linalg.schur(a0)]", [_G]),
    ("[jnp.abs(r) for r in lax_linalg.schur(a0)]", [_G64]),
    ("lax_linalg.schur(a0, compute_schur_vectors=False)", [_G]),
    ("[jnp.abs(r) for r in lax_linalg.schur(a0)]", ["arr:float32:[[2.0, 1.0], [1.0, 2.0]]"]),
    ("[jnp.abs(r) for r in lax_linalg.schur(a0)]", ["arr:float32:[[0.0, -2.0], [1.0, 0.0]]"]),
    (
        "[jnp.abs(r) for r in lax_linalg.schur(a0)]",
        [
            "arr:float64:[[1.0, 2.0, 0.5, 3.0], [-4.0, -5.0, 6.0, 1.0], [7.0, 8.0, 10.0, -2.0], [0.5, 1.5, 2.5, 3.5]]"
        ],
    ),
    (
        "[jnp.abs(r) for r in lax_linalg.schur(a0)]",
        ["arr:complex64:[[1.0, 2j, 3.0], [4j, 5.0, 6.0], [7.0, 8.0, 1j]]"],
    ),
    (
        "[jnp.abs(r) for r in lax_linalg.schur(a0)]",
        ["arr:float32:[[[2.0, 1.0], [1.0, 2.0]], [[3.0, 0.0], [1.0, 1.0]]]"],
    ),
    ("lax_linalg.schur(a0)", ["arr:float32:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"]),
    ("lax_linalg.schur(a0)", ["arr:int32:[[1, 2], [3, 4]]"]),
    ("jax.grad(lambda x: lax_linalg.schur(x)[0].sum())(a0)", [_G]),
    ("lax_linalg.hessenberg(a0)", [_G]),
    ("lax_linalg.hessenberg(a0)", [_G64]),
    (
        "lax_linalg.hessenberg(a0)",
        [
            "arr:float64:[[1.0, 2.0, 0.5, 3.0], [4.0, -5.0, 6.0, 1.0], [7.0, 8.0, 10.0, -2.0], "
            "[0.5, 1.5, 2.5, 3.5]]"
        ],
    ),
    (
        "lax_linalg.hessenberg(a0)",
        ["arr:complex64:[[1.0, 2j, 3.0], [4j, 5.0, 6.0], [7.0, 8.0, 1j]]"],
    ),
    ("lax_linalg.hessenberg(a0)", ["arr:float32:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"]),
    ("lax_linalg.hessenberg(a0)", ["arr:int32:[[1, 2], [3, 4]]"]),
    (
        "jax.vmap(lax_linalg.hessenberg)(a0)",
        [
            "arr:float32:[[[2.0, 1.0, 0.0], [1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], [[3.0, 0.0, 1.0], [1.0, 1.0, 2.0], [5.0, 4.0, 1.0]]]"
        ],
    ),
    ("lax_linalg.tridiagonal(a0)", [_F]),
    ("lax_linalg.tridiagonal(a0, lower=False)", [_F]),
    ("lax_linalg.tridiagonal(a0)", [_G64]),
    (
        "lax_linalg.tridiagonal(a0)",
        ["arr:complex64:[[4.0, 1j, 2.0], [-1j, 5.0, 0.5], [2.0, 0.5, 6.0]]"],
    ),
    (
        "lax_linalg.tridiagonal(a0, lower=False)",
        ["arr:complex64:[[4.0, 1j, 2.0], [-1j, 5.0, 0.5j], [2.0, -0.5j, 6.0]]"],
    ),
    ("[jnp.abs(r) for r in linalg.schur(a0)]", [_G]),
    ("[jnp.abs(r) for r in linalg.schur(a0, output='complex')]", [_G]),
    ("linalg.schur(a0, output='foo')", [_G]),
    ("linalg.schur(a0)", ["arr:int32:[[1, 2], [3, 4]]"]),
    ("linalg.hessenberg(a0)", [_G]),
    ("linalg.hessenberg(a0, calc_q=True)", [_G]),
    ("linalg.hessenberg(a0, calc_q=True)", [_G64]),
    ("linalg.hessenberg(a0)", ["arr:int32:[[1, 2], [3, 4]]"]),
    ("linalg.sqrtm(a0)", [_G]),
    ("linalg.sqrtm(a0)", [_F]),
    ("linalg.sqrtm(a0)", [_G64]),
    ("linalg.sqrtm(a0)", ["arr:float32:[[0.0, -1.0], [1.0, 0.0]]"]),
    ("linalg.sqrtm(a0)", ["arr:int32:[[4, 0], [0, 9]]"]),
    ("linalg.sqrtm(a0)", ["arr:complex64:[[1.0, 2j], [0.5, 3.0]]"]),
    ("linalg.sqrtm(a0, blocksize=2)", [_G]),
    ("linalg.sqrtm(a0)", ["arr:float32:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"]),
    ("jax.jit(linalg.sqrtm)(a0)", [_F]),
    (
        "linalg.funm(a0, jnp.exp)",
        ["arr:float32:[[0.5, 0.2, 0.1], [0.0, -0.3, 0.4], [0.2, 0.1, 0.0]]"],
    ),
    ("linalg.funm(a0, jnp.sin)", [_F]),
    ("linalg.funm(a0, lambda x: x * x)", ["arr:float64:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("linalg.funm(a0, jnp.exp, disp=False)[0]", ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("linalg.rsf2csf(*linalg.schur(a0))", ["arr:float32:[[0.0, -2.0], [1.0, 0.0]]"]),
    ("linalg.rsf2csf(a0, a1)", [_G, "arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("linalg.solve_sylvester(a0, a1, a2)", [_G, _F, _R.replace("[5.0, 7.0]]", "[5.0, 7.0]]")]),
    ("linalg.solve_sylvester(a0, a1, a2)", [_G, "arr:float32:[[1.0, 2.0], [0.5, 3.0]]", _R]),
    (
        "linalg.solve_sylvester(a0, a1, a2)",
        [
            _G64,
            "arr:float64:[[1.0, 2.0], [0.5, 3.0]]",
            "arr:float64:[[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]",
        ],
    ),
    ("linalg.solve_sylvester(a0, a0, a0)", ["arr:int32:[[2, 1], [0, 3]]"]),
    ("linalg.solve_sylvester(a0, a1, a0)", [_G, "arr:float32:[[1.0, 2.0], [0.5, 3.0]]"]),
    ("linalg.solve_sylvester(a0, a0, a0, method='foo')", [_G]),
    (
        "linalg.solve_sylvester(a0, a1, a2)",
        [
            "arr:complex64:[[1.0, 2j], [0.5, 3.0]]",
            "arr:float32:[[2.0, 0.0], [1.0, 1.0]]",
            "arr:float32:[[1.0, 0.0], [0.0, 1.0]]",
        ],
    ),
    (
        "linalg.expm_frechet(a0, a1)",
        ["arr:float32:[[0.1, 0.2], [0.3, -0.4]]", "arr:float32:[[1.0, 0.0], [2.0, 1.0]]"],
    ),
    ("linalg.expm_frechet(a0 * 0.1, a1, compute_expm=False)", [_G64, _G64]),
    ("linalg.expm_frechet(a0, a1)", ["arr:int32:[[1, 0], [0, 1]]", "arr:int32:[[1, 0], [0, 1]]"]),
    ("linalg.expm_frechet(a0, a1)", [_G, "arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("linalg.fiedler_companion(a0)", ["arr:float32:[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]"]),
    ("linalg.fiedler_companion(a0)", ["arr:float32:[2.0, -3.0, 0.5, 1.0, 5.0, 6.0, 7.0]"]),
    ("linalg.fiedler_companion(a0)", ["arr:int32:[1, 2, 3]"]),
    ("linalg.fiedler_companion(a0)", ["arr:float32:[2.0]"]),
    ("linalg.fiedler_companion(a0)", ["arr:float32:[2.0, 3.0]"]),
    ("linalg.fiedler_companion(a0)", ["arr:complex64:[1.0, 2j, 3.0]"]),
    ("linalg.qr_multiply(a0, a1)", [_G, "arr:float32:[1.0, 1.0, 1.0]"]),
    (
        "linalg.qr_multiply(a0, a1)",
        [
            "arr:float32:[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]",
            "arr:float32:[[1.0, 2.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0]]",
        ],
    ),
    (
        "linalg.qr_multiply(a0, a1, mode='left')",
        [
            "arr:float32:[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]",
            "arr:float32:[[1.0, 2.0, 3.0], [0.0, 1.0, 1.0]]",
        ],
    ),
    (
        "linalg.qr_multiply(a0, a1, conjugate=True)",
        ["arr:complex64:[[1.0, 2j], [3.0, 4.0]]", "arr:complex64:[1.0, 1j]"],
    ),
    ("linalg.qr_multiply(a0, a1)", ["arr:int32:[[1, 2], [3, 4]]", "arr:int32:[1, 1]"]),
    ("linalg.qr_multiply(a0, a1, mode='foo')", [_G, "arr:float32:[1.0, 1.0, 1.0]"]),
    # tridiagonal_solve, cholesky_update, ormqr
    (
        "lax_linalg.tridiagonal_solve(a0, a1, a2, a3)",
        [
            "arr:float32:[0.0, 1.0, 2.0]",
            "arr:float32:[4.0, 5.0, 6.0]",
            "arr:float32:[1.0, 1.0, 0.0]",
            "arr:float32:[[1.0], [2.0], [3.0]]",
        ],
    ),
    (
        "lax_linalg.tridiagonal_solve(a0, a1, a2, a3)",
        [
            "arr:float64:[0.0, 1.0, 1.0, 3.0]",
            "arr:float64:[0.0, 0.0, 1.0, 1e-3]",
            "arr:float64:[1.0, 1.0, 2.0, 0.0]",
            "arr:float64:[[1.0, 0.0], [2.0, 1.0], [3.0, 5.0], [4.0, -1.0]]",
        ],
    ),
    (
        "lax_linalg.tridiagonal_solve(a0, a1, a2, a3)",
        [
            "arr:float32:[0.0, 1.0, 2.0]",
            "arr:float32:[0.0, 0.0, 0.0]",
            "arr:float32:[1.0, 1.0, 0.0]",
            "arr:float32:[[1.0], [2.0], [3.0]]",
        ],
    ),
    (
        "lax_linalg.tridiagonal_solve(a0, a1, a2, a3)",
        [
            "arr:complex64:[0.0, 1j, 2.0]",
            "arr:complex64:[4.0, 5.0, 6j]",
            "arr:complex64:[1.0, 1.0, 0.0]",
            "arr:complex64:[[1.0], [2j], [3.0]]",
        ],
    ),
    (
        "lax_linalg.tridiagonal_solve(a0, a0 * 4, a0, a1)",
        [
            "arr:float32:[[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]",
            "arr:float32:[[[1.0], [2.0], [3.0]], [[1.0], [0.0], [1.0]]]",
        ],
    ),
    (
        "lax_linalg.tridiagonal_solve(a0, a0, a0, a1)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "lax_linalg.tridiagonal_solve(a0, a0, a0, a1)",
        ["arr:int32:[1, 2, 3]", "arr:int32:[[1], [2], [3]]"],
    ),
    (
        "lax_linalg.tridiagonal_solve(a0[:2], a0, a0, a1)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[[1.0], [2.0], [3.0]]"],
    ),
    (
        "jax.grad(lambda d: lax_linalg.tridiagonal_solve(a0, d, a2, a3).sum())(a1)",
        [
            "arr:float32:[0.0, 1.0, 2.0]",
            "arr:float32:[4.0, 5.0, 6.0]",
            "arr:float32:[1.0, 1.0, 0.0]",
            "arr:float32:[[1.0], [2.0], [3.0]]",
        ],
    ),
    (
        "lax_linalg.cholesky_update(a0, a1)",
        ["arr:float32:[[2.0, 0.5], [0.0, 1.6583124]]", "arr:float32:[1.0, 2.0]"],
    ),
    (
        "lax_linalg.cholesky_update(a0, a1)",
        [
            "arr:float64:[[3.0, 1.0, 0.5], [0.0, 2.0, -1.0], [0.0, 0.0, 1.5]]",
            "arr:float64:[0.5, -1.0, 2.0]",
        ],
    ),
    (
        "lax_linalg.cholesky_update(a0, a1)",
        ["arr:float32:[[[2.0, 0.5], [0.0, 1.6]]]", "arr:float32:[1.0, 2.0]"],
    ),
    (
        "lax_linalg.ormqr(a0, a1, a2)",
        [
            "arr:float32:[[-5.9, -7.4], [0.5, 0.8], [0.8, -0.4]]",
            "arr:float32:[1.17, 1.3]",
            "arr:float32:[[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]]",
        ],
    ),
    (
        "lax_linalg.ormqr(a0, a1, a2, transpose=True)",
        [
            "arr:float32:[[-5.9, -7.4], [0.5, 0.8], [0.8, -0.4]]",
            "arr:float32:[1.17, 1.3]",
            "arr:float32:[[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]]",
        ],
    ),
    (
        "lax_linalg.ormqr(a0, a1, a2, left=False)",
        [
            "arr:float32:[[-5.9, -7.4], [0.5, 0.8], [0.8, -0.4]]",
            "arr:float32:[1.17, 1.3]",
            "arr:float32:[[1.0, 2.0, 0.5], [0.0, 1.0, 1.0]]",
        ],
    ),
    (
        "lax_linalg.ormqr(a0, a1, a2, left=False, transpose=True)",
        [
            "arr:complex64:[[2.0, 1j], [0.5j, 0.8], [0.8, -0.4]]",
            "arr:complex64:[1.2, 1.5j]",
            "arr:complex64:[[1.0, 2j, 0.5], [0.0, 1.0, 1.0]]",
        ],
    ),
    # collectives under vmap's named axes
    (
        "jax.vmap(lambda v: lax.ppermute(v, 'i', [(0, 1), (1, 2), (2, 0)]), axis_name='i')(a0)",
        ["arr:float32:[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]"],
    ),
    (
        "jax.vmap(lambda v: lax.pshuffle(v, 'i', [2, 0, 1]), axis_name='i')(a0)",
        ["arr:float32:[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]"],
    ),
    (
        "jax.vmap(lambda v: lax.pshuffle(v, 'i', [1, 2, 0]), axis_name='i')(a0)",
        ["arr:int8:[1, 2, 3]"],
    ),
    (
        "jax.vmap(lambda v: lax.pshuffle(v, 'i', [2, 0]), axis_name='i')(a0)",
        ["arr:float32:[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]"],
    ),
    (
        "jax.vmap(lambda v: lax.psum_scatter(v, 'i'), axis_name='i')(a0)",
        ["arr:float32:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]"],
    ),
    (
        "jax.vmap(lambda v: lax.psum_scatter(v, 'i', scatter_dimension=1), axis_name='i')(a0)",
        ["arr:int32:[[[0, 1, 2]], [[3, 4, 5]], [[6, 7, 8]]]"],
    ),
    (
        "jax.vmap(lambda v: lax.psum_scatter(v, 'i', tiled=True), axis_name='i')(a0)",
        [
            "arr:float32:[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0]]"
        ],
    ),
    (
        "jax.vmap(lambda v: lax.all_to_all(v, 'i', 0, 0), axis_name='i')(a0)",
        ["arr:float32:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]"],
    ),
    (
        "jax.vmap(lambda v: lax.all_to_all(v, 'i', 0, 1), axis_name='i')(a0.reshape(3, 3, 1) * a1)",
        [
            "arr:float32:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]",
            "arr:float32:[1.0, -1.0]",
        ],
    ),
    (
        "jax.vmap(lambda v: lax.all_to_all(v, 'i', 1, 0, tiled=True), axis_name='i')(a0.reshape(3, 2, 6))",
        ["arr:float32:" + str([float(i) for i in range(36)])],
    ),
    (
        "jax.vmap(lambda v: lax.pswapaxes(v, 'i', 0), axis_name='i')(a0.reshape(3, 3, 2))",
        ["arr:float32:" + str([float(i) for i in range(18)])],
    ),
    (
        "jax.jit(jax.vmap(lambda v: lax.pshuffle(v, 'i', [2, 0, 1]), axis_name='i'))(a0)",
        ["arr:float32:[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]"],
    ),
    (
        "jax.vmap(lambda v: lax.pcast(v, 'i', to='varying'), axis_name='i')(a0)",
        ["arr:float32:[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]"],
    ),
    ("lax.pshuffle(a0, 'i', [0])", ["arr:float32:[1.0]"]),
    # patches, scatter_apply, ragged_dot
    (
        "lax.conv_general_dilated_local(a0, a1, (1, 1), 'VALID', (2, 3))",
        [
            "arr:float32:[[[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0], [15.0, 16.0, 17.0, 18.0, 19.0]], [[20.0, 21.0, 22.0, 23.0, 24.0], [25.0, 26.0, 27.0, 28.0, 29.0], [30.0, 31.0, 32.0, 33.0, 34.0], [35.0, 36.0, 37.0, 38.0, 39.0]]]]",
            "arr:float32:[[[[0.0, 0.01, 0.02], [0.03, 0.04, 0.05], [0.06, 0.07, 0.08]], [[0.09, 0.1, 0.11], [0.12, 0.13, 0.14], [0.15, 0.16, 0.17]], [[0.18, 0.19, 0.2], [0.21, 0.22, 0.23], [0.24, 0.25, 0.26]], [[0.27, 0.28, 0.29], [0.3, 0.31, 0.32], [0.33, 0.34, 0.35]], [[0.36, 0.37, 0.38], [0.39, 0.4, 0.41], [0.42, 0.43, 0.44]], [[0.45, 0.46, 0.47], [0.48, 0.49, 0.5], [0.51, 0.52, 0.53]], [[0.54, 0.55, 0.56], [0.57, 0.58, 0.59], [0.6, 0.61, 0.62]], [[0.63, 0.64, 0.65], [0.66, 0.67, 0.68], [0.69, 0.7, 0.71]], [[0.72, 0.73, 0.74], [0.75, 0.76, 0.77], [0.78, 0.79, 0.8]], [[0.81, 0.82, 0.83], [0.84, 0.85, 0.86], [0.87, 0.88, 0.89]], [[0.9, 0.91, 0.92], [0.93, 0.94, 0.95], [0.96, 0.97, 0.98]], [[0.99, 1.0, 1.01], [1.02, 1.03, 1.04], [1.05, 1.06, 1.07]]], [[[1.08, 1.09, 1.1], [1.11, 1.12, 1.13], [1.14, 1.15, 1.16]], [[1.17, 1.18, 1.19], [1.2, 1.21, 1.22], [1.23, 1.24, 1.25]], [[1.26, 1.27, 1.28], [1.29, 1.3, 1.31], [1.32, 1.33, 1.34]], [[1.35, 1.36, 1.37], [1.38, 1.39, 1.4], [1.41, 1.42, 1.43]], [[1.44, 1.45, 1.46], [1.47, 1.48, 1.49], [1.5, 1.51, 1.52]], [[1.53, 1.54, 1.55], [1.56, 1.57, 1.58], [1.59, 1.6, 1.61]], [[1.62, 1.63, 1.64], [1.65, 1.66, 1.67], [1.68, 1.69, 1.7]], [[1.71, 1.72, 1.73], [1.74, 1.75, 1.76], [1.77, 1.78, 1.79]], [[1.8, 1.81, 1.82], [1.83, 1.84, 1.85], [1.86, 1.87, 1.88]], [[1.89, 1.9, 1.91], [1.92, 1.93, 1.94], [1.95, 1.96, 1.97]], [[1.98, 1.99, 2.0], [2.01, 2.02, 2.03], [2.04, 2.05, 2.06]], [[2.07, 2.08, 2.09], [2.1, 2.11, 2.12], [2.13, 2.14, 2.15]]], [[[2.16, 2.17, 2.18], [2.19, 2.2, 2.21], [2.22, 2.23, 2.24]], [[2.25, 2.26, 2.27], [2.28, 2.29, 2.3], [2.31, 2.32, 2.33]], [[2.34, 2.35, 2.36], [2.37, 2.38, 2.39], [2.4, 2.41, 2.42]], [[2.43, 2.44, 2.45], [2.46, 2.47, 2.48], [2.49, 2.5, 2.51]], [[2.52, 2.53, 2.54], [2.55, 2.56, 2.57], [2.58, 2.59, 2.6]], [[2.61, 2.62, 2.63], [2.64, 2.65, 2.66], [2.67, 2.68, 2.69]], [[2.7, 2.71, 2.72], [2.73, 2.74, 2.75], [2.76, 2.77, 2.78]], [[2.79, 2.8, 2.81], [2.82, 2.83, 2.84], [2.85, 2.86, 2.87]], [[2.88, 2.89, 2.9], [2.91, 2.92, 2.93], [2.94, 2.95, 2.96]], [[2.97, 2.98, 2.99], [3.0, 3.01, 3.02], [3.03, 3.04, 3.05]], [[3.06, 3.07, 3.08], [3.09, 3.1, 3.11], [3.12, 3.13, 3.14]], [[3.15, 3.16, 3.17], [3.18, 3.19, 3.2], [3.21, 3.22, 3.23]]], [[[3.24, 3.25, 3.26], [3.27, 3.28, 3.29], [3.3, 3.31, 3.32]], [[3.33, 3.34, 3.35], [3.36, 3.37, 3.38], [3.39, 3.4, 3.41]], [[3.42, 3.43, 3.44], [3.45, 3.46, 3.47], [3.48, 3.49, 3.5]], [[3.51, 3.52, 3.53], [3.54, 3.55, 3.56], [3.57, 3.58, 3.59]], [[3.6, 3.61, 3.62], [3.63, 3.64, 3.65], [3.66, 3.67, 3.68]], [[3.69, 3.7, 3.71], [3.72, 3.73, 3.74], [3.75, 3.76, 3.77]], [[3.78, 3.79, 3.8], [3.81, 3.82, 3.83], [3.84, 3.85, 3.86]], [[3.87, 3.88, 3.89], [3.9, 3.91, 3.92], [3.93, 3.94, 3.95]], [[3.96, 3.97, 3.98], [3.99, 4.0, 4.01], [4.02, 4.03, 4.04]], [[4.05, 4.06, 4.07], [4.08, 4.09, 4.1], [4.11, 4.12, 4.13]], [[4.14, 4.15, 4.16], [4.17, 4.18, 4.19], [4.2, 4.21, 4.22]], [[4.23, 4.24, 4.25], [4.26, 4.27, 4.28], [4.29, 4.3, 4.31]]]]",
        ],
    ),
    (
        "lax.conv_general_dilated_local(a0, a1.transpose(2, 3, 1, 0), (1, 1), 'VALID', (2, 3), "
        "dimension_numbers=('NCHW', 'HWIO', 'NHWC'))",
        [
            "arr:float32:[[[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0], [15.0, 16.0, 17.0, 18.0, 19.0]], [[20.0, 21.0, 22.0, 23.0, 24.0], [25.0, 26.0, 27.0, 28.0, 29.0], [30.0, 31.0, 32.0, 33.0, 34.0], [35.0, 36.0, 37.0, 38.0, 39.0]]]]",
            "arr:float32:[[[[0.0, 0.01, 0.02], [0.03, 0.04, 0.05], [0.06, 0.07, 0.08]], [[0.09, 0.1, 0.11], [0.12, 0.13, 0.14], [0.15, 0.16, 0.17]], [[0.18, 0.19, 0.2], [0.21, 0.22, 0.23], [0.24, 0.25, 0.26]], [[0.27, 0.28, 0.29], [0.3, 0.31, 0.32], [0.33, 0.34, 0.35]], [[0.36, 0.37, 0.38], [0.39, 0.4, 0.41], [0.42, 0.43, 0.44]], [[0.45, 0.46, 0.47], [0.48, 0.49, 0.5], [0.51, 0.52, 0.53]], [[0.54, 0.55, 0.56], [0.57, 0.58, 0.59], [0.6, 0.61, 0.62]], [[0.63, 0.64, 0.65], [0.66, 0.67, 0.68], [0.69, 0.7, 0.71]], [[0.72, 0.73, 0.74], [0.75, 0.76, 0.77], [0.78, 0.79, 0.8]], [[0.81, 0.82, 0.83], [0.84, 0.85, 0.86], [0.87, 0.88, 0.89]], [[0.9, 0.91, 0.92], [0.93, 0.94, 0.95], [0.96, 0.97, 0.98]], [[0.99, 1.0, 1.01], [1.02, 1.03, 1.04], [1.05, 1.06, 1.07]]], [[[1.08, 1.09, 1.1], [1.11, 1.12, 1.13], [1.14, 1.15, 1.16]], [[1.17, 1.18, 1.19], [1.2, 1.21, 1.22], [1.23, 1.24, 1.25]], [[1.26, 1.27, 1.28], [1.29, 1.3, 1.31], [1.32, 1.33, 1.34]], [[1.35, 1.36, 1.37], [1.38, 1.39, 1.4], [1.41, 1.42, 1.43]], [[1.44, 1.45, 1.46], [1.47, 1.48, 1.49], [1.5, 1.51, 1.52]], [[1.53, 1.54, 1.55], [1.56, 1.57, 1.58], [1.59, 1.6, 1.61]], [[1.62, 1.63, 1.64], [1.65, 1.66, 1.67], [1.68, 1.69, 1.7]], [[1.71, 1.72, 1.73], [1.74, 1.75, 1.76], [1.77, 1.78, 1.79]], [[1.8, 1.81, 1.82], [1.83, 1.84, 1.85], [1.86, 1.87, 1.88]], [[1.89, 1.9, 1.91], [1.92, 1.93, 1.94], [1.95, 1.96, 1.97]], [[1.98, 1.99, 2.0], [2.01, 2.02, 2.03], [2.04, 2.05, 2.06]], [[2.07, 2.08, 2.09], [2.1, 2.11, 2.12], [2.13, 2.14, 2.15]]], [[[2.16, 2.17, 2.18], [2.19, 2.2, 2.21], [2.22, 2.23, 2.24]], [[2.25, 2.26, 2.27], [2.28, 2.29, 2.3], [2.31, 2.32, 2.33]], [[2.34, 2.35, 2.36], [2.37, 2.38, 2.39], [2.4, 2.41, 2.42]], [[2.43, 2.44, 2.45], [2.46, 2.47, 2.48], [2.49, 2.5, 2.51]], [[2.52, 2.53, 2.54], [2.55, 2.56, 2.57], [2.58, 2.59, 2.6]], [[2.61, 2.62, 2.63], [2.64, 2.65, 2.66], [2.67, 2.68, 2.69]], [[2.7, 2.71, 2.72], [2.73, 2.74, 2.75], [2.76, 2.77, 2.78]], [[2.79, 2.8, 2.81], [2.82, 2.83, 2.84], [2.85, 2.86, 2.87]], [[2.88, 2.89, 2.9], [2.91, 2.92, 2.93], [2.94, 2.95, 2.96]], [[2.97, 2.98, 2.99], [3.0, 3.01, 3.02], [3.03, 3.04, 3.05]], [[3.06, 3.07, 3.08], [3.09, 3.1, 3.11], [3.12, 3.13, 3.14]], [[3.15, 3.16, 3.17], [3.18, 3.19, 3.2], [3.21, 3.22, 3.23]]], [[[3.24, 3.25, 3.26], [3.27, 3.28, 3.29], [3.3, 3.31, 3.32]], [[3.33, 3.34, 3.35], [3.36, 3.37, 3.38], [3.39, 3.4, 3.41]], [[3.42, 3.43, 3.44], [3.45, 3.46, 3.47], [3.48, 3.49, 3.5]], [[3.51, 3.52, 3.53], [3.54, 3.55, 3.56], [3.57, 3.58, 3.59]], [[3.6, 3.61, 3.62], [3.63, 3.64, 3.65], [3.66, 3.67, 3.68]], [[3.69, 3.7, 3.71], [3.72, 3.73, 3.74], [3.75, 3.76, 3.77]], [[3.78, 3.79, 3.8], [3.81, 3.82, 3.83], [3.84, 3.85, 3.86]], [[3.87, 3.88, 3.89], [3.9, 3.91, 3.92], [3.93, 3.94, 3.95]], [[3.96, 3.97, 3.98], [3.99, 4.0, 4.01], [4.02, 4.03, 4.04]], [[4.05, 4.06, 4.07], [4.08, 4.09, 4.1], [4.11, 4.12, 4.13]], [[4.14, 4.15, 4.16], [4.17, 4.18, 4.19], [4.2, 4.21, 4.22]], [[4.23, 4.24, 4.25], [4.26, 4.27, 4.28], [4.29, 4.3, 4.31]]]]",
        ],
    ),
    (
        "lax.conv_general_dilated_local(a0, a1[:, :6], (1, 1), 'VALID', (2, 3))",
        [
            "arr:float32:[[[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0], [15.0, 16.0, 17.0, 18.0, 19.0]], [[20.0, 21.0, 22.0, 23.0, 24.0], [25.0, 26.0, 27.0, 28.0, 29.0], [30.0, 31.0, 32.0, 33.0, 34.0], [35.0, 36.0, 37.0, 38.0, 39.0]]]]",
            "arr:float32:[[[[0.0, 0.01, 0.02], [0.03, 0.04, 0.05], [0.06, 0.07, 0.08]], [[0.09, 0.1, 0.11], [0.12, 0.13, 0.14], [0.15, 0.16, 0.17]], [[0.18, 0.19, 0.2], [0.21, 0.22, 0.23], [0.24, 0.25, 0.26]], [[0.27, 0.28, 0.29], [0.3, 0.31, 0.32], [0.33, 0.34, 0.35]], [[0.36, 0.37, 0.38], [0.39, 0.4, 0.41], [0.42, 0.43, 0.44]], [[0.45, 0.46, 0.47], [0.48, 0.49, 0.5], [0.51, 0.52, 0.53]], [[0.54, 0.55, 0.56], [0.57, 0.58, 0.59], [0.6, 0.61, 0.62]], [[0.63, 0.64, 0.65], [0.66, 0.67, 0.68], [0.69, 0.7, 0.71]], [[0.72, 0.73, 0.74], [0.75, 0.76, 0.77], [0.78, 0.79, 0.8]], [[0.81, 0.82, 0.83], [0.84, 0.85, 0.86], [0.87, 0.88, 0.89]], [[0.9, 0.91, 0.92], [0.93, 0.94, 0.95], [0.96, 0.97, 0.98]], [[0.99, 1.0, 1.01], [1.02, 1.03, 1.04], [1.05, 1.06, 1.07]]], [[[1.08, 1.09, 1.1], [1.11, 1.12, 1.13], [1.14, 1.15, 1.16]], [[1.17, 1.18, 1.19], [1.2, 1.21, 1.22], [1.23, 1.24, 1.25]], [[1.26, 1.27, 1.28], [1.29, 1.3, 1.31], [1.32, 1.33, 1.34]], [[1.35, 1.36, 1.37], [1.38, 1.39, 1.4], [1.41, 1.42, 1.43]], [[1.44, 1.45, 1.46], [1.47, 1.48, 1.49], [1.5, 1.51, 1.52]], [[1.53, 1.54, 1.55], [1.56, 1.57, 1.58], [1.59, 1.6, 1.61]], [[1.62, 1.63, 1.64], [1.65, 1.66, 1.67], [1.68, 1.69, 1.7]], [[1.71, 1.72, 1.73], [1.74, 1.75, 1.76], [1.77, 1.78, 1.79]], [[1.8, 1.81, 1.82], [1.83, 1.84, 1.85], [1.86, 1.87, 1.88]], [[1.89, 1.9, 1.91], [1.92, 1.93, 1.94], [1.95, 1.96, 1.97]], [[1.98, 1.99, 2.0], [2.01, 2.02, 2.03], [2.04, 2.05, 2.06]], [[2.07, 2.08, 2.09], [2.1, 2.11, 2.12], [2.13, 2.14, 2.15]]], [[[2.16, 2.17, 2.18], [2.19, 2.2, 2.21], [2.22, 2.23, 2.24]], [[2.25, 2.26, 2.27], [2.28, 2.29, 2.3], [2.31, 2.32, 2.33]], [[2.34, 2.35, 2.36], [2.37, 2.38, 2.39], [2.4, 2.41, 2.42]], [[2.43, 2.44, 2.45], [2.46, 2.47, 2.48], [2.49, 2.5, 2.51]], [[2.52, 2.53, 2.54], [2.55, 2.56, 2.57], [2.58, 2.59, 2.6]], [[2.61, 2.62, 2.63], [2.64, 2.65, 2.66], [2.67, 2.68, 2.69]], [[2.7, 2.71, 2.72], [2.73, 2.74, 2.75], [2.76, 2.77, 2.78]], [[2.79, 2.8, 2.81], [2.82, 2.83, 2.84], [2.85, 2.86, 2.87]], [[2.88, 2.89, 2.9], [2.91, 2.92, 2.93], [2.94, 2.95, 2.96]], [[2.97, 2.98, 2.99], [3.0, 3.01, 3.02], [3.03, 3.04, 3.05]], [[3.06, 3.07, 3.08], [3.09, 3.1, 3.11], [3.12, 3.13, 3.14]], [[3.15, 3.16, 3.17], [3.18, 3.19, 3.2], [3.21, 3.22, 3.23]]], [[[3.24, 3.25, 3.26], [3.27, 3.28, 3.29], [3.3, 3.31, 3.32]], [[3.33, 3.34, 3.35], [3.36, 3.37, 3.38], [3.39, 3.4, 3.41]], [[3.42, 3.43, 3.44], [3.45, 3.46, 3.47], [3.48, 3.49, 3.5]], [[3.51, 3.52, 3.53], [3.54, 3.55, 3.56], [3.57, 3.58, 3.59]], [[3.6, 3.61, 3.62], [3.63, 3.64, 3.65], [3.66, 3.67, 3.68]], [[3.69, 3.7, 3.71], [3.72, 3.73, 3.74], [3.75, 3.76, 3.77]], [[3.78, 3.79, 3.8], [3.81, 3.82, 3.83], [3.84, 3.85, 3.86]], [[3.87, 3.88, 3.89], [3.9, 3.91, 3.92], [3.93, 3.94, 3.95]], [[3.96, 3.97, 3.98], [3.99, 4.0, 4.01], [4.02, 4.03, 4.04]], [[4.05, 4.06, 4.07], [4.08, 4.09, 4.1], [4.11, 4.12, 4.13]], [[4.14, 4.15, 4.16], [4.17, 4.18, 4.19], [4.2, 4.21, 4.22]], [[4.23, 4.24, 4.25], [4.26, 4.27, 4.28], [4.29, 4.3, 4.31]]]]",
        ],
    ),
    (
        "lax.conv_general_dilated_patches(a0, (2, 3), (1, 1), 'VALID')",
        [
            "arr:float32:[[[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0], [15.0, 16.0, 17.0, 18.0, 19.0]], [[20.0, 21.0, 22.0, 23.0, 24.0], [25.0, 26.0, 27.0, 28.0, 29.0], [30.0, 31.0, 32.0, 33.0, 34.0], [35.0, 36.0, 37.0, 38.0, 39.0]], [[40.0, 41.0, 42.0, 43.0, 44.0], [45.0, 46.0, 47.0, 48.0, 49.0], [50.0, 51.0, 52.0, 53.0, 54.0], [55.0, 56.0, 57.0, 58.0, 59.0]]]]"
        ],
    ),
    (
        "lax.conv_general_dilated_patches(a0, (2, 2), (2, 1), 'SAME', "
        "dimension_numbers=('NCHW', 'OIHW', 'NHWC'))",
        [
            "arr:float32:[[[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0], [15.0, 16.0, 17.0, 18.0, 19.0]], [[20.0, 21.0, 22.0, 23.0, 24.0], [25.0, 26.0, 27.0, 28.0, 29.0], [30.0, 31.0, 32.0, 33.0, 34.0], [35.0, 36.0, 37.0, 38.0, 39.0]], [[40.0, 41.0, 42.0, 43.0, 44.0], [45.0, 46.0, 47.0, 48.0, 49.0], [50.0, 51.0, 52.0, 53.0, 54.0], [55.0, 56.0, 57.0, 58.0, 59.0]]]]"
        ],
    ),
    (
        "lax.conv_general_dilated_patches(a0, (2, 2), (1, 1), [(1, 0), (0, 1)], "
        "lhs_dilation=(1, 2), rhs_dilation=(2, 1))",
        [
            "arr:float32:[[[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0], [10.0, 11.0, 12.0, 13.0, 14.0], [15.0, 16.0, 17.0, 18.0, 19.0]], [[20.0, 21.0, 22.0, 23.0, 24.0], [25.0, 26.0, 27.0, 28.0, 29.0], [30.0, 31.0, 32.0, 33.0, 34.0], [35.0, 36.0, 37.0, 38.0, 39.0]], [[40.0, 41.0, 42.0, 43.0, 44.0], [45.0, 46.0, 47.0, 48.0, 49.0], [50.0, 51.0, 52.0, 53.0, 54.0], [55.0, 56.0, 57.0, 58.0, 59.0]]]]"
        ],
    ),
    (
        "lax.conv_general_dilated_patches(a0, (2,), (1,), 'VALID')",
        ["arr:int32:[[[0, 1, 2, 3, 4]]]"],
    ),
    (
        "lax.conv_general_dilated_patches(a0, (2,), (1,), 'VALID')",
        ["arr:bfloat16:[[[0.5, 1.0, 2.0], [3.0, 4.0, 5.0]]]"],
    ),
    (
        "lax.conv_general_dilated_patches(a0, (2,), (1,), 'VALID', preferred_element_type=jnp.float16)",
        ["arr:float32:[[[0.5, 1.0, 2.0]]]"],
    ),
    (
        "lax.scatter_apply(a0, a1, lambda v: v * 10 + 1, lax.ScatterDimensionNumbers((), (0,), (0,)), "
        "update_shape=(3,))",
        ["arr:float32:[0.0, 1.0, 2.0, 3.0, 4.0]", "arr:int32:[[1], [3], [1]]"],
    ),
    (
        "lax.scatter_apply(a0, a1, jnp.negative, lax.ScatterDimensionNumbers((), (0,), (0,)), "
        "update_shape=(2,), mode='drop')",
        ["arr:int8:[1, 2, 3, 4]", "arr:int32:[[1], [7]]"],
    ),
    (
        "lax.scatter_apply(a0, a1, jnp.sqrt, lax.ScatterDimensionNumbers((1,), (0,), (0,)), "
        "update_shape=(2, 2))",
        ["arr:float32:[[1.0, 4.0], [16.0, 81.0], [256.0, 9.0]]", "arr:int32:[[1], [1]]"],
    ),
    (
        "lax.ragged_dot(a0, a1, a2)",
        [
            "arr:float32:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]",
            "arr:float32:[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]",
            "arr:int32:[1, 3]",
        ],
    ),
    (
        "lax.ragged_dot(a0, a1, a2)",
        [
            "arr:float32:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]",
            "arr:float32:[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]",
            "arr:int32:[1, 2]",
        ],
    ),
    (
        "lax.ragged_dot(a0, a1, a2)",
        [
            "arr:int8:[[0, 1], [3, 4], [6, 7]]",
            "arr:int8:[[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[1, 1], [1, 1]]]",
            "arr:int32:[0, 2, 1]",
        ],
    ),
    (
        "lax.ragged_dot(a0, a1, a2, preferred_element_type=jnp.float32)",
        [
            "arr:bfloat16:[[0.5, 1.0], [3.0, 4.0]]",
            "arr:bfloat16:[[[0.0, 1.0], [2.0, 3.0]]]",
            "arr:int32:[2]",
        ],
    ),
    (
        "lax.ragged_dot(a0, a1, a2)",
        [
            "arr:float32:[[0.5, 1.0], [3.0, 4.0]]",
            "arr:float32:[[[0.0, 1.0], [2.0, 3.0]]]",
            "arr:float32:[2.0]",
        ],
    ),
    (
        "lax.ragged_dot(a0, a1, a2)",
        [
            "arr:float32:[[0.5, 1.0], [3.0, 4.0]]",
            "arr:float32:[[[0.0, 1.0, 2.0]]]",
            "arr:int32:[2]",
        ],
    ),
    (
        "jax.grad(lambda l, r: lax.ragged_dot(l, r, a2).sum(), (0, 1))(a0, a1)",
        [
            "arr:float32:[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]",
            "arr:float32:[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]",
            "arr:int32:[1, 3]",
        ],
    ),
    (
        "lax.ragged_dot_general(a0, a1, a2, lax.RaggedDotDimensionNumbers((((1,), (1,)), ((), ())), (0,), (0,)))",
        [
            "arr:float32:[[0.5, 1.0], [3.0, 4.0]]",
            "arr:float32:[[[0.0, 1.0], [2.0, 3.0]]]",
            "arr:int32:[2]",
        ],
    ),
]

# -- reduce_precision over bit patterns ----------------------------------------------------------

RP_FORMATS = [(1, 0), (2, 1), (4, 3), (5, 2), (5, 10), (8, 7), (8, 23), (11, 52), (3, 30)]
RP_DTYPES = ["float16", "bfloat16", "float32", "float64"]
_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def bit_patterns(dtype_name: str) -> np.ndarray[Any, Any]:
    """Every bit pattern of a 16-bit type; for wider types 2**16 patterns spread by a golden-
    ratio multiplier, plus each sign/exponent boundary with small and large mantissas."""
    d = np.dtype(getattr(ml_dtypes, dtype_name, None) or dtype_name)
    u = _UINT[d.itemsize]
    nbits = d.itemsize * 8
    if nbits == 16:
        return np.arange(1 << 16, dtype=np.uint32).astype(u).view(d)
    mult = np.uint64(0x9E3779B97F4A7C15)
    spread = (np.arange(1 << 16, dtype=np.uint64) * mult) >> np.uint64(64 - nbits)
    nmant = int(np.finfo(d).nmant)
    exps = np.arange(1 << (nbits - 1 - nmant), dtype=np.uint64) << np.uint64(nmant)
    low = np.uint64((1 << nmant) - 1)
    edges = np.concatenate([exps, exps | np.uint64(1), exps | low, exps | (low >> np.uint64(1))])
    edges = np.concatenate([edges, edges | np.uint64(1 << (nbits - 1))])
    return np.concatenate([spread, edges]).astype(u).view(d)


def reduce_precision_hashes() -> list[dict[str, Any]]:
    out = []
    for name in RP_DTYPES:
        x = bit_patterns(name)
        for e, m in RP_FORMATS:
            y = np.asarray(jax.jit(lambda v, e=e, m=m: jax.lax.reduce_precision(v, e, m))(x))
            digest = hashlib.sha256(np.ascontiguousarray(y).tobytes()).hexdigest()
            out.append({"dtype": name, "exponent_bits": e, "mantissa_bits": m, "sha256": digest})
    return out


def run(expr: str, specs: list[str]) -> dict[str, Any]:
    import jax.lax.linalg as lax_linalg
    import jax.numpy as jnp
    import jax.scipy.linalg as linalg
    from jax import lax

    try:
        args = {f"a{i}": make_arg(s) for i, s in enumerate(specs)}
        names = {"jax": jax, "jnp": jnp, "lax": lax, "lax_linalg": lax_linalg, "linalg": linalg}
        out = eval(expr, {**names, "np": np, "inf": np.inf, **args})
    except Exception as e:
        return {"error": type(e).__name__}
    leaves = jax.tree_util.tree_leaves(out) if not isinstance(out, (bool, int)) else [out]
    return {"outputs": [leaf(x) for x in leaves], "tuple": isinstance(out, (tuple, list))}


def main() -> None:
    cases = []
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        for expr, specs in CASES:
            cases.append({"expr": expr, "args": specs, "x64": x64, "result": run(expr, specs)})
    jax.config.update("jax_enable_x64", True)
    hashes = reduce_precision_hashes()
    meta = {"jax": importlib.metadata.version("jax"), "numpy": np.__version__}
    lines = [json.dumps(c, sort_keys=True) for c in cases]
    OUT_PATH.write_text(
        '{"meta": '
        + json.dumps(meta, sort_keys=True)
        + ',\n"reduce_precision": '
        + json.dumps(hashes, sort_keys=True)
        + ',\n"cases": [\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )
    print(f"wrote {OUT_PATH} ({len(cases)} cases, {len(hashes)} reduce_precision hashes)")


if __name__ == "__main__":
    main()
