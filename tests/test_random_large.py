"""Every float sampler on draws of 65,537 and 100,000 elements against JAX's bits.

``tests/golden/random_large.json`` (``tools/gen_golden_random_large.py``) holds, per sampler,
dtype and size, the SHA-256 of JAX's draw and its values at every 61st position. A sampler listed
in ``EXACT`` must reproduce the hash; every other one must stay within its measured bound in ulps
at the recorded positions (``ULP_BOUNDS``). The bounds come from NumPy's and XLA's
transcendental kernels (``exp``, ``pow``, ``tan``, float16 arithmetic) disagreeing in the last
bit; integer, bit and ``erfinv``-polynomial arithmetic is exact, and so are the samplers' float32
``log``/``log1p`` (XLA's functions: backend/xla_log.py, random/logs.py). docs/random.md's table comes
from the wider sweep (``tests/test_random_sweep.py``), measured on whole draws.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

import numpy as np
import pytest
from host_simd import host_simd
from random_large_cases import CASES, STRIDE, case_id

import trellax.numpy as jnp
import trellax.random as tr

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "random_large.json").read_text())
KEY = tr.key(2024)

# Measured on draws of 65,537 and 100,000 elements (float32) and 65,537 (float16, bfloat16);
# the comments give the share of recorded positions that differ.
EXACT: set[tuple[str, str]] = {
    ("r.uniform(k, (n,), d, -2.0, 3.0)", "float32"),
    ("r.cauchy(k, (n,), d)", "float32"),
    ("r.triangular(k, 0.0, 1.0, 2.0, (n,), d)", "float32"),
    # far in the tail the bits of erf(lower/sqrt2), erf(upper/sqrt2) decide every value: XLA's
    # float32 erf polynomial (backend/xla_erf.py) makes them JAX's
    ("r.truncated_normal(k, 5.0, 6.0, (n,), d)", "float32"),
    # erfinv's w = -log1p(-x²) with XLA's float32 log1p (backend/xla_log.py)
    ("r.normal(k, (n,), d)", "float32"),
    ("r.truncated_normal(k, -1.0, 2.0, (n,), d)", "float32"),
    ("r.wald(k, 1.0, (n,), d)", "float32"),
    ("r.t(k, 5.0, (n,), d)", "float16"),
    # log/log1p of the uniform draw as XLA's float32 functions (random/logs.py)
    ("r.exponential(k, (n,), d)", "float32"),
    ("r.gumbel(k, (n,), d)", "float32"),
    ("r.laplace(k, (n,), d)", "float32"),
    ("r.logistic(k, (n,), d)", "float32"),
    ("r.rayleigh(k, 1.0, (n,), d)", "float32"),
    ("r.normal(k, (n,), d)", "float16"),
    ("r.normal(k, (n,), d)", "bfloat16"),
    ("r.uniform(k, (n,), d, -2.0, 3.0)", "float16"),
    ("r.uniform(k, (n,), d, -2.0, 3.0)", "bfloat16"),
    ("r.cauchy(k, (n,), d)", "float16"),
    ("r.cauchy(k, (n,), d)", "bfloat16"),
    ("r.exponential(k, (n,), d)", "float16"),
    ("r.exponential(k, (n,), d)", "bfloat16"),
    ("r.gumbel(k, (n,), d)", "bfloat16"),
    ("r.laplace(k, (n,), d)", "float16"),
    ("r.laplace(k, (n,), d)", "bfloat16"),
    ("r.logistic(k, (n,), d)", "bfloat16"),
    ("r.pareto(k, 3.0, (n,), d)", "bfloat16"),
    ("r.truncated_normal(k, -1.0, 2.0, (n,), d)", "float16"),
    ("r.truncated_normal(k, -1.0, 2.0, (n,), d)", "bfloat16"),
    ("r.truncated_normal(k, 5.0, 6.0, (n,), d)", "float16"),
    ("r.truncated_normal(k, 5.0, 6.0, (n,), d)", "bfloat16"),
    ("r.weibull_min(k, 1.0, 2.0, (n,), d)", "float16"),
    ("r.weibull_min(k, 1.0, 2.0, (n,), d)", "bfloat16"),
    ("r.wald(k, 1.0, (n,), d)", "float16"),
    ("r.wald(k, 1.0, (n,), d)", "bfloat16"),
    ("r.lognormal(k, 0.5, (n,), d)", "float16"),
    ("r.lognormal(k, 0.5, (n,), d)", "bfloat16"),
    ("r.maxwell(k, (n,), d)", "float16"),
    ("r.rayleigh(k, 1.0, (n,), d)", "float16"),
    ("r.rayleigh(k, 1.0, (n,), d)", "bfloat16"),
    ("r.double_sided_maxwell(k, 0.0, 1.0, (n,), d)", "float16"),
    ("r.triangular(k, 0.0, 1.0, 2.0, (n,), d)", "float16"),
    ("r.triangular(k, 0.0, 1.0, 2.0, (n,), d)", "bfloat16"),
    # the gamma family runs Marsaglia-Tsang in the half dtype itself, as JAX does
    *(
        (expr, half)
        for expr in (
            "r.gamma(k, 0.5, (n,), d)",
            "r.gamma(k, 3.0, (n,), d)",
            "r.beta(k, 2.0, 3.0, (n,), d)",
            "r.chisquare(k, 3.0, (n,), d)",
            "r.loggamma(k, 2.0, (n,), d)",
            "r.generalized_normal(k, 2.0, (n,), d)",
        )
        for half in ("float16", "bfloat16")
    ),
    ("r.t(k, 5.0, (n,), d)", "bfloat16"),
    ("r.f(k, 3.0, 5.0, (n,), d)", "bfloat16"),
    # (a / b) / (c / d) runs as (a * d) / (b * c) in XLA (distributions.f)
    ("r.f(k, 3.0, 5.0, (n,), d)", "float16"),
}
ULP_BOUNDS: dict[tuple[str, str], int] = {
    ("r.gamma(k, 0.5, (n,), d)", "float32"): 70,  # 26.3%
    ("r.gamma(k, 3.0, (n,), d)", "float32"): 45,  # 19.1%
    ("r.beta(k, 2.0, 3.0, (n,), d)", "float32"): 266,  # 57.0%
    ("r.pareto(k, 3.0, (n,), d)", "float32"): 3,  # 38.6%
    ("r.t(k, 5.0, (n,), d)", "float32"): 179,  # 24.6%
    ("r.weibull_min(k, 1.0, 2.0, (n,), d)", "float32"): 1,  # 2.7%
    ("r.chisquare(k, 3.0, (n,), d)", "float32"): 42,  # 63.1%
    ("r.f(k, 3.0, 5.0, (n,), d)", "float32"): 274,  # 82.2%
    ("r.loggamma(k, 2.0, (n,), d)", "float32"): 2560,  # 33.4%
    ("r.lognormal(k, 0.5, (n,), d)", "float32"): 2,  # 38.9%
    ("r.maxwell(k, (n,), d)", "float32"): 3,  # 12.7%
    ("r.double_sided_maxwell(k, 0.0, 1.0, (n,), d)", "float32"): 3,  # 14.1%
    ("r.generalized_normal(k, 2.0, (n,), d)", "float32"): 36,  # 25.5%
    ("r.gumbel(k, (n,), d)", "float16"): 8,  # 5.3%
    ("r.logistic(k, (n,), d)", "float16"): 15,  # 8.3%
    ("r.pareto(k, 3.0, (n,), d)", "float16"): 2,  # 10.5%
    ("r.maxwell(k, (n,), d)", "bfloat16"): 2,  # 32.2%
    ("r.double_sided_maxwell(k, 0.0, 1.0, (n,), d)", "bfloat16"): 2,  # 31.7%
}
# Samplers whose values differ from JAX's, not just in the last bits (open work, issue 24): in
# the far tail (truncated_normal(5, 6)) the uniform's range spans a few ulps of float32, so the
# last bit of XLA's polynomial erf (correctly rounded for ~65 % of inputs) decides every value;
# float16 f's ratio of two exact chi-square draws differs in 56 % of values (bfloat16 is exact).
DIVERGENT: set[tuple[str, str]] = {}

#: Exact draws that go through a NumPy float32 function whose AVX-512 kernel rounds otherwise
#: than its AVX2 one and XLA's (``tan`` for ``cauchy``): the bound on such a host, at the samples.
AVX512 = host_simd().endswith("AVX-512")
AVX512_BOUNDS: dict[tuple[str, str], int] = {("r.cauchy(k, (n,), d)", "float32"): 2}


def _ordered(raw: np.ndarray, bits: int) -> np.ndarray:
    """Sign-magnitude float bit patterns mapped onto a monotone integer line."""
    r = raw.astype(np.int64)
    top = 1 << (bits - 1)
    return np.where(r & top, top - r, r)


def _draw(expr: str, dtype: str, size: int) -> np.ndarray:
    return np.asarray(eval(expr, {"r": tr, "k": KEY, "n": size, "d": jnp.dtype(dtype)}))


@pytest.mark.parametrize(("expr", "dtype", "size"), CASES, ids=[case_id(*c) for c in CASES])
def test_large_draw_matches_jax(expr: str, dtype: str, size: int) -> None:
    want = GOLDEN[case_id(expr, dtype, size)]
    got = _draw(expr, dtype, size)
    if (expr, dtype) in DIVERGENT:
        digest = hashlib.sha256(got.tobytes()).hexdigest()
        assert digest != want["sha256"], f"{expr} {dtype} now equals JAX: move it to EXACT"
        pytest.xfail("trellax's values differ from JAX's here (see DIVERGENT)")
    assert str(got.dtype) == want["dtype"]
    width = {2: np.uint16, 4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
    raw = got.view(width)
    same = hashlib.sha256(raw.tobytes()).hexdigest() == want["sha256"]
    sample = np.array([int(h, 16) for h in want["sample"]], width)
    ulps = np.abs(_ordered(raw[::STRIDE], 8 * got.itemsize) - _ordered(sample, 8 * got.itemsize))
    worst = int(ulps.max())
    if (expr, dtype) in EXACT:
        if not same and AVX512 and (expr, dtype) in AVX512_BOUNDS:
            assert worst <= AVX512_BOUNDS[(expr, dtype)], f"{expr} {dtype}: {worst} ulp"
            return
        assert same, f"{expr} {dtype}: no longer bit-identical to JAX ({worst} ulp at samples)"
        return
    bound = ULP_BOUNDS.get((expr, dtype), 0)
    assert worst <= bound, f"{expr} {dtype} n={size}: {worst} ulp from JAX (bound {bound})"
