"""Large draws of every float sampler, replayed against JAX (``tests/golden/random_large.json``).

Each case is ``(expression, dtype)``; the expression is evaluated with ``r`` bound to the random
module (``jax.random`` or ``trellax.random``), ``k`` to ``key(2024)``, ``n`` to the draw size and
``d`` to the dtype. The generator records the SHA-256 of the draw's bits and its values at
``SAMPLE_POSITIONS``; the test recomputes the draw and measures the distance in ulps.
"""

SIZES = (65537, 100000)
HALF_SIZE = 65537  # float16 and bfloat16 draws use one size
STRIDE = 61  # values at positions 0, 61, 122, ... are recorded (1,640 of 100,000)

SAMPLERS = (
    "r.normal(k, (n,), d)",
    "r.uniform(k, (n,), d, -2.0, 3.0)",
    "r.cauchy(k, (n,), d)",
    "r.exponential(k, (n,), d)",
    "r.gamma(k, 0.5, (n,), d)",
    "r.gamma(k, 3.0, (n,), d)",
    "r.beta(k, 2.0, 3.0, (n,), d)",
    "r.gumbel(k, (n,), d)",
    "r.laplace(k, (n,), d)",
    "r.logistic(k, (n,), d)",
    "r.pareto(k, 3.0, (n,), d)",
    "r.t(k, 5.0, (n,), d)",
    "r.truncated_normal(k, -1.0, 2.0, (n,), d)",
    "r.truncated_normal(k, 5.0, 6.0, (n,), d)",
    "r.weibull_min(k, 1.0, 2.0, (n,), d)",
    "r.wald(k, 1.0, (n,), d)",
    "r.chisquare(k, 3.0, (n,), d)",
    "r.f(k, 3.0, 5.0, (n,), d)",
    "r.loggamma(k, 2.0, (n,), d)",
    "r.lognormal(k, 0.5, (n,), d)",
    "r.maxwell(k, (n,), d)",
    "r.rayleigh(k, 1.0, (n,), d)",
    "r.double_sided_maxwell(k, 0.0, 1.0, (n,), d)",
    "r.generalized_normal(k, 2.0, (n,), d)",
    "r.triangular(k, 0.0, 1.0, 2.0, (n,), d)",
)

CASES = tuple(
    [(s, "float32", size) for s in SAMPLERS for size in SIZES]
    + [(s, dt, HALF_SIZE) for s in SAMPLERS for dt in ("float16", "bfloat16")]
)


def case_id(expr: str, dtype: str, size: int) -> str:
    return f"{expr}|{dtype}|{size}"
