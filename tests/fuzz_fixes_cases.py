"""Programs where two checks apply, shared by ``tools/gen_golden_fuzz_fixes.py`` (JAX's error
class of each) and ``tests/test_fuzz_fixes.py`` (trellax's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def error_programs(jax: Any, jnp: Any) -> dict[str, Callable[[], Any]]:
    """Each program by name, written against the given ``jax`` and ``jax.numpy``."""
    return {
        "copysign": lambda: jnp.copysign(jnp.ones((1, 3)), jnp.ones((1, 2))),
        "heaviside": lambda: jnp.heaviside(jnp.ones((4,)), jnp.ones((2,))),
        "take0d": lambda: jnp.take(jnp.ones(()), jnp.array([1, 2]), axis=0, mode="wrap"),
        "take0d_empty": lambda: jnp.take(jnp.ones(()), jnp.array([], jnp.int32), axis=0),
        "matmul": lambda: jnp.matmul(jnp.ones((4, 3, 0)), jnp.ones((3, 4, 0))),
        "at_empty_slice": lambda: jnp.zeros((2, 1, 3)).at[..., -1:-1].max(jnp.ones((4, 1))),
        "at_empty_array": lambda: jnp.zeros((2, 3)).at[jnp.array([], jnp.int32)].set(jnp.ones(5)),
        "at_empty_bool_add": lambda: jnp.zeros((3,), bool).at[1:1].add(jnp.ones((7,))),
        "where_empty": lambda: jnp.where(jnp.ones((0, 2)) > 0, jnp.int8(1), jnp.ones((0, 2))),
        "grad_nextafter_empty": lambda: jax.grad(
            lambda x: jnp.nextafter(jnp.nansum(x, axis=-1), 1.0).sum()
        )(jnp.zeros((0, 2, 0))),
        "at_bool_mul_shape": lambda: jnp.ones(2, bool).at[1].multiply(jnp.ones(1, bool)),
        "median_no_rows": lambda: jnp.median(jnp.zeros((0, 0)), axis=1, keepdims=True),
        "quantile_no_q": lambda: jnp.quantile(jnp.zeros((0, 0)), jnp.zeros((0,)), axis=1),
        "nanquantile_no_rows": lambda: jnp.nanquantile(jnp.zeros((0, 0)), 0.5, axis=1),
        "jvp_nansum_empty": lambda: jax.jvp(
            lambda x: jnp.nextafter(jnp.nansum(x, axis=0), 2.0),
            (jnp.zeros((0, 3)),),
            (jnp.ones((0, 3)),),
        ),
    }
