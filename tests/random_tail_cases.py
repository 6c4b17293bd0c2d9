"""The samplers' tails replayed against JAX 0.10.2 (``tests/golden/random_tails.json``, written
by ``tools/gen_golden_random_tails.py``), beyond the sweep of ``random_sweep_cases.py``:
``poisson`` at tiny, huge, infinite and invalid rates in every integer dtype (saturation at the
dtype's bounds); the gamma family (``gamma``, ``loggamma``, ``beta``, ``dirichlet``) at shapes from
1e-3 down to subnormal and 0, and huge; ``truncated_normal`` with bounds at +-30 and infinite;
``wald`` at tiny and huge means; ``normal`` (float64's erfinv far in the tails). Each in float16,
bfloat16, float32 and float64 (x64) at sizes 1, 7, 1,000 and 65,537 (the chunk size plus one).

A case is ``(expression, dtype, size)`` as in ``random_sweep_cases`` (``k`` is ``key(7)``).
"""

from __future__ import annotations

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
SIZES = (1, 7, 1000, 65537)
MEASURED_SIZE = 65537

RATES = ("0.0", "1e-30", "1e-3", "9.999", "10.0", "1e3", "1e6", "3e9", "1e30", "inf", "nan", "-1.0")
SHAPES = ("1e-3", "1e-10", "1e-30", "1e-38", "1e-45", "1e-310", "0.0", "1e10", "1e30", "inf")
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
    + [(f"r.poisson(k, {lam}, (n,), d)", "int32", n) for lam in RATES for n in (1, 7, 65537)]
    + [(f.format(a=a), dt, n) for f in FAMILY for a in SHAPES for dt in FLOAT_DTYPES for n in SIZES]
    + [(e, dt, n) for e in OTHERS for dt in FLOAT_DTYPES for n in SIZES]
)


def case_id(expr: str, dtype: str, size: int) -> str:
    return f"{expr}|{dtype}|{size}"
