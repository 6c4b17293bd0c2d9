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
