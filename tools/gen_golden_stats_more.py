"""Golden results from real JAX for the ``jax.scipy.stats`` names of issue 14's second batch
(tests/test_golden_stats_more.py): ``dirichlet``, ``gennorm``, ``multinomial``, ``truncnorm``,
``vonmises``, ``wrapcauchy``, ``poisson.entropy``, ``gaussian_kde``, ``mode``, ``rankdata`` and
``sem``.

Run from the repository root with a Python that has jax 0.10.2 (``make golden`` builds one)::

    python tools/gen_golden_stats_more.py     # writes tests/golden/stats_more.json

Cases are expressions as in ``tools/gen_golden_names.py`` (same argument SPECs, same record of
every output leaf's dtype, weak flag, shape and values, or the exception class), evaluated over
``jnp``, ``stats`` (``jax.scipy.stats``), ``jax`` (for ``jit``, ``grad``, ``tree_util``) and
``random`` (``jax.random``), with x64 off and on. The script must not import trellax. Its output
is deterministic.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path
from typing import Any

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_golden_names import leaf, make_arg

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "stats_more.json"

_F32 = "arr:float32:[-inf, -2.5, -0.5, 0.0, 0.5, 3.0, inf, nan]"
_SCALARS = [("py:0.5", "weak:1.5"), ("py:2", "py:1"), ("weak:0.5", "full3:1.5")]
CASES: list[tuple[str, list[str]]] = []


def add(expr: str, *specs: str) -> None:
    CASES.append((expr, list(specs)))


# -- gennorm (x, beta)
for fn in ["logpdf", "pdf", "cdf"]:
    e = f"stats.gennorm.{fn}(a0, a1)"
    add(f"stats.gennorm.{fn}(a0, 2.0)", _F32)
    add(e, "arr:float32:[[-1.5], [0.0], [2.0]]", "arr:float32:[0.5, 1.0, 2.0, 8.0]")
    add(e, "arr:float32:[1.0, 1.0, 1.0, 1.0, 1.0]", "arr:float32:[0.0, -1.0, nan, inf, 1e-3]")
    add(e, "arr:int8:[-2, 0, 1, 3]", "py:1")
    add(e, "arr:float16:[-2.0, 0.0, 0.5]", "py:1.5")
    add(e, "arr:float64:[-2.0, 0.0, 0.5]", "arr:float32:[1.5]")
    for s in _SCALARS:
        add(e, *s)
add("stats.gennorm.cdf(a0, a1)", "arr:float32:[-0.0, 0.0]", "py:2.0")
add("stats.gennorm.logpdf(a0, a1)", "arr:complex64:[1.0]", "py:2.0")

# -- vonmises (x, kappa)
for fn in ["logpdf", "pdf"]:
    e = f"stats.vonmises.{fn}(a0, a1)"
    add(f"stats.vonmises.{fn}(a0, 2.0)", _F32)
    add(
        e,
        "arr:float32:[[0.0], [3.14159265], [7.0], [-1.0]]",
        "arr:float32:[-1.0, 0.0, 1e-3, 0.5, 1.0, 50.0, 1000.0, inf, nan]",
    )
    add(e, "arr:int8:[-2, 0, 1, 3]", "py:1")
    add(e, "arr:float16:[-2.0, 0.0, 0.5]", "py:1.5")
    add(e, "arr:float64:[-2.0, 0.0, 0.5]", "arr:float32:[1.5]")
    for s in _SCALARS:
        add(e, *s)

# -- wrapcauchy (x, c)
for fn in ["logpdf", "pdf"]:
    e = f"stats.wrapcauchy.{fn}(a0, a1)"
    add(f"stats.wrapcauchy.{fn}(a0, 0.5)", _F32)
    add(
        e,
        "arr:float32:[[-0.1], [0.0], [1.0], [6.283185307], [6.3], [nan]]",
        "arr:float32:[-0.5, 0.0, 0.25, 0.99, 1.0, nan]",
    )
    add(e, "arr:int8:[-2, 0, 1, 3, 7]", "py:0.5")
    add(e, "arr:float16:[0.0, 0.5, 3.0]", "py:0.25")
    add(e, "arr:float64:[0.0, 0.5, 3.0]", "arr:float32:[0.25]")
    add(e, "py:1.0", "weak:0.5")
    add(e, "py:2", "py:0.5")
    add(e, "weak:0.5", "full3:0.5")

# -- truncnorm (x, a, b, loc=0, scale=1)
_TX = "arr:float32:[-inf, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, inf, nan]"
for fn in ["logpdf", "pdf", "logcdf", "cdf", "logsf", "sf"]:
    e = f"stats.truncnorm.{fn}"
    add(f"{e}(a0, -1.0, 2.0)", _TX)
    add(f"{e}(a0, -1.0, 2.0, 0.5, 2.0)", _TX)
    add(f"{e}(a0, 5.0, 6.0)", "arr:float32:[4.0, 5.0, 5.1, 5.5, 6.0, 7.0]")
    add(f"{e}(a0, -8.0, -7.0)", "arr:float32:[-9.0, -8.0, -7.9, -7.5, -7.0, -6.0]")
    add(f"{e}(a0, 30.0, inf)", "arr:float32:[29.0, 30.0, 30.5, 40.0]")
    add(f"{e}(a0, -inf, inf)", "arr:float32:[-inf, -1.0, 0.0, 2.0, inf]")
    add(f"{e}(a0, -1.0, 1.0, 0.0, -1.0)", "arr:float32:[-0.5, 0.5]")
    add(
        f"{e}(0.5, a0, a1)",
        "arr:float32:[[-1.0], [0.0], [1.0], [2.0], [nan]]",
        "arr:float32:[-1.0, 0.5, 1.0, 3.0, nan]",
    )
    add(f"{e}(a0, -1, 2, a1, 2)", "arr:int8:[-2, 0, 1, 3]", "arr:float32:[0.5]")
    add(f"{e}(a0, -1.0, 1.0)", "arr:float16:[-0.5, 0.0, 0.5]")
    add(f"{e}(a0, -1.0, 1.0)", "arr:float64:[-0.5, 0.0, 0.5]")
    add(f"{e}(a0, a1, 1.5)", "py:0.5", "weak:-1.0")
    add(f"{e}(a0, a1, 1)", "py:0", "py:-1")
    add(f"{e}(a0, a1, 1.5)", "full3:0.5", "weak:-1.0")
add("jax.jit(stats.truncnorm.logpdf)(a0, a1, 1.5)", "py:0.5", "py:-1.0")
add("jax.jit(stats.truncnorm.cdf)(a0, -1.0, 2.0)", _TX)

# -- dirichlet (x, alpha)
_ALPHA = "arr:float32:[1.0, 2.0, 3.0]"
for fn in ["logpdf", "pdf"]:
    e = f"stats.dirichlet.{fn}(a0, a1)"
    add(e, "arr:float32:[0.2, 0.3, 0.5]", _ALPHA)
    add(e, "arr:float32:[0.2, 0.3]", _ALPHA)
    add(e, "arr:float32:[0.2, 0.3, 0.6]", _ALPHA)
    add(e, "arr:float32:[0.0, 0.5, 0.5]", _ALPHA)
    add(e, "arr:float32:[0.0, 0.5, 0.5]", "arr:float32:[1.0, 1.0, 1.0]")
    add(e, "arr:float32:[-0.1, 0.6, 0.5]", _ALPHA)
    add(e, "arr:float32:[nan, 0.5, 0.5]", _ALPHA)
    add(e, "arr:float32:[[0.2, 0.1], [0.3, 0.1], [0.5, 0.8]]", _ALPHA)
    add(e, "arr:float32:[[[0.2], [0.1]], [[0.3], [0.1]]]", _ALPHA)
    add(e, "arr:float32:[0.2, 0.3, 0.5]", "arr:float32:[0.5, 0.5, -1.0]")
    add(e, "arr:float16:[0.25, 0.25, 0.5]", _ALPHA)
    add(e, "arr:float64:[0.25, 0.25, 0.5]", _ALPHA)
    add(e, "arr:float32:[0.25, 0.25, 0.5]", "arr:int32:[1, 2, 3]")
    add(e, "py:[0.25, 0.25, 0.5]", "py:[1.0, 2.0, 3.0]")
    add(e, "arr:float32:[0.2, 0.3, 0.5]", "arr:float32:[[1.0, 2.0, 3.0]]")
    add(e, "arr:float32:[0.2, 0.3, 0.5, 0.0]", _ALPHA)
    add(e, "arr:float32:[0.5]", _ALPHA)
    add(e, "py:0.5", "arr:float32:[1.0, 2.0]")
add("stats.dirichlet.logpdf(a0, a1)", "arr:float32:[]", "arr:float32:[2.0]")

# -- multinomial (x, n, p)
for fn in ["logpmf", "pmf"]:
    e = f"stats.multinomial.{fn}(a0, a1, a2)"
    add(e, "arr:int32:[1, 2, 3]", "py:6", "arr:float32:[0.2, 0.3, 0.5]")
    add(e, "arr:int32:[1, 2, 3]", "py:7", "arr:float32:[0.2, 0.3, 0.5]")
    add(e, "arr:int32:[0, 6, 0]", "py:6", "arr:float32:[0.0, 1.0, 0.0]")
    add(e, "arr:int32:[1, 5, 0]", "py:6", "arr:float32:[0.0, 1.0, 0.0]")
    add(e, "arr:int8:[[1, 2], [3, 0]]", "arr:int8:[3, 3]", "arr:float32:[0.5, 0.5]")
    add(e, "arr:int8:[[1, 2], [3, 0]]", "py:6", "arr:float32:[0.5, 0.5]")
    add(e, "arr:int32:[1, 1]", "py:2", "arr:int32:[1, 1]")
    add(e, "arr:int32:[1, 1]", "py:2", "py:[0.5, 0.5]")
    add(e, "arr:int32:[1, 1]", "py:2", "arr:float16:[0.25, 0.75]")
    add(e, "arr:int32:[1, 1]", "py:2", "arr:float64:[0.25, 0.75]")
    add(e, "arr:int32:[1, 1]", "py:2", "arr:float32:[0.5, nan]")
    add(e, "arr:float32:[1.0, 1.0]", "py:2", "arr:float32:[0.5, 0.5]")
    add(e, "arr:int32:[1, 1]", "py:2.0", "arr:float32:[0.5, 0.5]")
    add(e, "arr:bool:[True, True]", "py:2", "arr:float32:[0.5, 0.5]")
    add(e, "arr:int32:[-1, 3]", "py:2", "arr:float32:[0.5, 0.5]")
    add(e, "py:[1, 1]", "py:2", "weak:0.5")

# -- poisson.entropy (mu, loc=0)
_MU = "arr:float32:[0.0, 0.5, 1.0, 5.0, 9.99, 10.0, 37.5, 99.5, 100.0, 1000.0, -1.0, nan, inf]"
add("stats.poisson.entropy(a0)", _MU)
add("stats.poisson.entropy(a0)", _MU.replace("float32", "float64"))
add("stats.poisson.entropy(a0, a1)", "arr:float32:[2.0, 20.0]", "arr:float32:[[0.0], [1.0], [3.0]]")
add("stats.poisson.entropy(a0, a1)", "arr:float32:[[2.0], [20.0]]", "arr:int8:[1, 2, 3]")
add("stats.poisson.entropy(a0)", "arr:int32:[0, 1, 7, 50, 500]")
add("stats.poisson.entropy(a0)", "arr:float16:[0.5, 5.0, 50.0, 500.0]")
add("stats.poisson.entropy(a0)", "arr:float32:[]")
add("stats.poisson.entropy(a0)", "arr:float32:[[0.5, 2.0], [30.0, 300.0]]")
for s in [("py:3.0",), ("py:3",), ("weak:3.0",), ("full3:3.0",), ("py:3.0", "py:1")]:
    add("stats.poisson.entropy(" + ", ".join(f"a{i}" for i in range(len(s))) + ")", *s)
add("stats.poisson.entropy(a0)", "arr:complex64:[1.0]")
add("stats.poisson.entropy(a0)", "py:[1.0, 2.0]")

# -- mode(a, axis=0, nan_policy='propagate', keepdims=False)
_M2 = "arr:int32:[[1, 2, 2, 3], [4, 4, 1, 1], [3, 2, 2, 1]]"
_MF = "arr:float32:[[1.0, nan, nan], [2.0, 2.0, 0.5], [inf, -inf, inf]]"
for a in [
    _M2,
    _MF,
    "arr:float16:[[1.0, 1.0], [0.5, 2.0]]",
    "arr:bool:[[True, False], [True, True]]",
]:
    for kw in ["", ", axis=1", ", axis=-1", ", axis=None", ", keepdims=True"]:
        add(f"stats.mode(a0{kw})", a)
    add("stats.mode(a0, axis=None, keepdims=True)", a)
add("stats.mode(a0)", "arr:float32:[3.0, 1.0, 3.0, 1.0, 2.0]")
add("stats.mode(a0)", "arr:float32:[-0.0, 0.0, 1.0]")
add("stats.mode(a0)", "arr:float32:[]")
add("stats.mode(a0, axis=1)", "arr:float32:[[], []]")
add("stats.mode(a0)", "arr:float64:[1.0, 2.0, 2.0]")
add("stats.mode(a0)", "arr:uint8:[1, 200, 200]")
add("stats.mode(a0)", "arr:int32:[[[1, 2], [1, 3]], [[1, 2], [2, 3]]]")
add("stats.mode(a0, axis=1)", "arr:int32:[[[1, 2], [1, 3]], [[1, 2], [2, 3]]]")
add("stats.mode(a0)", "py:3")
add("stats.mode(a0)", "weak:2.5")
add("stats.mode(a0)", "full3:2.5")
add("stats.mode(a0)", "py:[1, 2, 2]")
add("stats.mode(a0, axis=2)", _M2)
add("stats.mode(a0, nan_policy='omit')", _M2)
add("stats.mode(a0, nan_policy='raise')", _M2)
add("stats.mode(a0, nan_policy='bad')", _M2)
add("stats.mode(a0).count", _M2)
add("jax.jit(stats.mode, static_argnames=('axis',))(a0, axis=1)", _M2)

# -- rankdata(a, method='average', *, axis=None, nan_policy='propagate')
_R = "arr:float32:[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0]"
_R2 = "arr:int32:[[3, 1, 3], [2, 2, 1]]"
for method in ["average", "min", "max", "dense", "ordinal"]:
    for a in [_R, _R2, "arr:float32:[1.0, nan, 0.0]", "arr:int8:[5]", "arr:float32:[]"]:
        add(f"stats.rankdata(a0, {method!r})", a)
    add(f"stats.rankdata(a0, {method!r}, axis=0)", _R2)
    add(f"stats.rankdata(a0, {method!r}, axis=-1)", _R2)
    add(f"stats.rankdata(a0, method={method!r})", "arr:float32:[-0.0, 0.0, -inf, inf, -inf]")
add("stats.rankdata(a0, axis=1)", "arr:float32:[[1.0, nan], [2.0, 1.0]]")
add("stats.rankdata(a0)", "arr:bool:[True, False, True]")
add("stats.rankdata(a0)", "arr:float16:[0.5, 0.25, 0.5]")
add("stats.rankdata(a0)", "arr:float64:[0.5, 0.25, 0.5]")
add("stats.rankdata(a0)", "py:[2, 1, 2]")
add("stats.rankdata(a0)", "py:3")
add("stats.rankdata(a0)", "weak:3.0")
add("stats.rankdata(a0)", "full3:3.0")
add("stats.rankdata(a0, 'bogus')", _R)
add("stats.rankdata(a0, nan_policy='omit')", _R)
add("stats.rankdata(a0, nan_policy='raise')", _R)
add("stats.rankdata(a0, nan_policy='bad')", _R)
add("stats.rankdata(a0, axis=2)", _R2)
add("jax.jit(stats.rankdata, static_argnames=('method',))(a0, method='min')", _R)

# -- sem(a, axis=0, ddof=1, nan_policy='propagate', *, keepdims=False)
_S2 = "arr:float32:[[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]]"
for a in [_S2, "arr:int32:[[1, 2, 4], [3, 5, 9]]", "arr:float16:[[1.0, 2.0], [0.5, 3.0]]"]:
    for kw in ["", ", axis=1", ", axis=None", ", axis=-1, keepdims=True", ", ddof=0"]:
        add(f"stats.sem(a0{kw})", a)
_SN = "arr:float32:[[1.0, nan, 4.0], [3.0, 5.0, nan], [2.0, 2.5, nan]]"
for kw in [
    "",
    ", nan_policy='omit'",
    ", axis=1, nan_policy='omit'",
    ", axis=None, nan_policy='omit'",
]:
    add(f"stats.sem(a0{kw})", _SN)
add("stats.sem(a0, nan_policy='omit', keepdims=True)", _SN)
add("stats.sem(a0, nan_policy='raise')", _SN)
add("stats.sem(a0, nan_policy='bad')", _SN)
add("stats.sem(a0)", "arr:float32:[1.0]")
add("stats.sem(a0)", "arr:float32:[]")
add("stats.sem(a0)", "arr:float32:[1.0, inf, 3.0]")
add("stats.sem(a0)", "arr:float64:[1.0, 2.0, 4.0]")
add("stats.sem(a0)", "arr:bool:[True, False, True]")
add("stats.sem(a0)", "py:[1.0, 2.0, 4.0]")
add("stats.sem(a0, axis=None)", "py:3.0")
add("stats.sem(a0, axis=None)", "weak:3.0")
add("stats.sem(a0)", "full3:3.0")
add("stats.sem(a0, axis=2)", _S2)
add("stats.sem(a0)", "arr:complex64:[1.0, 2.0]")
add("jax.jit(stats.sem, static_argnames=('axis',))(a0, axis=1)", _S2)

# -- gaussian_kde
_D1 = "arr:float32:[-1.0, 0.5, 0.7, 2.0, 3.5]"
_D2 = "arr:float32:[[-1.0, 0.5, 0.7, 2.0, 3.5], [0.0, 1.0, -0.5, 2.5, 1.0]]"
_P1 = "arr:float32:[-2.0, 0.0, 0.6, 4.0, inf, nan]"
_P2 = "arr:float32:[[0.0, 1.0, 2.0], [0.5, 0.5, -1.0]]"
_W = "arr:float32:[1.0, 2.0, 1.0, 0.5, 0.5]"
K = "stats.gaussian_kde"
for ctor in [f"{K}(a0)", f"{K}(a0, 'silverman')", f"{K}(a0, 0.3)", f"{K}(a0, weights=a2)"]:
    for meth in ["evaluate", "pdf", "logpdf", "__call__"]:
        add(f"{ctor}.{meth}(a1)", _D1, _P1, _W)
        add(f"{ctor}.{meth}(a1)", _D2, _P2, _W)
    for attr in ["neff", "dataset", "weights", "covariance", "inv_cov", "d", "n"]:
        add(f"{ctor}.{attr}", _D2, _P2, _W)
    add(f"{ctor}.integrate_gaussian(a1, 2.0)", _D1, "py:0.5", _W)
    add(
        f"{ctor}.integrate_gaussian(a1, a3)",
        _D2,
        "py:[0.5, 0.0]",
        _W,
        "py:[[1.0, 0.2], [0.2, 2.0]]",
    )
    add(f"{ctor}.integrate_box_1d(-1.0, 1.0)", _D1, _P1, _W)
    add(f"{ctor}.integrate_box_1d(-inf, inf)", _D1, _P1, _W)
    add(f"{ctor}.integrate_kde({K}(a1))", _D1, "arr:float32:[0.0, 1.0, 1.5]", _W)
    add(f"{ctor}.integrate_kde({K}(a1))", _D2, _P2, _W)
    add(f"jax.tree_util.tree_leaves({ctor})", _D1, _P1, _W)
add(f"{K}(a0, lambda kde: 0.5 * kde.neff ** -0.2).covariance", _D1)
add(f"{K}(a0, lambda kde: 0.5 * kde.neff ** -0.2).covariance", _D2)
add(f"{K}(a0).evaluate(a1)", _D2, "arr:float32:[0.5, 1.0]")
add(f"{K}(a0).evaluate(a1)", _D2, "arr:float32:[0.5, 1.0, 2.0]")
add(f"{K}(a0).evaluate(a1)", _D2, "arr:float32:[[0.5, 1.0, 2.0]]")
add(f"{K}(a0).evaluate(a1)", _D1, "py:0.5")
add(f"{K}(a0).evaluate(a1)", _D1, "arr:int32:[0, 1]")
add(f"{K}(a0).evaluate(a1)", _D1, "arr:float64:[0.0, 1.0]")
add(f"{K}(a0).evaluate(a1)", _D1, "arr:complex64:[0.0, 1.0]")
add(f"{K}(a0).logpdf(a1)", _D1, "arr:float32:[-100.0, 100.0]")
add(f"{K}(a0).evaluate(a1)", "arr:int32:[1, 2, 4, 7]", "arr:float32:[0.0, 3.0]")
add(f"{K}(a0).evaluate(a1)", "arr:float16:[1.0, 2.0, 4.0, 7.0]", "arr:float32:[0.0, 3.0]")
add(f"{K}(a0).evaluate(a1)", "arr:float64:[1.0, 2.0, 4.0, 7.0]", "arr:float32:[0.0, 3.0]")
add(f"{K}(a0, weights=a1).evaluate(2.0)", "arr:float32:[1.0, 2.0, 4.0]", "arr:int32:[1, 2, 1]")
add(f"{K}(a0, weights=a1).weights", "arr:float16:[1.0, 2.0, 4.0]", "arr:float32:[1.0, 2.0, 1.0]")
add(f"{K}(a0).neff", "py:[1.0, 2.0, 4.0]")
add(f"{K}(a0).covariance", "py:[1, 2, 4]")
add(f"{K}(a0, 'scott').covariance", "full3:1.5")
add(f"{K}(a0, 'bogus')", _D1)
add(f"{K}(a0, [0.5])", _D1)
add(f"{K}(a0)", "arr:float32:[1.0]")
add(f"{K}(a0)", "py:1.0")
add(f"{K}(a0)", "arr:complex64:[1.0, 2.0]")
add(f"{K}(a0, weights=a1)", _D1, "arr:float32:[1.0, 2.0]")
add(f"{K}(a0, weights=a1)", _D1, "arr:float32:[[1.0, 2.0, 1.0, 0.5, 0.5]]")
add(f"{K}(a0).integrate_box_1d(-1.0, 1.0)", _D2)
add(f"{K}(a0).integrate_box_1d(a1, 1.0)", _D1, "arr:float32:[-1.0]")
add(f"{K}(a0).integrate_box_1d(a1, a2)", _D1, "weak:-1.0", "arr:float32:0.5")
add(f"{K}(a0).integrate_gaussian(a1, 1.0)", _D2, "py:0.5")
add(f"{K}(a0).integrate_gaussian(a1, 1.0)", _D2, "py:[0.5, 1.0]")
add(f"{K}(a0).integrate_kde({K}(a1))", _D1, _D2)
add(f"{K}(a0).integrate_box(-1.0, 1.0)", _D1)
add(f"{K}(a0).set_bandwidth('silverman')", _D1)
add(f"{K}(a0).set_bandwidth()", _D1)
add(f"{K}(a0).resample(random.key(0), (4,))", _D1)
add(f"{K}(a0).resample(random.PRNGKey(3))", _D2)
add(f"{K}(a0, weights=a1).resample(random.key(7), (2, 3))", _D2, _W)
add(f"jax.jit(lambda k, x: k(x))({K}(a0), a1)", _D2, _P2)
add(f"jax.jit(lambda k: k.integrate_box_1d(-1.0, 1.0))({K}(a0))", _D1)
add(f"jax.tree_util.tree_map(lambda v: v * 2, {K}(a0)).covariance", _D1)

# -- jit and grad
add("jax.grad(stats.vonmises.logpdf, argnums=(0, 1))(a0, a1)", "py:0.3", "py:2.0")
add("jax.grad(stats.vonmises.logpdf, argnums=(0, 1))(a0, a1)", "py:-2.5", "py:40.0")
add("jax.grad(stats.vonmises.pdf, argnums=(0, 1))(a0, a1)", "py:0.3", "py:2.0")
add("jax.grad(stats.wrapcauchy.logpdf, argnums=(0, 1))(a0, a1)", "py:0.3", "py:0.5")
add("jax.grad(stats.gennorm.logpdf, argnums=(0, 1))(a0, a1)", "py:0.7", "py:1.5")
add("jax.grad(stats.gennorm.cdf, argnums=0)(a0, a1)", "py:0.7", "py:1.5")
for fn in ["logpdf", "pdf", "logcdf", "cdf", "logsf", "sf"]:
    add(
        f"jax.grad(stats.truncnorm.{fn}, argnums=(0, 3, 4))(a0, -1.0, 2.0, a1, a2)",
        "py:0.3",
        "py:0.2",
        "py:1.5",
    )
add(
    "jax.grad(lambda a: stats.dirichlet.logpdf(a0, a).sum())(a1)",
    "arr:float32:[0.2, 0.3, 0.5]",
    _ALPHA,
)
add(
    "jax.grad(lambda p: stats.multinomial.logpmf(a0, 6, p))(a1)",
    "arr:int32:[1, 2, 3]",
    "arr:float32:[0.2, 0.3, 0.5]",
)
add("jax.grad(lambda m: stats.poisson.entropy(m))(a0)", "py:4.0")
add("jax.grad(lambda m: stats.poisson.entropy(m))(a0)", "py:40.0")
add("jax.grad(lambda m: stats.poisson.entropy(m))(a0)", "py:400.0")
add("jax.grad(lambda a: stats.sem(a))(a0)", "arr:float32:[1.0, 2.0, 4.0]")
add("jax.grad(lambda d: stats.gaussian_kde(d).logpdf(0.5).sum())(a0)", _D1)
add("jax.jit(stats.vonmises.logpdf)(a0, a1)", "py:0.3", "py:2.0")
add("jax.jit(stats.dirichlet.logpdf)(a0, a1)", "arr:float32:[0.2, 0.3, 0.5]", _ALPHA)


def run(expr: str, specs: list[str]) -> dict[str, Any]:
    import jax.numpy as jnp
    import jax.random as random
    import jax.scipy.stats as stats

    try:
        args = {f"a{i}": make_arg(s) for i, s in enumerate(specs)}
        names = {"jnp": jnp, "stats": stats, "jax": jax, "random": random, "inf": np.inf}
        out = eval(expr, {**names, **args})
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    leaves = jax.tree_util.tree_leaves(out) if not isinstance(out, (bool, int)) else [out]
    return {"outputs": [leaf(x) for x in leaves], "tuple": isinstance(out, (tuple, list))}


def main() -> None:
    cases = []
    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        for expr, specs in CASES:
            cases.append({"expr": expr, "args": specs, "x64": x64, "result": run(expr, specs)})
    meta = {"jax": importlib.metadata.version("jax"), "numpy": np.__version__}
    lines = [json.dumps(c, sort_keys=True) for c in cases]
    OUT_PATH.write_text(
        '{"meta": '
        + json.dumps(meta, sort_keys=True)
        + ',\n"cases": [\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )
    print(f"wrote {OUT_PATH} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
