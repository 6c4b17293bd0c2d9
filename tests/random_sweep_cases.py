"""The sampler sweep replayed against JAX (``tests/golden/random_sweep.json``): every float
sampler, at ordinary and extreme parameters, in float16, bfloat16, float32 and float64 (x64),
drawn at sizes 1, 7, 1000 and 100,000 (the extremes and the counting samplers at 100,000 only).
Sizes around the chunk size (65,536) are covered by ``tests/test_random_large.py`` (65,537) and
``tests/test_random_fast.py`` (65,535-65,537 against the plain algorithm).

Each case is ``(expression, dtype, size)``: the expression is evaluated with ``r`` bound to the
random module, ``k`` to ``key(7)``, ``n`` to the size and ``d`` to the dtype (x64 on for
float64). Integer samplers (poisson) take ``d`` as their integer dtype.
"""

from __future__ import annotations

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
SIZES = (1, 7, 1000, 100000)
STRIDE = 4999  # JAX's values at positions 0, 4999, ... of the 100,000-element draws
MEASURED_SIZE = 100000

#: Float samplers at ordinary parameters (drawn at every size of ``SIZES``).
SAMPLERS = (
    "r.normal(k, (n,), d)",
    "r.uniform(k, (n,), d, -2.0, 3.0)",
    "r.cauchy(k, (n,), d)",
    "r.exponential(k, (n,), d)",
    "r.laplace(k, (n,), d)",
    "r.logistic(k, (n,), d)",
    "r.gumbel(k, (n,), d)",
    "r.rayleigh(k, 1.0, (n,), d)",
    "r.maxwell(k, (n,), d)",
    "r.double_sided_maxwell(k, 0.0, 1.0, (n,), d)",
    "r.lognormal(k, 0.5, (n,), d)",
    "r.pareto(k, 3.0, (n,), d)",
    "r.weibull_min(k, 1.0, 2.0, (n,), d)",
    "r.wald(k, 1.0, (n,), d)",
    "r.triangular(k, 0.0, 1.0, 2.0, (n,), d)",
    "r.truncated_normal(k, -1.0, 2.0, (n,), d)",
    "r.t(k, 5.0, (n,), d)",
    "r.chisquare(k, 3.0, (n,), d)",
    "r.f(k, 3.0, 5.0, (n,), d)",
    "r.beta(k, 2.0, 3.0, (n,), d)",
    "r.gamma(k, 0.5, (n,), d)",
    "r.gamma(k, 3.0, (n,), d)",
    "r.loggamma(k, 2.0, (n,), d)",
    "r.generalized_normal(k, 2.0, (n,), d)",
)
EXTREME_SIZES = (100000,)
#: Shapes and rates near 0 and huge, bounds far in the tails (drawn at ``EXTREME_SIZES``, as
#: are ``COUNTERS``).
EXTREMES = (
    "r.gamma(k, 1e-4, (n,), d)",
    "r.gamma(k, 2.5, (n,), d)",
    "r.gamma(k, 1e4, (n,), d)",
    "r.loggamma(k, 1e-3, (n,), d)",
    "r.beta(k, 1e-3, 1e-3, (n,), d)",
    "r.beta(k, 1e3, 1e3, (n,), d)",
    "r.chisquare(k, 1e-2, (n,), d)",
    "r.t(k, 0.5, (n,), d)",
    "r.t(k, 1e4, (n,), d)",
    "r.f(k, 0.5, 1e3, (n,), d)",
    "r.pareto(k, 1e-2, (n,), d)",
    "r.pareto(k, 100.0, (n,), d)",
    "r.weibull_min(k, 0.1, 5.0, (n,), d)",
    "r.wald(k, 1e-3, (n,), d)",
    "r.wald(k, 1e3, (n,), d)",
    "r.lognormal(k, 5.0, (n,), d)",
    "r.generalized_normal(k, 0.5, (n,), d)",
    "r.generalized_normal(k, 10.0, (n,), d)",
    "r.truncated_normal(k, 5.0, 6.0, (n,), d)",
    "r.truncated_normal(k, -6.0, -5.0, (n,), d)",
    "r.truncated_normal(k, 8.0, 9.0, (n,), d)",
    "r.truncated_normal(k, -0.1, 0.1, (n,), d)",
    "r.uniform(k, (n,), d, 1e-30, 1e-29)",
)
#: Counting samplers: ``d`` is the result's dtype.
COUNTERS = (
    ("r.poisson(k, 1e-3, (n,), d)", "int32"),
    ("r.poisson(k, 5.0, (n,), d)", "int32"),
    ("r.poisson(k, 50.0, (n,), d)", "int32"),
    ("r.poisson(k, 1e5, (n,), d)", "int32"),
    ("r.binomial(k, 10.0, 0.3, (n,), d)", "float32"),
    ("r.binomial(k, 1000.0, 0.01, (n,), d)", "float32"),
    ("r.binomial(k, 1e6, 0.5, (n,), d)", "float32"),
)

CASES = tuple(
    [(s, dt, n) for s in SAMPLERS for dt in FLOAT_DTYPES for n in SIZES]
    + [(s, dt, n) for s in EXTREMES for dt in FLOAT_DTYPES for n in EXTREME_SIZES]
    + [(s, dt, n) for s, dt in COUNTERS for n in EXTREME_SIZES]
)


def case_id(expr: str, dtype: str, size: int) -> str:
    return f"{expr}|{dtype}|{size}"
