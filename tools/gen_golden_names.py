"""Golden results from real JAX for the names added by issue 14 (tests/test_golden_names.py).

Run from the repository root with a Python that has jax 0.10.2 (``make golden`` builds one)::

    python tools/gen_golden_names.py     # writes tests/golden/names.json

Each case is a Python expression over ``jnp``, ``lax``, ``special``, ``ops``, ``stats``,
``linalg`` (``jax.scipy.linalg``), ``image`` and arguments
``a0, a1, ...`` made from SPEC strings, recorded with x64 off and on: the dtype, weak flag, shape
and values (NaN/inf as strings) of every output leaf, or the exception class. SPECs:

* ``py:LITERAL`` -- a Python literal (``py:2``, ``py:2.5``, ``py:[1, 2]``);
* ``arr:DTYPE:LITERAL`` -- a strong array ``jnp.asarray(np.asarray(LITERAL, DTYPE))``;
* ``weak:LITERAL`` -- ``jnp.asarray(LITERAL)``, a weakly typed 0-d array;
* ``full3:LITERAL`` -- ``jnp.full(3, LITERAL)``, a weakly typed array with a shape.

The script must not import trellax. Its output is deterministic.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import math
from pathlib import Path
from typing import Any

import jax
import numpy as np

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "names.json"

_V = "[-2.5, -0.5, 0.0, 0.5, 1.0, 3.0]"
_P = "[0.0, 1e-07, 0.25, 0.5, 0.9, 1.0]"
_UNIT = "[-1.0, -0.999, -0.5, 0.0, 0.3, 1.0]"
_KINDS_REAL = [
    f"arr:float32:{_V}",
    "arr:int8:[-2, 0, 1, 3]",
    "arr:bool:[True, False]",
    f"arr:float16:{_V}",
    "py:2",
    "py:2.5",
    "weak:2.0",
    "full3:1.5",
]

CASES: list[tuple[str, list[str]]] = []
for fn in [
    "erf",
    "erfc",
    "gammaln",
    "digamma",
    "expit",
    "entr",
    "gamma",
    "gammasgn",
    "ndtr",
    "log_ndtr",
    "i0e",
    "i0",
    "factorial",
    "loggamma",
]:
    CASES += [(f"special.{fn}(a0)", [k]) for k in _KINDS_REAL]
CASES += [("special.log_ndtr(a0)", ["arr:float32:[-40.0, -12.0, -6.0, 0.0, 6.0, 12.0]"])]
CASES += [("special.log_ndtr(a0)", ["arr:float64:[-40.0, -12.0, -6.0, 0.0, 6.0, 12.0]"])]
for fn in ["erfinv"]:
    CASES += [
        (f"special.{fn}(a0)", [k])
        for k in [
            f"arr:float32:{_UNIT}",
            "py:0.5",
            "weak:0.5",
            f"arr:float64:{_UNIT}",
            "arr:int8:[0, 1]",
        ]
    ]
for fn in ["ndtri", "logit"]:
    CASES += [
        (f"special.{fn}(a0)", [k])
        for k in [f"arr:float32:{_P}", f"arr:float64:{_P}", "py:0.25", "weak:0.25"]
    ]
for fn in [
    "xlogy",
    "xlog1py",
    "betaln",
    "beta",
    "rel_entr",
    "kl_div",
    "poch",
    "boxcox",
    "boxcox1p",
]:
    for a, b in [
        ("arr:float32:[0.0, 0.5, 2.0, -1.0]", "arr:float32:[0.0, 2.0, 0.5, 3.0]"),
        ("arr:int8:[0, 1, 2, 3]", "py:2"),
        ("py:2", "py:3.0"),
        ("weak:2.0", "arr:float16:[1.0, 2.0]"),
        ("arr:bfloat16:[1.0]", "arr:int32:[2]"),
    ]:
        CASES.append((f"special.{fn}(a0, a1)", [a, b]))
CASES += [
    ("special.logsumexp(a0)", ["arr:float32:[1.0, 2.0, 3.0]"]),
    ("special.logsumexp(a0)", ["arr:int8:[1, 2]"]),
    ("special.logsumexp(a0)", ["weak:2.0"]),
    ("special.logsumexp(a0, axis=1, keepdims=True)", ["arr:float32:[[1.0, 2.0], [3.0, -1e30]]"]),
    ("special.logsumexp(a0)", ["arr:float32:[-inf, -inf]"]),
    ("special.logsumexp(a0, b=a1)", ["arr:float32:[1.0, 2.0]", "arr:int32:[1, -1]"]),
    (
        "special.logsumexp(a0, b=a1, return_sign=True)",
        ["arr:float32:[1.0, 2.0]", "arr:int32:[1, -1]"],
    ),
    ("special.softmax(a0)", ["arr:float32:[1.0, 2.0, 3.0]"]),
    ("special.softmax(a0, axis=0)", ["arr:int32:[[1, 2], [3, 4]]"]),
    ("special.log_softmax(a0, axis=-1)", ["arr:float16:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("special.multigammaln(a0, 3)", ["arr:float32:[2.0, 3.5]"]),
    ("special.comb(a0, a1)", ["arr:float32:[5.0, 4.0, 2.0]", "arr:float32:[2.0, 5.0, -1.0]"]),
    ("special.comb(a0, a1, repetition=True)", ["py:5", "py:2"]),
    ("special.bernoulli(6)", []),
    ("ops.segment_sum(a0, a1, 3)", ["arr:int8:[1, 2, 3, 4]", "arr:int32:[0, 0, 2, 5]"]),
    ("ops.segment_sum(a0, a1, 2)", ["full3:2.0", "arr:int32:[0, 1, 1]"]),
    ("ops.segment_max(a0, a1, 3)", ["arr:float32:[1.0, 2.0, 3.0]", "arr:int32:[0, 0, 2]"]),
    ("ops.segment_min(a0, a1, 3)", ["arr:int8:[1, 2, 3]", "arr:int32:[0, 0, 2]"]),
    ("ops.segment_prod(a0, a1)", ["arr:float32:[1.0, 2.0, 3.0]", "arr:int32:[0, 0, 2]"]),
    ("lax.full((2,), a0)", ["py:1.5"]),
    ("lax.full((2,), a0, 'int8')", ["py:3"]),
    ("lax.full_like(a0, 2)", ["full3:1.5"]),
    ("lax.full_like(a0, 2.5, shape=(2,))", ["arr:int8:[1, 2, 3]"]),
    ("lax.top_k(a0, 2)", ["arr:float32:[3.0, 1.0, 3.0, -inf]"]),
    ("lax.top_k(a0, 3)", ["arr:int8:[-128, 5, 5, 127]"]),
    ("lax.sort_key_val(a0, a1)", ["arr:int32:[3, 1, 2]", "arr:float32:[0.0, 1.0, 2.0]"]),
    ("lax.cumlogsumexp(a0)", ["arr:float32:[0.0, 1.0, -inf, 2.0]"]),
    ("lax.cumlogsumexp(a0, reverse=True)", ["arr:float32:[0.0, 1.0, 2.0]"]),
    ("lax.erf_inv(a0)", [f"arr:float32:{_UNIT}"]),
    ("lax.dynamic_slice_in_dim(a0, -2, 2)", ["arr:int32:[0, 1, 2, 3, 4]"]),
    (
        "lax.dynamic_index_in_dim(a0, 1, 1, keepdims=False)",
        ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"],
    ),
    (
        "lax.dynamic_update_index_in_dim(a0, a1, 0, 0)",
        ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:float32:[9.0, 9.0]"],
    ),
    ("lax.index_in_dim(a0, -1, 0)", ["arr:int8:[1, 2, 3]"]),
    ("lax.slice_in_dim(a0, 1, None, 2)", ["arr:int8:[1, 2, 3, 4]"]),
    ("lax.collapse(a0, 0, 2)", ["arr:int8:[[[1], [2]], [[3], [4]]]"]),
    ("lax.broadcast_to_rank(a0, 3)", ["weak:2.0"]),
    ("lax.split(a0, (1, 2))", ["arr:int8:[1, 2, 3]"]),
    ("lax.tile(a0, (2, 2))", ["arr:int8:[1, 2]"]),
    ("lax.stack([a0, a1], 1)", ["arr:int8:[1, 2]", "arr:int8:[3, 4]"]),
    ("lax.batch_matmul(a0, a1)", ["arr:float32:[[[1.0, 2.0]]]", "arr:float32:[[[3.0], [4.0]]]"]),
]
_NP = [
    ("jnp.append(a0, a1)", ["arr:int8:[1, 2]", "py:1000"]),
    ("jnp.append(a0, a1, axis=0)", ["arr:float32:[[1.0]]", "arr:int8:[[2]]"]),
    ("jnp.insert(a0, 1, a1)", ["arr:int8:[1, 2, 3]", "py:9"]),
    (
        "jnp.insert(a0, a1, 7.0, axis=0)",
        ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]", "arr:int32:[0, 2]"],
    ),
    ("jnp.delete(a0, a1)", ["arr:int8:[1, 2, 3, 4]", "arr:int32:[0, 2]"]),
    ("jnp.delete(a0, 1, axis=1)", ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("jnp.resize(a0, (2, 3))", ["arr:int8:[1, 2]"]),
    ("jnp.rollaxis(a0, 2)", ["arr:int8:[[[1, 2, 3]]]"]),
    (
        "jnp.compress(a0, a1, axis=0)",
        ["arr:bool:[True, False, True]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "jnp.extract(a0, a1)",
        ["arr:bool:[[True, False], [False, True]]", "arr:int8:[[1, 2], [3, 4]]"],
    ),
    ("jnp.choose(a0, [a1, a2])", ["arr:int32:[0, 1, 1]", "arr:int8:[1, 2, 3]", "py:5"]),
    ("jnp.select([a0], [a1], 0)", ["arr:bool:[True, False]", "arr:int8:[1, 2]"]),
    ("jnp.select([a0], [a1], a2)", ["arr:bool:[True, False]", "py:1", "py:2.5"]),
    (
        "jnp.piecewise(a0, [a1], [7, 3])",
        ["arr:float32:[0.0, 1.0, 2.0]", "arr:bool:[True, False, True]"],
    ),
    ("jnp.block([[a0, a1]])", ["arr:float32:[[1.0]]", "arr:int8:[[2]]"]),
    ("jnp.block([a0, a1])", ["py:1", "py:2.0"]),
    ("jnp.trim_zeros(a0)", ["arr:int8:[0, 1, 0, 2, 0]"]),
    ("jnp.sort_complex(a0)", ["arr:int8:[3, 1, 2]"]),
    ("jnp.sort_complex(a0)", ["arr:float64:[3.0, 1.0]"]),
    ("jnp.array_equal(a0, a1)", ["arr:float32:[1.0, nan]", "arr:int8:[1, 2]"]),
    (
        "jnp.array_equal(a0, a1, equal_nan=True)",
        ["arr:float32:[1.0, nan]", "arr:float32:[1.0, nan]"],
    ),
    ("jnp.array_equiv(a0, a1)", ["arr:float32:[1.0, 1.0]", "py:1"]),
    ("jnp.ix_(a0, a1)", ["arr:int8:[0, 1]", "arr:int32:[2]"]),
    ("jnp.indices((2, 3))", []),
    ("jnp.indices((2,), dtype='int8')", []),
    ("jnp.tril_indices(3, 1)", []),
    ("jnp.triu_indices_from(a0, -1)", ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("jnp.diag_indices(3)", []),
    ("jnp.unravel_index(a0, (2, 3))", ["arr:int32:[-7, -1, 0, 5, 6, 100]"]),
    ("jnp.unravel_index(a0, (2, 3))", ["py:4"]),
    ("jnp.unravel_index(a0, (200, 3))", ["arr:int8:[-128, 127]"]),
    (
        "jnp.ravel_multi_index((a0, a1), (2, 3), mode='clip')",
        ["arr:int32:[1, 5]", "arr:int8:[2, -1]"],
    ),
    ("jnp.ravel_multi_index((a0, a1), (2, 3))", ["py:1", "py:2"]),
    (
        "jnp.ravel_multi_index((a0, a1), (2, 3), mode='wrap')",
        ["arr:int8:[1, 5]", "arr:int8:[2, -1]"],
    ),
    ("jnp.mgrid[0:2, 0:3:2]", []),
    ("jnp.mgrid[0:1:3j]", []),
    ("jnp.ogrid[0:2.0, 0:2]", []),
    ("jnp.r_[a0, 0:2, a1]", ["arr:int8:[5]", "py:2.5"]),
    ("jnp.r_['0,2,0', a0, a1]", ["arr:float32:[1.0, 2.0]", "arr:float32:[3.0, 4.0]"]),
    ("jnp.c_[a0, a1]", ["arr:int8:[1, 2]", "arr:int32:[3, 4]"]),
    ("jnp.fill_diagonal(a0, a1, inplace=False)", ["arr:int8:[[0, 0], [0, 0]]", "py:3"]),
    ("jnp.diagflat(a0, -1)", ["arr:float32:[[1.0, 2.0]]"]),
    ("jnp.trapezoid(a0)", ["arr:int8:[1, 2, 4]"]),
    ("jnp.trapezoid(a0, a1)", ["arr:float32:[1.0, 2.0, 4.0]", "arr:float32:[0.0, 1.0, 3.0]"]),
    ("jnp.trapezoid(a0, dx=2)", ["full3:2.0"]),
    (
        "jnp.interp(a0, a1, a2)",
        [
            "arr:float32:[-1.0, 0.5, 1.0, 5.0]",
            "arr:float32:[0.0, 1.0, 2.0]",
            "arr:float32:[1.0, 3.0, 2.0]",
        ],
    ),
    ("jnp.interp(a0, a1, a2)", ["py:1.5", "arr:int32:[0, 1, 2]", "arr:int32:[0, 2, 4]"]),
    (
        "jnp.interp(a0, a1, a2, left=-1, right=9)",
        ["arr:float32:[-1.0, 5.0]", "arr:float32:[0.0, 1.0]", "arr:float32:[1.0, 3.0]"],
    ),
    (
        "jnp.interp(a0, a1, a2, period=4)",
        ["arr:float32:[-1.0, 5.0]", "arr:float32:[0.0, 1.0, 3.0]", "arr:float32:[1.0, 3.0, 0.0]"],
    ),
    ("jnp.convolve(a0, a1)", ["arr:int8:[1, 2, 3]", "arr:int8:[0, 1]"]),
    (
        "jnp.convolve(a0, a1, mode='same')",
        ["arr:float32:[1.0, 2.0, 3.0, 4.0]", "arr:float32:[1.0, -1.0, 2.0]"],
    ),
    (
        "jnp.convolve(a0, a1, mode='valid')",
        ["arr:float32:[1.0, 2.0]", "arr:float32:[1.0, -1.0, 2.0]"],
    ),
    (
        "jnp.correlate(a0, a1, mode='full')",
        ["arr:float32:[1.0, 2.0]", "arr:float32:[1.0, -1.0, 2.0]"],
    ),
    ("jnp.correlate(a0, a1)", ["arr:complex64:[1j, 2.0, 3.0]", "arr:complex64:[1.0, 1j]"]),
    ("jnp.cov(a0)", ["arr:int8:[1, 2, 4]"]),
    (
        "jnp.cov(a0, a1, rowvar=False, ddof=0)",
        ["arr:float32:[[1.0, 2.0], [3.0, 5.0], [0.0, 1.0]]", "arr:float32:[[1.0], [2.0], [0.0]]"],
    ),
    (
        "jnp.cov(a0, fweights=a1, aweights=a2)",
        [
            "arr:float32:[[1.0, 2.0, 4.0], [0.0, 1.0, 0.0]]",
            "arr:int32:[1, 2, 1]",
            "arr:float32:[0.5, 1.0, 2.0]",
        ],
    ),
    ("jnp.corrcoef(a0)", ["arr:float32:[[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]]"]),
    ("jnp.vander(a0)", ["arr:int8:[1, 2, 3]"]),
    ("jnp.vander(a0, 2, increasing=True)", ["arr:float32:[1.5, 2.0]"]),
    ("jnp.unwrap(a0)", ["arr:float32:[0.0, 3.0, 6.5, 0.1, -3.2]"]),
    ("jnp.unwrap(a0, period=4)", ["arr:int32:[0, 3, 7, 1]"]),
    ("jnp.gradient(a0)", ["arr:float32:[1.0, 2.0, 4.0, 8.0]"]),
    ("jnp.gradient(a0, 2.0)", ["arr:int8:[[1, 2, 4], [0, 1, 1]]"]),
    ("jnp.bartlett(5)", []),
    ("jnp.blackman(4)", []),
    ("jnp.hamming(3)", []),
    ("jnp.hanning(4)", []),
    ("jnp.kaiser(4, 3.0)", []),
    ("jnp.hanning(1)", []),
    ("jnp.polyval(a0, a1)", ["arr:int8:[1, 2, 3]", "py:2"]),
    ("jnp.polyval(a0, a1)", ["arr:float32:[1.0, -2.0]", "arr:float32:[0.5, 3.0]"]),
    ("jnp.polyadd(a0, a1)", ["arr:int8:[1, 2]", "arr:float32:[1.0, 3.0, 1.0]"]),
    ("jnp.polysub(a0, a1)", ["arr:int8:[1, 2]", "arr:int8:[1, 3, 1]"]),
    ("jnp.polymul(a0, a1)", ["arr:int8:[1, 2]", "arr:int8:[1, 3, 1]"]),
    ("jnp.polyder(a0, 2)", ["arr:int8:[1, 2, 3, 4]"]),
    ("jnp.polyint(a0)", ["arr:int8:[3, 2, 1]"]),
    ("jnp.polyint(a0, 2, 1.0)", ["arr:float32:[3.0, 2.0, 1.0]"]),
    ("jnp.apply_along_axis(jnp.sum, 1, a0)", ["arr:int8:[[1, 2], [3, 4]]"]),
    ("jnp.apply_along_axis(lambda v: v * 2, 0, a0)", ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("jnp.apply_over_axes(jnp.sum, a0, [0, 1])", ["arr:int8:[[1, 2], [3, 4]]"]),
    ("jnp.vectorize(lambda a, b: a + b)(a0, a1)", ["arr:int8:[1, 2]", "py:1"]),
    ("jnp.vectorize(jnp.sum, signature='(n)->()')(a0)", ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("jnp.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=int)", []),
    ("jnp.iscomplexobj(a0)", ["arr:complex64:[1.0]"]),
    ("jnp.isscalar(a0)", ["weak:2.0"]),
    ("jnp.size(a0, 1)", ["arr:int8:[[1, 2, 3]]"]),
]
CASES += _NP
_X = "arr:float32:[-1.5, 0.0, 0.5, 2.0]"
_Q = "arr:float32:[0.0, 0.1, 0.5, 0.9, 1.0]"
for dist, fns in [
    ("norm", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]),
    ("expon", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]),
    ("uniform", ["cdf", "logpdf", "pdf"]),
    ("logistic", ["cdf", "logpdf", "pdf", "sf"]),
    ("laplace", ["cdf", "logpdf", "pdf"]),
    ("cauchy", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]),
]:
    for fn in fns:
        CASES.append((f"stats.{dist}.{fn}(a0)", [_X]))
        CASES.append((f"stats.{dist}.{fn}(a0, 1, 2.0)", ["arr:int8:[-1, 0, 3]"]))
        CASES.append((f"stats.{dist}.{fn}(a0, a1)", ["py:0.5", "weak:1.0"]))
for dist in ["norm", "expon", "uniform", "logistic", "cauchy"]:
    for fn in ["ppf", "isf"] if dist in ("norm", "logistic", "cauchy") else ["ppf"]:
        CASES.append((f"stats.{dist}.{fn}(a0)", [_Q]))
        CASES.append((f"stats.{dist}.{fn}(a0, 1.0, 2)", ["py:0.25"]))
_M = "arr:float32:[[4.0, 2.0, 1.0], [2.0, 5.0, 3.0], [1.0, 3.0, 6.0]]"
_G = "arr:float32:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]"
_B = "arr:float32:[1.0, 2.0, 3.0]"
CASES += [
    ("linalg.cho_solve(linalg.cho_factor(a0), a1)", [_M, _B]),
    ("linalg.cho_solve(linalg.cho_factor(a0, lower=True), a1)", [_M, _B]),
    ("linalg.cholesky(a0)", [_M]),
    ("linalg.cholesky(a0, lower=True)", ["arr:int32:[[4, 2], [2, 5]]"]),
    ("linalg.lu_factor(a0)", [_G]),
    ("linalg.lu(a0)", [_G]),
    ("linalg.lu(a0, permute_l=True)", ["arr:float32:[[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]"]),
    ("linalg.lu_solve(linalg.lu_factor(a0), a1)", [_G, _B]),
    ("linalg.lu_solve(linalg.lu_factor(a0), a1, trans=1)", [_G, _B]),
    ("linalg.solve_triangular(a0, a1)", [_G, _B]),
    ("linalg.solve_triangular(a0, a1, lower=True, trans='T')", [_G, _B]),
    (
        "linalg.solve_triangular(a0, a1, unit_diagonal=True)",
        ["arr:int8:[[1, 2], [0, 3]]", "arr:int8:[1, 1]"],
    ),
    ("linalg.expm(a0)", ["arr:float32:[[0.0, 1.0], [-1.0, 0.0]]"]),
    ("linalg.expm(a0)", [_G]),
    ("linalg.expm(a0)", ["arr:int32:[[1, 0], [0, 2]]"]),
    ("linalg.block_diag(a0, a1)", ["arr:int8:[[1, 2]]", "py:3.0"]),
    ("linalg.toeplitz(a0, a1)", ["arr:int8:[1, 2, 3]", "arr:float32:[1.0, 4.0]"]),
    ("linalg.toeplitz(a0)", ["arr:complex64:[1.0, 2j]"]),
    ("linalg.hankel(a0)", ["arr:int8:[1, 2, 3]"]),
    ("linalg.hankel(a0, a1)", ["arr:int8:[1, 2]", "arr:int8:[2, 5, 6]"]),
    ("linalg.circulant(a0)", ["arr:float32:[1.0, 2.0, 3.0]"]),
    ("linalg.companion(a0)", ["arr:int8:[1, 2, 3]"]),
    ("linalg.hilbert(3)", []),
    ("linalg.invhilbert(3)", []),
    ("linalg.dft(3)", []),
    ("linalg.dft(2, scale='sqrtn')", []),
    ("linalg.hadamard(4)", []),
    ("linalg.helmert(3)", []),
    ("linalg.helmert(3, full=True)", []),
    ("linalg.leslie(a0, a1)", ["arr:float32:[0.1, 2.0, 1.0]", "arr:float32:[0.2, 0.8]"]),
    ("linalg.pascal(3)", []),
    ("linalg.pascal(3, 'lower')", []),
    ("linalg.invpascal(3)", []),
    ("linalg.fiedler(a0)", ["arr:int8:[1, 4, 2]"]),
    ("linalg.convolution_matrix(a0, 3)", ["arr:float32:[1.0, 2.0]"]),
    ("linalg.convolution_matrix(a0, 4, 'same')", ["arr:int8:[1, 2, 3]"]),
    ("linalg.convolution_matrix(a0, 2, 'valid')", ["arr:int8:[1, 2, 3]"]),
    ("linalg.det(a0)", [_G]),
    ("linalg.inv(a0)", ["arr:int32:[[2, 1], [1, 3]]"]),
    ("linalg.solve(a0, a1, assume_a='pos')", [_M, _B]),
    ("linalg.eigh(a0, eigvals_only=True)", [_M]),
    ("linalg.polar(a0)[0]", [_G]),
    ("linalg.polar(a0, side='left')[1]", [_M]),
    (
        "linalg.eigh_tridiagonal(a0, a1, eigvals_only=True)",
        ["arr:float32:[1.0, 2.0, 3.0]", "arr:float32:[0.5, 0.25]"],
    ),
    ("linalg.qr(a0, mode='economic')[1]", ["arr:float32:[[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]"]),
    ("linalg.svd(a0, compute_uv=False)", [_G]),
]
_IMG = "arr:float32:[[0.0, 5.0, 1.0, 7.0], [3.0, 2.0, 9.0, 4.0], [1.0, 1.0, 0.0, 8.0]]"
for method in ["nearest", "linear", "cubic", "lanczos3", "lanczos5", "area"]:
    CASES.append((f"image.resize(a0, (5, 7), '{method}')", [_IMG]))
    CASES.append((f"image.resize(a0, (2, 3), '{method}')", [_IMG]))
    CASES.append((f"image.resize(a0, (2, 3), '{method}', antialias=False)", [_IMG]))
CASES += [
    ("image.resize(a0, (5,), 'linear')", ["arr:int8:[1, 5, 2]"]),
    ("image.resize(a0, (5,), 'nearest')", ["arr:int8:[1, 5, 2]"]),
    ("image.resize(a0, (2,), 'cubic')", ["arr:float16:[1.0, 5.0, 2.0, 4.0]"]),
    ("image.resize(a0, (4,), 'linear')", ["full3:1.5"]),
    (
        "image.resize(a0, (2,), image.ResizeMethod.CUBIC_PYTORCH, antialias=False)",
        ["arr:float32:[0.0, 5.0, 1.0, 7.0, 3.0]"],
    ),
    (
        "image.resize(a0, (8,), image.ResizeMethod.CUBIC_PYTORCH)",
        ["arr:float32:[0.0, 5.0, 1.0, 7.0, 3.0]"],
    ),
    (
        "image.scale_and_translate(a0, (6,), (0,), a1, a2, 'linear')",
        ["arr:float32:[0.0, 5.0, 1.0, 7.0]", "arr:float32:[1.5]", "arr:float32:[0.5]"],
    ),
    (
        "image.scale_and_translate(a0, (3, 5), (1,), a1, a2, 'area')",
        [_IMG, "arr:float32:[0.7]", "arr:float32:[0.3]"],
    ),
    (
        "image.scale_and_translate(a0, (2, 4), (0,), a1, a2, 'lanczos3', antialias=False)",
        [_IMG, "arr:float32:[0.5]", "arr:float32:[-0.25]"],
    ),
    (
        "jnp.histogram2d(a0, a1, bins=2)",
        ["arr:float32:[1.0, 2.0, 2.5, 4.0]", "arr:float32:[0.0, 1.0, 1.0, 3.0]"],
    ),
    (
        "jnp.histogram2d(a0, a1, bins=[2, 3], density=True)",
        ["arr:int8:[1, 2, 2, 4]", "arr:int8:[0, 1, 1, 3]"],
    ),
    (
        "jnp.histogram2d(a0, a1, bins=2, weights=a2)",
        [
            "arr:float32:[1.0, 2.0, 2.5, 4.0]",
            "arr:float32:[0.0, 1.0, 1.0, 3.0]",
            "arr:float16:[1.0, 2.0, 0.5, 1.0]",
        ],
    ),
    (
        "jnp.histogram2d(a0, a1, bins=2, range=[[0, 2], [0, 2]])",
        ["arr:float32:[1.0, 2.0, 2.5, 4.0]", "arr:float32:[0.0, 1.0, 1.0, 3.0]"],
    ),
    (
        "jnp.histogramdd(a0, bins=(2, 3))",
        ["arr:float32:[[1.0, 0.0], [2.0, 1.0], [2.5, 1.0], [4.0, 3.0]]"],
    ),
    (
        "jnp.histogramdd(a0, bins=[a1, a2])",
        [
            "arr:float32:[[1.0, 0.0], [2.0, 1.0], [2.5, 1.0], [4.0, 3.0]]",
            "arr:float32:[0.0, 2.0, 4.0]",
            "arr:float32:[0.0, 0.5, 5.0]",
        ],
    ),
    ("jnp.packbits(a0)", ["arr:int32:[1, 0, 1, 1, 0, 0, 0, 0, 1]"]),
    ("jnp.packbits(a0, axis=1, bitorder='little')", ["arr:bool:[[True, False], [True, True]]"]),
    ("jnp.unpackbits(a0)", ["arr:uint8:[5, 255]"]),
    ("jnp.unpackbits(a0, axis=0, count=-3, bitorder='little')", ["arr:uint8:[[5], [3]]"]),
    ("jnp.unpackbits(a0, count=10)", ["arr:uint8:[5]"]),
    ("jnp.poly(a0)", ["arr:float32:[1.0, 2.0]"]),
    ("jnp.poly(a0)", ["arr:int8:[1, 2, -1]"]),
    ("jnp.poly(a0)", ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"]),
    ("jnp.poly(a0)", ["arr:float32:[[0.0, -1.0], [1.0, 0.0]]"]),
    ("jnp.roots(a0)", ["arr:float32:[1.0, -3.0, 2.0]"]),
    ("jnp.roots(a0)", ["arr:int32:[0, 0, 1, -6, 11, -6]"]),
    ("jnp.roots(a0, strip_zeros=False)", ["arr:float32:[1.0, 0.0, 1.0]"]),
    (
        "jnp.polyfit(a0, a1, 1)",
        ["arr:float32:[0.0, 1.0, 2.0, 3.0]", "arr:float32:[1.0, 3.0, 5.0, 7.5]"],
    ),
    (
        "jnp.polyfit(a0, a1, 2, full=True)",
        ["arr:float32:[0.0, 1.0, 2.0, 3.0, 4.0]", "arr:float32:[1.0, 2.0, 5.0, 10.0, 17.5]"],
    ),
    (
        "jnp.polyfit(a0, a1, 1, w=a2)",
        ["arr:int32:[0, 1, 2, 3]", "arr:int32:[1, 3, 5, 8]", "arr:float32:[1.0, 1.0, 2.0, 0.5]"],
    ),
    (
        "jnp.polyfit(a0, a1, 1, cov=True)",
        ["arr:float32:[0.0, 1.0, 2.0, 3.0, 4.0]", "arr:float32:[1.0, 3.0, 5.5, 7.0, 9.5]"],
    ),
    ("jnp.polydiv(a0, a1)", ["arr:float32:[1.0, -3.0, 2.0]", "arr:float32:[1.0, -1.0]"]),
    ("jnp.polydiv(a0, a1)", ["arr:int8:[2, 0, 1, 5]", "arr:int8:[2, 1]"]),
    (
        "jnp.polydiv(a0, a1, trim_leading_zeros=True)",
        ["arr:float32:[1.0, -3.0, 2.0]", "arr:float32:[1.0, -1.0]"],
    ),
    ("jnp.frompyfunc(lambda a, b: a * 2 + b, 2, 1, identity=0)(a0, 1)", ["arr:int8:[0, 1, 2]"]),
    ("jnp.frompyfunc(lambda a, b: a * 2 + b, 2, 1).reduce(a0)", ["arr:int32:[0, 1, 2, 3]"]),
    (
        "jnp.frompyfunc(lambda a, b: a * 2 + b, 2, 1).reduce(a0, axis=1, keepdims=True, initial=1.5)",
        ["arr:float32:[[1.0, 2.0], [3.0, 4.0]]"],
    ),
    ("jnp.frompyfunc(lambda a, b: a - b, 2, 1).accumulate(a0)", ["arr:int32:[5, 1, 2, 3]"]),
    (
        "jnp.frompyfunc(lambda a, b: a * b, 2, 1).outer(a0, a1)",
        ["arr:int8:[1, 2]", "arr:float32:[1.0, 2.0, 3.0]"],
    ),
    (
        "jnp.frompyfunc(lambda a, b: a * 2 + b, 2, 1).at(a0, a1, 5, inplace=False)",
        ["arr:int32:[0, 1, 2, 3]", "arr:int32:[0, 0, 2]"],
    ),
    (
        "jnp.frompyfunc(lambda a, b: a + b, 2, 1).reduceat(a0, a1)",
        ["arr:int32:[0, 1, 2, 3, 4]", "arr:int32:[0, 3, 1]"],
    ),
    (
        "jnp.linalg.tensorinv(a0, 1)",
        [
            "arr:float32:[[[2.0, 0.0], [0.0, 0.0]], [[0.0, 2.0], [0.0, 0.0]], [[0.0, 0.0], [2.0, 0.0]], [[0.0, 0.0], [0.0, 2.0]]]"
        ],
    ),
    ("jnp.linalg.tensorinv(a0, 1)", ["arr:int32:[[1, 2], [3, 4]]"]),
    (
        "jnp.linalg.tensorsolve(a0, a1)",
        [
            "arr:float32:[[[2.0, 0.0], [1.0, 0.0]], [[0.0, 2.0], [0.0, 1.0]]]",
            "arr:float32:[1.0, 2.0]",
        ],
    ),
    (
        "jnp.linalg.tensorsolve(a0, a1, axes=(0,))",
        [
            "arr:float32:[[[2.0, 0.0], [1.0, 0.0]], [[0.0, 2.0], [0.0, 1.0]]]",
            "arr:float32:[1.0, 2.0]",
        ],
    ),
]


_X4 = "arr:float32:[[[[0.5, -1.0, 2.0, 0.0], [1.5, 3.0, -0.5, 1.0], [0.0, 2.0, 1.0, -2.0]]]]"
_K4 = "arr:float32:[[[[1.0, -1.0], [0.5, 2.0]]], [[[0.0, 1.0], [1.0, 0.0]]]]"
_X3 = "arr:float32:[[[1.0, 2.0, 3.0, 4.0, 5.0], [0.0, -1.0, 2.0, 1.0, 3.0]]]"
_K3 = "arr:float32:[[[1.0, 0.5]], [[-1.0, 2.0]]]"
CASES += [
    ("lax.conv(a0, a1, (1, 1), 'VALID')", [_X4, _K4]),
    ("lax.conv(a0, a1, (1, 2), 'SAME')", [_X4, _K4]),
    (
        "lax.conv_general_dilated(a0, a1, (1,), [(1, 2)], (2,), (2,))",
        [_X3, "arr:float32:[[[1.0, 0.5], [2.0, -1.0]]]"],
    ),
    ("lax.conv_general_dilated(a0, a1, (2,), 'SAME_LOWER', feature_group_count=2)", [_X3, _K3]),
    (
        "lax.conv_general_dilated(a0, a1, (1,), 'VALID', batch_group_count=1, "
        "dimension_numbers=('NWC', 'WIO', 'NWC'))",
        [
            "arr:float32:[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]",
            "arr:float32:[[[1.0, 0.0, 2.0]], [[0.5, 1.0, -1.0]]]",
        ],
    ),
    (
        "lax.conv_general_dilated(a0, a1, (1, 1), 'VALID', preferred_element_type='float32')",
        ["arr:float16:[[[[1.0, 2.0], [3.0, 4.0]]]]", "arr:float16:[[[[1.0]]]]"],
    ),
    (
        "lax.conv(a0, a1, (1, 1), 'VALID')",
        ["arr:int32:[[[[1, 2], [3, 4]]]]", "arr:int32:[[[[2]]]]"],
    ),
    (
        "lax.conv(a0, a1, (1, 1), 'VALID')",
        ["arr:float32:[[[[1.0, 2.0], [3.0, 4.0]]]]", "arr:int32:[[[[2]]]]"],
    ),
    (
        "lax.conv_transpose(a0, a1, (2,), 'SAME')",
        ["arr:float32:[[[1.0], [2.0], [3.0]]]", "arr:float32:[[[1.0]], [[0.5]], [[-1.0]]]"],
    ),
    (
        "lax.conv_transpose(a0, a1, (2,), 'VALID', transpose_kernel=True)",
        ["arr:float32:[[[1.0], [2.0], [3.0]]]", "arr:float32:[[[1.0]], [[0.5]], [[-1.0]]]"],
    ),
    (
        "lax.conv_transpose(a0, a1, (1, 2), [(0, 1), (1, 1)], rhs_dilation=(1, 1))",
        [
            "arr:float32:[[[[1.0], [2.0]], [[3.0], [4.0]]]]",
            "arr:float32:[[[[1.0]], [[2.0]]], [[[0.5]], [[-1.0]]]]",
        ],
    ),
    ("lax.conv_dimension_numbers((1, 3, 5, 5), (2, 3, 3, 3), ('NHWC', 'HWIO', 'NHWC'))", []),
    (
        "lax.conv_general_shape_tuple((1, 5, 5, 3), (3, 3, 3, 4), (2, 2), 'SAME', ('NHWC', 'HWIO', 'NHWC'))",
        [],
    ),
    ("lax.padtype_to_pads((5, 6), (3, 2), (2, 2), 'SAME')", []),
    ("lax.reduce(a0, 0.0, lax.add, (1,))", ["arr:float32:[[3.0, 1.0, 4.0], [1.0, 5.0, 9.0]]"]),
    ("lax.reduce(a0, -128, lax.max, (0,))", ["arr:int32:[[3, 1, 4], [1, 5, 9]]"]),
    (
        "lax.reduce(a0, 1.0, lambda a, b: a * b + 1, (0, 1))",
        ["arr:float32:[[3.0, 1.0], [4.0, 1.0]]"],
    ),
    (
        "lax.reduce((a0, a1), (0.0, 1), lambda a, b: (a[0] + b[0], a[1] * b[1]), (1,))",
        ["arr:float32:[[3.0, 1.0], [4.0, 1.0]]", "arr:int32:[[3, 1], [4, 2]]"],
    ),
    (
        "lax.reduce_window(a0, -inf, lax.max, (1, 2), (1, 2), 'VALID')",
        ["arr:float32:[[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0]]"],
    ),
    (
        "lax.reduce_window(a0, 0.0, lax.add, (2, 2), (1, 1), 'SAME')",
        ["arr:float32:[[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0]]"],
    ),
    (
        "lax.reduce_window(a0, 0, lax.add, (1, 2), (1, 1), ((0, 0), (1, 1)), (1, 2), (1, 1))",
        ["arr:int32:[[3, 1, 4], [5, 9, 2]]"],
    ),
    (
        "lax.reduce_window(a0, 1.0, lax.mul, (2,), (1,), 'VALID', None, (2,))",
        ["arr:float32:[1.0, 2.0, 3.0, 4.0, 5.0]"],
    ),
    ("lax.reduce_window_shape_tuple((5, 6), (2, 3), (2, 1), ((1, 0), (0, 2)), (1, 2), (2, 1))", []),
    ("lax.associative_scan(lax.add, a0)", ["arr:float32:[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]"]),
    ("lax.associative_scan(lax.mul, a0, reverse=True)", ["arr:int32:[1, 2, 3, 4, 5]"]),
    (
        "lax.associative_scan(lambda a, b: (a[0] * b[0], a[1] + b[1]), (a0, a1), axis=1)",
        ["arr:float32:[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]", "arr:int32:[[1, 2, 3], [4, 5, 6]]"],
    ),
    ("lax.approx_max_k(a0, 2)", ["arr:float32:[[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0]]"]),
    ("lax.approx_min_k(a0, 2, reduction_dimension=0)", ["arr:int32:[[3, 1, 4], [5, 0, 2]]"]),
    ("lax.optimization_barrier((a0, a1))", ["arr:int8:[1, 2]", "py:1.5"]),
    (
        "lax.mulhi(a0, a1)",
        ["arr:int32:[1073741824, -5, -2147483648]", "arr:int32:[8, 2147483647, -2147483648]"],
    ),
    ("lax.mulhi(a0, a1)", ["arr:uint8:[200, 3]", "arr:uint8:[200, 100]"]),
    (
        "lax.mulhi(a0, a1)",
        [
            "arr:int64:[-9223372036854775807, 123456789012345]",
            "arr:int64:[9223372036854775807, -987654321098765]",
        ],
    ),
    ("lax.broadcast_like(a0, a1)", ["arr:int8:[1, 2]", "arr:float32:[[0.0, 0.0], [0.0, 0.0]]"]),
    ("lax.broadcast_like(a0, a1)", ["weak:1.5", "arr:float32:[0.0, 0.0]"]),
]

for expr in ["special.gammainc(a0, a1)", "special.gammaincc(a0, a1)"]:
    CASES.append(
        (
            expr,
            [
                "arr:float32:[0.5, 1.0, 3.0, 10.0, 0.1, 2.0, 0.0, -1.0, 2.0]",
                "arr:float32:[0.2, 1.0, 2.5, 30.0, 5.0, 0.0, 1.0, 1.0, inf]",
            ],
        )
    )
    CASES.append(
        (expr, ["arr:float64:[0.5, 3.0, 50.0, 100.0]", "arr:float64:[0.2, 2.5, 45.0, 120.0]"])
    )
    CASES.append((expr, ["py:2", "py:3"]))
    CASES.append((expr, ["arr:int8:[2]", "py:3"]))
_XS = "arr:float32:[-1.0, 0.0, 0.5, 2.0]"
for dist, fns, extra in [
    ("gamma", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"], "2.0"),
    ("chi2", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"], "3"),
    ("t", ["logpdf", "pdf"], "3"),
    ("pareto", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"], "2.0"),
]:
    for fn in fns:
        CASES.append((f"stats.{dist}.{fn}(a0, {extra})", [_XS]))
        CASES.append((f"stats.{dist}.{fn}(a0, {extra}, 1, 2.0)", ["arr:int8:[-1, 0, 3, 5]"]))
        CASES.append((f"stats.{dist}.{fn}(a0, a1)", ["py:1.5", "weak:2.0"]))
for dist in ["gumbel_r", "gumbel_l"]:
    for fn in ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]:
        CASES.append((f"stats.{dist}.{fn}(a0)", [_XS]))
        CASES.append((f"stats.{dist}.{fn}(a0, 1, 2.0)", ["arr:int8:[-1, 0, 3]"]))
        CASES.append((f"stats.{dist}.{fn}(a0, a1)", ["py:0.5", "weak:1.0"]))
    CASES.append((f"stats.{dist}.ppf(a0)", ["arr:float32:[0.0, 0.1, 0.5, 0.9, 1.0]"]))
CASES.append(("stats.pareto.ppf(a0, 2.0)", ["arr:float32:[0.0, 0.1, 0.5, 0.9, 1.0]"]))
for fn in ["logpmf", "pmf", "cdf"]:
    CASES.append((f"stats.poisson.{fn}(a0, 2.0)", ["arr:float32:[0.0, 3.0, -1.0, 2.5]"]))
    CASES.append((f"stats.poisson.{fn}(a0, a1)", ["arr:int32:[0, 1, 4]", "py:1.5"]))
    CASES.append((f"stats.poisson.{fn}(a0, a1, 1)", ["py:2", "weak:1.5"]))
for fn in ["logpmf", "pmf"]:
    CASES.append((f"stats.bernoulli.{fn}(a0, 0.3)", ["arr:int32:[0, 1, 2, -1]"]))
    CASES.append((f"stats.bernoulli.{fn}(a0, a1)", ["py:1", "weak:0.25"]))
    CASES.append((f"stats.geom.{fn}(a0, 0.3)", ["arr:int32:[0, 1, 3]"]))
    CASES.append((f"stats.geom.{fn}(a0, a1, 1)", ["py:2", "weak:0.25"]))
CASES += [
    ("stats.bernoulli.cdf(a0, 0.3)", ["arr:float32:[-1.0, 0.0, 0.5, 1.0, 2.0]"]),
    ("stats.bernoulli.cdf(a0, a1)", ["py:0", "arr:float32:[0.3, 1.5, -0.1]"]),
    ("stats.bernoulli.ppf(a0, 0.3)", ["arr:float32:[0.0, 0.5, 0.7, 0.8, 1.0, 1.5]"]),
    (
        "stats.multivariate_normal.logpdf(a0, a1, a2)",
        [
            "arr:float32:[0.5, 1.0]",
            "arr:float32:[0.0, 0.0]",
            "arr:float32:[[2.0, 0.5], [0.5, 1.0]]",
        ],
    ),
    (
        "stats.multivariate_normal.logpdf(a0, a1, a2)",
        [
            "arr:float32:[[0.5, 1.0], [1.0, -1.0], [0.0, 0.0]]",
            "arr:float32:[0.1, 0.0]",
            "arr:float32:[[2.0, 0.5], [0.5, 1.0]]",
        ],
    ),
    (
        "stats.multivariate_normal.pdf(a0, a1, a2)",
        ["arr:int32:[1, 2]", "arr:float32:[0.0, 1.0]", "arr:float32:[[1.0, 0.0], [0.0, 2.0]]"],
    ),
    (
        "stats.multivariate_normal.logpdf(a0, a1, a2)",
        ["arr:float32:[0.5, 1.0]", "arr:float32:[0.0, 0.0]", "py:2.0"],
    ),
]


def make_arg(spec: str) -> Any:
    import jax.numpy as jnp

    kind, _, rest = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(rest)
    if kind == "arr":
        dtype, _, literal = rest.partition(":")
        value = eval(literal, {"nan": np.nan, "inf": np.inf})
        return jnp.asarray(np.asarray(value, dtype=dtype))
    if kind == "weak":
        return jnp.asarray(ast.literal_eval(rest))
    if kind == "full3":
        return jnp.full(3, ast.literal_eval(rest))
    raise ValueError(spec)


def encode(v: Any) -> Any:
    if isinstance(v, complex):
        return [encode(v.real), encode(v.imag)]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def leaf(x: Any) -> dict[str, Any]:
    if isinstance(x, (bool, int, float)) and not hasattr(x, "dtype"):
        return {"python": type(x).__name__, "value": encode(x)}
    a = np.asarray(x)
    values = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64).ravel().tolist()
    return {
        "dtype": str(a.dtype),
        "weak_type": bool(getattr(x, "weak_type", False)),
        "shape": list(a.shape),
        "values": [encode(v) for v in values],
    }


def run(expr: str, specs: list[str]) -> dict[str, Any]:
    import jax.image as image
    import jax.numpy as jnp
    import jax.ops as ops
    import jax.scipy.linalg as linalg
    import jax.scipy.special as special
    import jax.scipy.stats as stats
    from jax import lax

    try:
        args = {f"a{i}": make_arg(s) for i, s in enumerate(specs)}
        names = {
            "jnp": jnp,
            "lax": lax,
            "special": special,
            "ops": ops,
            "stats": stats,
            "inf": np.inf,
        }
        out = eval(expr, {**names, "linalg": linalg, "image": image, **args})
    except Exception as e:
        return {"error": type(e).__name__}
    leaves = jax.tree_util.tree_leaves(out) if not isinstance(out, (bool, int)) else [out]
    return {"outputs": [leaf(x) for x in leaves], "tuple": isinstance(out, (tuple, list))}


def write(out_path: Path, case_specs: list[tuple[str, list[str]]]) -> None:
    """Runs every case with x64 off, then on, and writes them, one JSON line per case."""
    cases = []
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        for expr, specs in case_specs:
            cases.append({"expr": expr, "args": specs, "x64": x64, "result": run(expr, specs)})
    meta = {"jax": importlib.metadata.version("jax"), "numpy": np.__version__}
    lines = [json.dumps(c, sort_keys=True) for c in cases]
    out_path.write_text(
        '{"meta": '
        + json.dumps(meta, sort_keys=True)
        + ',\n"cases": [\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )
    print(f"wrote {out_path} ({len(cases)} cases)")


def main() -> None:
    write(OUT_PATH, CASES)


if __name__ == "__main__":
    main()
