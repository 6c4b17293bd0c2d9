"""``trellax.jit`` keeps the wrapped function's signature (ParamSpec) and its return type."""

from __future__ import annotations

from typing import Any

from typing_extensions import assert_type

import trellax
import trellax.numpy as tnp
from trellax import Array
from trellax.typing import ArrayLike


def scale(x: Array, n: int) -> Array:
    return x * n


x = tnp.arange(3)
jscale = trellax.jit(scale)
assert_type(jscale(x, 2), Array)
assert_type(jscale(x, n=2), Array)
assert_type(trellax.jit(scale)(x, 3), Array)


@trellax.jit
def sum_and_difference(a: ArrayLike, b: ArrayLike) -> tuple[Array, Array]:
    return tnp.add(a, b), tnp.subtract(a, b)


assert_type(sum_and_difference(x, 1.0), tuple[Array, Array])
assert_type(sum_and_difference(1, 2), tuple[Array, Array])


@trellax.jit(static_argnums=1)
def power(a: Array, k: int) -> Array:
    return a**k


assert_type(power(x, 3), Array)


@trellax.jit(static_argnames="mode")
def pick(a: Array, *, mode: str = "sum") -> dict[str, Array]:
    return {mode: a}


assert_type(pick(x, mode="max"), dict[str, Array])

# the wrapper's own API
assert_type(jscale.trace_count, int)
jscale.clear_cache()
assert_type(trellax.eval_shape(scale, x, 2), Any)  # a pytree of ShapeDtypeStructs
assert_type(str(trellax.make_jaxpr(scale)(x, 2)), str)


class Model:
    """A jitted method: ``self`` must be static (hashable), as in JAX."""

    def __init__(self, k: int) -> None:
        self.k = k

    def __hash__(self) -> int:
        return self.k

    @trellax.jit(static_argnums=0)
    def apply(self, a: Array) -> Array:
        return a * self.k


assert_type(Model(2).apply(x), Array)


def errors(x: Array) -> None:
    jscale(x)  # type: ignore[call-arg]
    jscale(x, 2, 3)  # type: ignore[call-arg]
    jscale(x, m=2)  # type: ignore[call-arg]
    jscale(x, "2")  # type: ignore[arg-type]
    jscale("x", 2)  # type: ignore[arg-type]
    trellax.jit(scale)(x, 2.5)  # type: ignore[arg-type]
    sum_and_difference(x, "b")  # type: ignore[arg-type]
    power(x)  # type: ignore[call-arg]
    pick(x, "max")  # type: ignore[call-arg]
    trellax.jit(3)  # type: ignore[call-overload]
    _: int = jscale(x, 2)  # type: ignore[assignment]
