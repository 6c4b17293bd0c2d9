"""Golden values for trellax.random from real JAX 0.10.2 (run with a JAX environment).

Every case is a call written once as a string and evaluated with ``r`` = ``jax.random`` and
``jnp`` = ``jax.numpy`` here, and with trellax's modules in tests/test_random_golden.py, with the
key ``k = r.key(seed)``. ``exact`` cases must agree bit for bit; the others (transcendental
functions computed by XLA) within a few ulps.

    /work/jaxvenv/bin/python tools/gen_golden_random.py > tests/golden/random.json
"""

from __future__ import annotations

import json
import sys
import warnings

import jax
import jax.numpy as jnp
import jax.random as r
import numpy as np

SEEDS = [0, 1, 42, 123456, -1, 2**31 - 1]

EXACT = [
    "r.key_data(k)",
    "r.key_data(r.split(k))",
    "r.key_data(r.split(k, (2, 3)))",
    "r.key_data(r.fold_in(k, 0))",
    "r.key_data(r.fold_in(k, 7))",
    "r.key_data(r.fold_in(k, 2**32 - 1))",
    "r.key_data(r.fold_in(k, jnp.int32(-1)))",
    "r.bits(k, (5,))",
    "r.bits(k, (2, 3), 'uint8')",
    "r.bits(k, (7,), 'uint16')",
    "r.bits(k)",
    "r.uniform(k, (7,))",
    "r.uniform(k, (2, 3), 'float16')",
    "r.uniform(k, (6,), 'bfloat16')",
    "r.uniform(k, (7,), minval=-2, maxval=3)",
    "r.uniform(k, (5,), 'float16', -3.0, 5.0)",
    "r.uniform(k, (5,), 'bfloat16', 1.0, 7.0)",
    "r.uniform(k, (3,), minval=jnp.array([0.0, 1.0, 2.0]), maxval=10.0)",
    "r.uniform(k, (4,), minval=1.0, maxval=0.0)",
    "r.randint(k, (6,), 0, 10)",
    "r.randint(k, (6,), -100, 100)",
    "r.randint(k, (6,), 0, 256, 'uint8')",
    "r.randint(k, (6,), -128, 128, 'int8')",
    "r.randint(k, (6,), -1000, 1000, 'int8')",
    "r.randint(k, (6,), 3, 3)",
    "r.randint(k, (6,), 5, 2)",
    "r.randint(k, (6,), -(2**31), 2**31 - 1)",
    "r.randint(k, (6,), 0, 40000, 'uint16')",
    "r.randint(k, (2, 3), jnp.array([0, 10, 20]), 30)",
    "r.randint(k, (4,), 0.5, 10.7)",
    "r.bernoulli(k, 0.3, (8,))",
    "r.bernoulli(k, jnp.array([0.1, 0.5, 0.9]))",
    "r.bernoulli(k, 0.5, (6,), mode='high')",
    "r.rademacher(k, (6,))",
    "r.rademacher(k, (4,), 'float32')",
    "r.permutation(k, 10)",
    "r.permutation(k, jnp.arange(10) * 10)",
    "r.permutation(k, jnp.arange(12).reshape(3, 4), axis=1)",
    "r.permutation(k, jnp.arange(12).reshape(3, 4), axis=1, independent=True)",
    "r.permutation(k, 2000)[:16]",
    "r.choice(k, 5, (3,))",
    "r.choice(k, 5, (3,), replace=False)",
    "r.choice(k, jnp.arange(10) * 2, (2, 2))",
    "r.choice(k, 4, (5,), p=jnp.array([0.1, 0.2, 0.3, 0.4]))",
    "r.choice(k, 6, (3,), replace=False, p=jnp.array([0.1, 0.2, 0.3, 0.2, 0.1, 0.1]))",
    "r.categorical(k, jnp.log(jnp.array([0.1, 0.2, 0.3, 0.4])), shape=(6,))",
    "r.categorical(k, jnp.zeros((2, 5)))",
    "r.categorical(k, jnp.zeros((3, 4)), axis=0, shape=(2, 4))",
    "r.geometric(k, 0.3, (6,))",
]
EXACT_X64 = [
    "r.bits(k, (3,))",
    "r.uniform(k, (5,))",
    "r.uniform(k, (5,), minval=-2.0, maxval=3.0)",
    "r.uniform(k, (5,), 'float32')",
    "r.randint(k, (6,), 0, 10)",
    "r.randint(k, (6,), -(2**40), 2**40)",
    "r.randint(k, (6,), 0, 2**32, 'uint32')",
    "r.permutation(k, 8)",
    "r.choice(k, 5, (3,))",
    "r.key_data(r.key(2**40 + 7))",
]
APPROX = [
    "r.normal(k, (7,))",
    "r.normal(k, (4,), 'float16')",
    "r.normal(k, (3,), 'complex64')",
    "r.truncated_normal(k, -1.0, 1.0, (5,))",
    "r.truncated_normal(k, 0.5, 2.0, (5,))",
    "r.exponential(k, (5,))",
    "r.gumbel(k, (5,))",
    "r.laplace(k, (5,))",
    "r.logistic(k, (5,))",
    "r.cauchy(k, (5,))",
    "r.gamma(k, 2.0, (5,))",
    "r.gamma(k, 0.3, (5,))",
    "r.gamma(k, jnp.array([0.5, 1.0, 5.0, 50.0]))",
    "r.loggamma(k, 0.2, (4,))",
    "r.beta(k, 2.0, 3.0, (4,))",
    "r.dirichlet(k, jnp.array([1.0, 2.0, 3.0]))",
    "r.t(k, 3.0, (4,))",
    "r.chisquare(k, 3.0, (4,))",
    "r.f(k, 3.0, 4.0, (4,))",
    "r.poisson(k, 3.0, (6,))",
    "r.poisson(k, 30.0, (6,))",
    "r.poisson(k, jnp.array([0.0, 1.0, 9.5, 10.0, 200.0]))",
    "r.lognormal(k, 0.5, (4,))",
    "r.pareto(k, 3.0, (4,))",
    "r.weibull_min(k, 2.0, 3.0, (4,))",
    "r.rayleigh(k, 2.0, (4,))",
    "r.maxwell(k, (4,))",
    "r.double_sided_maxwell(k, 1.0, 2.0, (4,))",
    "r.triangular(k, 0.0, 1.0, 3.0, (4,))",
    "r.wald(k, 2.0, (4,))",
    "r.generalized_normal(k, 1.5, (4,))",
    "r.ball(k, 3, 2.0, (2,))",
    "r.multivariate_normal(k, jnp.zeros(2), jnp.array([[2.0, 0.5], [0.5, 1.0]]), (3,))",
    "r.orthogonal(k, 3)",
]
APPROX_X64 = ["r.normal(k, (5,))", "r.gamma(k, 2.0, (4,))", "r.exponential(k, (4,))"]


def _value(x: object) -> object:
    a = np.asarray(x)
    if a.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in a.reshape(-1)]
    if a.dtype.kind in "fV":
        return [float(v) for v in a.astype(np.float64).reshape(-1)]
    return [int(v) for v in a.reshape(-1)]


def _cases(calls: list[str], exact: bool, x64: bool) -> list[dict[str, object]]:
    out = []
    jax.config.update("jax_enable_x64", x64)
    for seed in SEEDS:
        k = r.key(seed)
        for call in calls:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                x = eval(call, {"r": r, "jnp": jnp, "k": k})
            out.append(
                {
                    "call": call,
                    "seed": seed,
                    "x64": x64,
                    "exact": exact,
                    "dtype": str(x.dtype),
                    "shape": list(x.shape),
                    "values": _value(x),
                }
            )
    return out


def main() -> None:
    cases = _cases(EXACT, True, False) + _cases(APPROX, False, False)
    cases += _cases(EXACT_X64, True, True) + _cases(APPROX_X64, False, True)
    json.dump({"jax_version": jax.__version__, "cases": cases}, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
