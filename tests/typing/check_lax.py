"""``trellax.lax``: the same ArrayLike-in, Array-out contract, and typed control flow."""

from __future__ import annotations

from typing import Any

from typing_extensions import assert_type

import trellax.numpy as tnp
from trellax import Array, lax

x = tnp.arange(4.0)
i = tnp.arange(4)

# elementwise wrappers built by factories keep their parameters
assert_type(lax.add(x, x), Array)
assert_type(lax.add(x, 1.0), Array)
assert_type(lax.mul(x=x, y=x), Array)
assert_type(lax.lt(x, 2.0), Array)
assert_type(lax.sin(x), Array)
assert_type(lax.neg(x=x), Array)
assert_type(lax.bitwise_and(i, i), Array)
assert_type(lax.round(x, 1), Array)
assert_type(lax.integer_pow(x, 3), Array)
assert_type(lax.square(x), Array)

# reductions, cumulative ops, sort, dot
assert_type(lax.reduce_sum(x, (0,)), Array)
assert_type(lax.reduce_max(x, axes=[0]), Array)
assert_type(lax.argmax(x, 0, "int32"), Array)
assert_type(lax.cumsum(x), Array)
assert_type(lax.cumprod(x, axis=0, reverse=True), Array)
assert_type(lax.sort(x), Array)
assert_type(lax.sort((x, i), num_keys=1), tuple[Array, ...])
assert_type(lax.dot(x, x), Array)
assert_type(lax.dot_general(x, x, (((0,), (0,)), ((), ()))), Array)

# structural
assert_type(lax.convert_element_type(x, "float16"), Array)
assert_type(lax.reshape(x, (2, 2)), Array)
assert_type(lax.broadcast_in_dim(x, (3, 4), (1,)), Array)
assert_type(lax.concatenate([x, x], 0), Array)
assert_type(lax.select(x > 1, x, -x), Array)
assert_type(lax.iota("int32", 4), Array)

# linear algebra
m = tnp.eye(3)
assert_type(lax.linalg.cholesky(m), Array)
assert_type(lax.linalg.qr(m), tuple[Array, Array])
assert_type(lax.linalg.svd(m), tuple[Array, Array, Array])
assert_type(lax.linalg.svd(m, compute_uv=False), Array)
assert_type(lax.linalg.triangular_solve(m, m, lower=True), Array)


# control flow: functions in, Any out (the pytree structure is the branch's)
def inc(v: Array) -> Array:
    return v + 1


def dec(v: Array) -> Array:
    return v - 1


def body(k: Array, v: Array) -> Array:
    return v * k


def step(carry: Array, v: Array) -> tuple[Array, Array]:
    return carry + v, carry


assert_type(lax.cond(x[0] > 0, inc, dec, x), Any)
assert_type(lax.switch(1, [inc, dec], x), Any)
assert_type(lax.fori_loop(0, 3, body, x), Any)
assert_type(lax.while_loop(lambda v: v[0] < 10, inc, x), Any)
assert_type(lax.scan(step, x[0], x), tuple[Any, Any])
assert_type(lax.map(inc, x), Any)


def errors(x: Array) -> None:
    lax.add(x, "1")  # type: ignore[arg-type]
    lax.sin("x")  # type: ignore[arg-type]
    lax.sin()  # type: ignore[call-arg]
    lax.add(x)  # type: ignore[call-arg]
    lax.reduce_sum(x)  # type: ignore[call-arg]
    lax.reduce_sum(x, 0)  # type: ignore[arg-type]
    lax.integer_pow(x, 2.5)  # type: ignore[arg-type]
    lax.convert_element_type(x, 3)  # type: ignore[arg-type]
    lax.linalg.inv("m")  # type: ignore[arg-type]
    lax.cond(True, 1, dec, x)  # type: ignore[arg-type]
    lax.fori_loop(0, 3, inc, x)  # type: ignore[arg-type]
