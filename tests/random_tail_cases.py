"""The samplers' tails replayed against JAX 0.10.2 (``tests/golden/random_tails.json``, written
by ``tools/gen_golden_random_tails.py``), beyond the sweep of ``random_sweep_cases.py``:
``poisson`` at tiny, huge, infinite and invalid rates in every integer dtype (saturation at the
dtype's bounds); the gamma family (``gamma``, ``loggamma``, ``beta``, ``dirichlet``) at shapes from
1e-3 down to subnormal and 0, and huge; ``truncated_normal`` with bounds at +-30 and infinite;
``wald`` at tiny and huge means; ``normal`` (float64's erfinv far in the tails). Each in float16,
bfloat16, float32 and float64 (x64) at 7 and 1,000 values, and 65,537 (the chunk size plus one)
for the tails of ``OTHERS`` and the shape 1e-3 (the machine this ran on was too loaded for more).

A case is ``(expression, dtype, size)`` as in ``random_sweep_cases`` (``k`` is ``key(7)``).
"""

from __future__ import annotations

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
MEASURED_SIZE = 65537

RATES = ("1e-30", "9.999", "1e3", "3e9", "1e30", "inf", "nan", "-1.0")
SHAPES = ("1e-3", "1e-30", "1e-38", "1e-310", "0.0", "1e30")
FAMILY = (
    "r.gamma(k, {a}, (n,), d)",
    "r.loggamma(k, {a}, (n,), d)",
    "r.beta(k, {a}, {a}, (n,), d)",
    "r.dirichlet(k, np.array([{a}, {a}, 1.0]), (n // 3 + 1,), d)",
)
OTHERS = (
    "r.truncated_normal(k, -30.0, 30.0, (n,), d)",
    "r.truncated_normal(k, 29.0, 30.0, (n,), d)",
    "r.truncated_normal(k, -30.0, -29.0, (n,), d)",
    "r.truncated_normal(k, 30.0, inf, (n,), d)",
    "r.truncated_normal(k, -inf, -30.0, (n,), d)",
    "r.wald(k, 1e-30, (n,), d)",
    "r.wald(k, 1e10, (n,), d)",
    "r.wald(k, inf, (n,), d)",
    "r.normal(k, (n,), d)",
)

CASES = tuple(
    [(f"r.poisson(k, {lam}, (n,), d)", dt, 1000) for lam in RATES for dt in INT_DTYPES]
    + [(f"r.poisson(k, {lam}, (n,), d)", "int32", 65537) for lam in ("1e3", "3e9")]
    + [
        (f.format(a=a), dt, n)
        for f in FAMILY
        for a in SHAPES
        for dt in FLOAT_DTYPES
        for n in (7, 1000)
    ]
    + [(f.format(a="1e-3"), dt, 65537) for f in FAMILY for dt in FLOAT_DTYPES]
    + [(e, dt, n) for e in OTHERS for dt in FLOAT_DTYPES for n in (7, 65537)]
)


def case_id(expr: str, dtype: str, size: int) -> str:
    return f"{expr}|{dtype}|{size}"
