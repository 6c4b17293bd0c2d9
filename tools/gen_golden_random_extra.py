"""More golden data for trellax.random from real JAX 0.10.2: binomial and multinomial counts,
``vmap`` over keys, gamma-family gradients w.r.t. the shape parameters, and the dtype rules
(errors and the x64 warning). Run with a JAX environment:

    /work/jaxvenv/bin/python tools/gen_golden_random_extra.py > tests/golden/random_extra.json

Each case is a call written once as a string, evaluated here with ``r`` = ``jax.random``,
``jnp`` = ``jax.numpy``, ``jax`` = ``jax`` and the key ``k = r.key(seed)``, and in
tests/test_random_extra.py with trellax's modules under the same names.
"""

from __future__ import annotations

import json
import sys
import warnings

import jax
import jax.numpy as jnp
import jax.random as r
import numpy as np

SEEDS = [0, 42]

# Integer counts: trellax must reproduce them exactly.
COUNTS = [
    "r.binomial(k, 20.0, 0.3, (8,))",
    "r.binomial(k, jnp.array([5.0, 50.0, 500.0, 1e4, jnp.inf, -1.0, jnp.nan, 3.7]),"
    " jnp.array([0.3, 0.6, 0.2, 0.5, 0.3, 0.5, 0.5, 0.9]))",
    "r.binomial(k, 10, jnp.float16(0.3), (4,))",
    "r.binomial(k, 10, 0.3, (4,), dtype='float16')",
    "r.binomial(k, 7.0, jnp.array([0.0, 0.1, 0.5, 0.9, 1.0, 1.5, -0.5]))",
    "r.binomial(k, jnp.array([[0.0, 1.0], [30.0, 2000.0]]), 0.25)",
    "r.binomial(k, 1e6, 0.7, (3, 5))",
    "r.binomial(k, 40.0, 0.5, (200,))",
    "r.multinomial(k, 10.0, jnp.array([0.2, 0.3, 0.5]))",
    "r.multinomial(k, jnp.array([10.0, 100.0]), jnp.array([0.2, 0.3, 0.5]), shape=(2, 3))",
    "r.multinomial(k, 10, jnp.array([0.2, 0.3, 0.5]), dtype='int32')",
    "r.multinomial(k, 10, jnp.array([0.2, 0.3, 0.5]).astype('float16'))",
    "r.multinomial(k, 10, jnp.array([0.0, 0.0, 1.0]))",
    "r.multinomial(k, 1000, jnp.array([0.1, 0.2, 0.3, 0.25, 0.15]), shape=(4, 5))",
    "r.multinomial(k, 50.0, jnp.array([[0.5, 0.5], [0.1, 0.9]]))",
]
COUNTS_X64 = [
    "r.binomial(k, 20.0, 0.3, (8,))",
    "r.binomial(k, 500.0, 0.4, (6,))",
    "r.multinomial(k, 100.0, jnp.array([0.2, 0.3, 0.5]))",
]

# vmap over keys (typed and legacy), under jit too: bits-exact samplers are compared exactly.
VMAP_EXACT = [
    "jax.vmap(lambda q: r.uniform(q, (3,)))(r.split(k, 5))",
    "jax.vmap(lambda q: r.randint(q, (4,), 0, 10))(r.split(k, 3))",
    "jax.vmap(lambda q: r.bits(q, (2,)))(r.key_data(r.split(k, 3)))",
    "r.key_data(jax.vmap(lambda q: r.split(q, 2))(r.split(k, 3)))",
    "r.key_data(jax.vmap(lambda i: r.fold_in(k, i))(jnp.arange(4)))",
    "r.key_data(jax.vmap(r.key)(jnp.arange(3)))",
    "jax.vmap(lambda q: r.permutation(q, 6))(r.split(k, 3))",
    "jax.jit(jax.vmap(lambda q: r.choice(q, 5, (3,), replace=False)))(r.split(k, 3))",
    "jax.vmap(lambda q: r.poisson(q, jnp.array([3.0, 30.0, 300.0])))(r.split(k, 4))",
    "jax.vmap(lambda q: r.binomial(q, jnp.array([5.0, 50.0, 5000.0]), 0.3))(r.split(k, 4))",
    "jax.vmap(lambda lo: r.uniform(k, (2,), minval=lo))(jnp.array([0.0, 0.5]))",
]
VMAP_APPROX = [
    "jax.vmap(lambda q: r.normal(q, (3,)))(r.split(k, 5))",
    "jax.vmap(jax.jit(lambda q: r.normal(q, (3,))))(r.key_data(r.split(k, 5)))",
    "jax.jit(jax.vmap(lambda q: r.gamma(q, jnp.array([0.5, 2.0, 9.0]))))(r.split(k, 3))",
    "jax.vmap(lambda q, a: r.beta(q, a, 2.0))(r.split(k, 3), jnp.array([0.5, 1.0, 4.0]))",
]

# Gradients w.r.t. the shape parameters (implicit reparameterization).
GRADS = [
    "jax.grad(lambda a: r.gamma(k, a, (4,)).sum())(2.0)",
    "jax.vmap(jax.grad(lambda a: r.gamma(k, a)))(jnp.array([0.01, 0.1, 0.5, 1.0, 3.0, 30.0, 1e3]))",
    "jax.grad(lambda a: r.gamma(k, a).sum())(jnp.array([0.2, 0.9, 1.5, 7.0, 100.0]))",
    "jax.grad(lambda a: r.loggamma(k, a, (3,)).sum())(0.2)",
    "jax.grad(lambda a: r.loggamma(k, a, (3,)).sum())(5.0)",
    "jax.grad(lambda a: r.beta(k, a, 2.0, (3,)).sum())(1.5)",
    "jax.grad(lambda b: r.beta(k, 0.5, b, (3,)).sum())(3.0)",
    "jax.grad(lambda a: r.dirichlet(k, a)[0])(jnp.array([1.0, 2.0, 3.0]))",
    "jax.grad(lambda d: r.chisquare(k, d, (3,)).sum())(3.0)",
    "jax.grad(lambda d: r.t(k, d, (3,)).sum())(4.0)",
    "jax.jit(jax.grad(lambda a: r.gamma(k, a, (3,)).sum()))(0.7)",
]
GRADS_X64 = [
    "jax.grad(lambda a: r.gamma(k, a, (4,)).sum())(2.0)",
    "jax.grad(lambda a: r.gamma(k, a).sum())(jnp.array([0.2, 0.9, 1.5, 7.0, 100.0]))",
]

# Calls that raise or warn: the exception type and message, the warning texts.
ERRORS = [
    "r.binomial(k, 10, 0.3, dtype='int32')",
    "r.uniform(k, dtype='int32')",
    "r.uniform(k, dtype='int64')",
    "r.normal(k, dtype='int32')",
    "r.gamma(k, 1.0, dtype='int32')",
    "r.loggamma(k, 1.0, dtype='int32')",
    "r.exponential(k, dtype='bool')",
    "r.bits(k, dtype='int32')",
    "r.randint(k, (2,), 0, 3, dtype='float32')",
    "r.poisson(k, 1.0, dtype='float32')",
    "r.poisson(k, 1.0, dtype='bfloat16')",
    "r.bernoulli(k, 1)",
    "r.uniform(k, (2,), dtype='float64')",
    "r.normal(k, (2,), dtype='float64')",
    "r.randint(k, (2,), 0, 3, dtype='int64')",
    "r.bits(k, (2,), dtype='uint64')",
    "r.multinomial(k, 10, jnp.array([0.5, 0.5]), dtype='float64')",
    "r.gamma(k, jnp.ones(3), (2,))",
    "r.randint(k, (4,), -(2**31), 2**31 - 1, 'int8')",
    "r.randint(k, (4,), 250, 300, 'uint8')",
    "r.randint(k, (4,), -5, 3, 'uint8')",
]


def _value(x: object) -> object:
    a = np.asarray(x)
    if a.dtype.kind in "fV":
        return [None if np.isnan(v) else float(v) for v in a.astype(np.float64).reshape(-1)]
    return [int(v) for v in a.reshape(-1)]


def _cases(calls: list[str], kind: str, x64: bool, seeds: list[int]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    jax.config.update("jax_enable_x64", x64)
    for seed in seeds:
        k = r.key(seed)
        for call in calls:
            case: dict[str, object] = {"call": call, "seed": seed, "x64": x64, "kind": kind}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    x = eval(call, {"r": r, "jnp": jnp, "jax": jax, "k": k})
                except Exception as e:  # the error is the golden datum
                    case["error"] = [type(e).__name__, str(e)]
                else:
                    case.update(
                        dtype=str(x.dtype),
                        shape=list(x.shape),
                        weak_type=bool(getattr(x, "weak_type", False)),
                        values=_value(x),
                    )
            case["warnings"] = [str(w.message) for w in caught]
            out.append(case)
            print(kind, seed, call, file=sys.stderr, flush=True)
    return out


def main() -> None:
    cases = _cases(COUNTS, "exact", False, SEEDS) + _cases(COUNTS_X64, "exact", True, [1])
    cases += _cases(VMAP_EXACT, "exact", False, [3]) + _cases(VMAP_APPROX, "approx", False, [3])
    cases += _cases(GRADS, "approx", False, SEEDS) + _cases(GRADS_X64, "approx", True, [1])
    cases += _cases(ERRORS, "error", False, [0])
    json.dump({"jax_version": jax.__version__, "cases": cases}, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
